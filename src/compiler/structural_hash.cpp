#include "compiler/structural_hash.h"

namespace spindrift {
namespace {

// Bumped when the rules change, so hashes from different rule sets never compare equal.
// 1: hashed the authored description (disabled emitters and modules included), which a cooked
// file cannot be checked against. 2: hashes the compiled records.
constexpr uint32_t kStructuralHashRules = 2;

struct Hasher {
    uint64_t state = kFnv1a64Offset;
    void add(uint32_t value) {
        uint8_t bytes[4] = {static_cast<uint8_t>(value), static_cast<uint8_t>(value >> 8),
                            static_cast<uint8_t>(value >> 16), static_cast<uint8_t>(value >> 24)};
        state = fnv1a64(bytes, sizeof(bytes), state);
    }
};

// [first, first + count) inside an array of size elements.
bool inside(uint32_t first, uint32_t count, size_t size) {
    return first <= size && count <= size - first;
}

void addOps(Hasher& h, const CompiledEffect& effect, const EmitterRecord& e) {
    const bool ops_ok = inside(e.op_first, e.op_count, effect.ops.size());
    h.add(ops_ok ? e.op_count : 0);
    if (!ops_ok) return;
    for (uint32_t i = 0; i < e.op_count; ++i) {
        const OpRecord& op = effect.ops[e.op_first + i];
        h.add(op.op);
        h.add(op.flags);
        // Which authored modules the op came from: disabling, enabling, adding or fusing a
        // module moves these even where the op list keeps its length.
        h.add(op.source_module);
        h.add(op.source_count);
        h.add(op.lut_row == kNone ? 0u : 1u);      // buoyancy with or without its over-life curve
        if (op.op == kOpCollision) h.add(op.mode); // the response; curl noise's is octaves
        if (op.op == kOpForceFields && inside(op.first, op.count, effect.force_fields.size())) {
            for (uint32_t f = 0; f < op.count; ++f) h.add(effect.force_fields[op.first + f].shape);
        }
    }
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

uint64_t structuralHash(const CompiledEffect& effect) {
    Hasher h;
    h.add(kStructuralHashRules);
    h.add(effect.effect.space);
    h.add(static_cast<uint32_t>(effect.emitters.size()));
    for (const EmitterRecord& e : effect.emitters) {
        // Where it was authored: a disabled emitter before it moves it.
        h.add(e.source_index);
        h.add(e.overflow);
        h.add(e.backend);
        h.add(e.shape_kind);
        h.add(e.emit_from);
        h.add(e.color_mode);
        addOps(h, effect, e);
        h.add(e.render_type);
        h.add(e.blend);
        h.add(e.sort);
        h.add(e.render_flags); // lit, stable_order, frame_blend, random_start, shadow_cutout
        if (e.render_type == kRenderBillboard) h.add(e.alignment);
        const bool subs_ok =
            inside(e.sub_emitter_first, e.sub_emitter_count, effect.sub_emitters.size());
        h.add(subs_ok ? e.sub_emitter_count : 0);
        if (!subs_ok) continue;
        for (uint32_t i = 0; i < e.sub_emitter_count; ++i) {
            const SubEmitterRecord& s = effect.sub_emitters[e.sub_emitter_first + i];
            h.add(s.event);
            h.add(s.emitter);
        }
    }
    // Events change what the passes capture; an effect without them hashes as it always did.
    for (const EmitterEventsRecord& ev : effect.emitter_events) {
        h.add(ev.kinds);
        h.add(ev.threshold_quantity);
    }
    return h.state;
}

} // namespace spindrift
