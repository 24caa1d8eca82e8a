#include "compiler/structural_hash.h"

#include <string>
#include <vector>

namespace spindrift {
namespace {

// Bumped when the rules change, so hashes from different rule sets never compare equal.
constexpr uint32_t kStructuralHashRules = 1;
constexpr uint32_t kNoTarget = 0xFFFFFFFFu;

struct Hasher {
    uint64_t state = kFnv1a64Offset;
    void add(uint32_t value) {
        uint8_t bytes[4] = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                            static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
        state = fnv1a64(bytes, sizeof(bytes), state);
    }
    template <typename E> void addEnum(E value) { add(static_cast<uint32_t>(value)); }
    void addBool(bool value) { add(value ? 1u : 0u); }
};

// The module's own structural fields, beyond its kind and enabled flag.
void addModuleStructure(Hasher& h, const UpdateModuleVariant& module) {
    if (const auto* b = std::get_if<BuoyancyModule>(&module)) h.addBool(b->has_over_life);
    if (const auto* f = std::get_if<ForceFieldModule>(&module)) h.addEnum(f->shape);
    if (const auto* c = std::get_if<CollisionModule>(&module)) {
        h.addBool(c->depth_buffer);
        h.addEnum(c->response);
    }
}

// Index of the named emitter among the enabled emitters, as the compiler numbers them.
uint32_t compiledIndexOf(const EffectDesc& effect, const std::string& name) {
    uint32_t index = 0;
    for (const EmitterDesc& e : effect.emitters) {
        if (e.name == name) return e.enabled ? index : kNoTarget;
        if (e.enabled) ++index;
    }
    return kNoTarget;
}

} // namespace

uint64_t fnv1a64(const void* data, size_t size, uint64_t state) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; ++i) {
        state ^= bytes[i];
        state *= kFnv1a64Prime;
    }
    return state;
}

uint64_t structuralHash(const EffectDesc& effect) {
    Hasher h;
    h.add(kStructuralHashRules);
    h.addEnum(effect.space);
    h.add(static_cast<uint32_t>(effect.emitters.size()));
    for (const EmitterDesc& e : effect.emitters) {
        h.addBool(e.enabled);
        if (!e.enabled) continue;
        h.addEnum(e.overflow);
        h.addEnum(e.backend);
        h.addEnum(e.shape.type);
        h.addEnum(e.shape.emit_from);
        h.addEnum(e.init.color.mode);
        h.add(static_cast<uint32_t>(e.update.size()));
        for (const UpdateModule& m : e.update) {
            h.add(static_cast<uint32_t>(m.module.index()));
            h.addBool(m.enabled);
            addModuleStructure(h, m.module);
        }
        const RenderDesc& r = e.render;
        h.addEnum(r.type);
        h.addEnum(r.blend);
        h.addEnum(r.sort);
        h.addBool(r.lit);
        h.addBool(r.stable_order);
        if (r.type == RenderType::billboard) {
            h.addEnum(r.billboard.alignment);
            h.addBool(r.billboard.flipbook.frame_blend);
            h.addBool(r.billboard.flipbook.random_start);
        }
        h.add(static_cast<uint32_t>(e.sub_emitters.size()));
        for (const SubEmitterDesc& s : e.sub_emitters) {
            h.addEnum(s.event);
            h.add(compiledIndexOf(effect, s.emitter));
        }
    }
    return h.state;
}

} // namespace spindrift
