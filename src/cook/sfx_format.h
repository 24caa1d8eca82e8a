// The cooked effect file (.sfx): a CompiledEffect as bytes. Byte layout: docs/sfx-format.md.
//
// FROZEN: the header, the section table entry and the section ids are the file format. Any
// change to them or to a record layout in src/kernels/effect_records.h bumps kSfxFormatVersion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "kernels/effect_records.h"

namespace spindrift {

inline constexpr char kSfxMagic[8] = {'S', 'P', 'N', 'D', 'R', 'S', 'F', 'X'};
// 1: the checksum covered the bytes after the header only. 2: it covers every byte but its own
// field (so the header's structural hash too), and the loader recomputes the structural hash.
// 3: sections parameters and parameter_bindings (user parameters, compiler/parameter_bindings.h),
//    emitter_events (EmitterEventsRecord), and sub-emitter event kEventThreshold; ColliderRecord
//    grew to 80 bytes (payload, axis_u, axis_v for the host's world colliders); scalability.
// 4: EmitterRecord grew to 464 bytes (emission: emissive, emissive_share); op kOpBlackbody.
// 5: section particle_lights (ParticleLightRecord: render.lights), EmitterRecord unchanged.
inline constexpr uint32_t kSfxFormatVersion = 6;
// Written as a little-endian uint32; a big-endian writer would produce 04 03 02 01.
inline constexpr uint32_t kSfxEndiannessMarker = 0x01020304u;
inline constexpr uint64_t kSfxSectionAlignment = 16;

// 48 bytes at offset 0. checksum is sfxChecksum: FNV-1a 64 (src/compiler/structural_hash.h) of
// every byte of the file but the checksum's own 8: the rest of the header (structural_hash
// included), the section table and every section, padding included.
struct SfxHeader {
    char magic[8];
    uint32_t format_version;
    uint32_t endianness;
    uint32_t section_count;
    uint32_t reserved; // 0
    uint64_t file_size;
    uint64_t checksum;
    uint64_t structural_hash; // CompiledEffect::structural_hash; the loader recomputes it
};
static_assert(sizeof(SfxHeader) == 48 && std::is_trivially_copyable_v<SfxHeader>);
static_assert(offsetof(SfxHeader, file_size) == 24 && offsetof(SfxHeader, checksum) == 32);
static_assert(offsetof(SfxHeader, structural_hash) == 40);

// The checksum of a whole file (at least sizeof(SfxHeader) bytes): FNV-1a 64 of bytes [0, 32)
// and then [40, size), skipping the checksum field itself.
uint64_t sfxChecksum(std::span<const uint8_t> file);

// 32 bytes per section, right after the header, in section id order.
struct SfxSectionEntry {
    uint32_t id;          // SfxSection
    uint32_t record_size; // bytes per record
    uint32_t count;       // records
    uint32_t reserved;    // 0
    uint64_t offset;      // from the start of the file, a multiple of 16
    uint64_t byte_size;   // record_size * count
};
static_assert(sizeof(SfxSectionEntry) == 32 && std::is_trivially_copyable_v<SfxSectionEntry>);

// Section ids. Frozen. Every file carries every section exactly once, in this order.
enum class SfxSection : uint32_t {
    effect = 1,              // one EffectRecord
    emitters = 2,            // EmitterRecord
    ops = 3,                 // OpRecord
    bursts = 4,              // BurstRecord
    colliders = 5,           // ColliderRecord
    force_fields = 6,        // ForceFieldRecord
    mesh_points = 7,         // MeshPointRecord
    sub_emitters = 8,        // SubEmitterRecord
    lut = 9,                 // rows of kLutWidth vec4 (1024 bytes per record)
    strings = 10,            // the string table, one byte per record
    parameters = 11,         // ParameterRecord (compiler/parameter_bindings.h)
    parameter_bindings = 12, // ParameterBindingRecord
    emitter_events = 13,     // EmitterEventsRecord: none, or one per emitter
    scalability = 14,        // ScalabilityRecord: none, or one
    particle_lights = 15,    // ParticleLightRecord: none, or one per emitter
};
inline constexpr uint32_t kSfxSectionCount = 15;

struct SfxSectionInfo {
    SfxSection id;
    std::string_view name;
    uint32_t record_size;
    uint32_t max_count; // a bound implied by the format's limits (effect_desc.h)
};

// Indexed by id - 1.
const SfxSectionInfo& sfxSectionInfo(uint32_t index);

inline constexpr uint64_t alignSfxOffset(uint64_t offset) {
    return (offset + (kSfxSectionAlignment - 1)) & ~(kSfxSectionAlignment - 1);
}

} // namespace spindrift
