#include "cook/sfx_format.h"

#include "compiler/parameter_bindings.h"
#include "compiler/structural_hash.h"
#include "spindrift/effect_desc.h"

namespace spindrift {
namespace {

// Bounds on each section's record count, derived from the per-emitter limits so a hostile file
// cannot ask for more memory than the largest valid effect.
constexpr uint32_t kMaxOps = kMaxEmitters * kMaxUpdateModules;
constexpr uint32_t kMaxLutRows = kMaxEmitters * (1 + kMaxUpdateModules);
constexpr uint32_t kMaxStringBytes = kMaxNameBytes +
                                     kMaxEmitters * (kMaxNameBytes + 2 * kMaxPathBytes) +
                                     kMaxParameters * kMaxNameBytes;

constexpr SfxSectionInfo kSections[kSfxSectionCount] = {
    {SfxSection::effect, "effect", sizeof(EffectRecord), 1},
    {SfxSection::emitters, "emitters", sizeof(EmitterRecord), kMaxEmitters},
    {SfxSection::ops, "ops", sizeof(OpRecord), kMaxOps},
    {SfxSection::bursts, "bursts", sizeof(BurstRecord), kMaxEmitters* kMaxBursts},
    {SfxSection::colliders, "colliders", sizeof(ColliderRecord), kMaxOps* kMaxColliders},
    {SfxSection::force_fields, "force_fields", sizeof(ForceFieldRecord),
     kMaxEmitters* kMaxForceFields},
    {SfxSection::mesh_points, "mesh_points", sizeof(MeshPointRecord), kMaxEmitters* kMaxMeshPoints},
    {SfxSection::sub_emitters, "sub_emitters", sizeof(SubEmitterRecord),
     kMaxEmitters* kMaxSubEmitters},
    {SfxSection::lut, "lut", kLutWidth * sizeof(vec4), kMaxLutRows},
    {SfxSection::strings, "strings", 1, kMaxStringBytes},
    {SfxSection::parameters, "parameters", sizeof(ParameterRecord), kMaxParameters},
    {SfxSection::parameter_bindings, "parameter_bindings", sizeof(ParameterBindingRecord),
     kMaxParameterWords},
    {SfxSection::emitter_events, "emitter_events", sizeof(EmitterEventsRecord), kMaxEmitters},
    {SfxSection::scalability, "scalability", sizeof(ScalabilityRecord), 1},
    {SfxSection::particle_lights, "particle_lights", sizeof(ParticleLightRecord), kMaxEmitters},
};

} // namespace

const SfxSectionInfo& sfxSectionInfo(uint32_t index) {
    return kSections[index];
}

uint64_t sfxChecksum(std::span<const uint8_t> file) {
    constexpr size_t kField = offsetof(SfxHeader, checksum);
    constexpr size_t kAfter = kField + sizeof(SfxHeader::checksum);
    const uint64_t head = fnv1a64(file.data(), kField);
    return fnv1a64(file.data() + kAfter, file.size() - kAfter, head);
}

} // namespace spindrift
