#include "cpu/draw_records.h"

#include "cpu/draw_loops.h"
#include "cpu/particle_appearance.h"

namespace spindrift::cpu {

namespace {

using PickLoop = DrawLoop (*)(const DrawFeatures&);

PickLoop pickLoops() {
#if SPINDRIFT_HAS_AVX2_LOOPS
    if (__builtin_cpu_supports("avx2")) return &avx2::drawLoopFor;
#endif
    return &baseline::drawLoopFor;
}

// Chosen once, like the update loops (update_ops.cpp).
const PickLoop kPickLoop = pickLoops();

// The number (0-3) of an appearance op kind in the loops' tables.
uint32_t appearanceKindNumber(uint32_t op) {
    switch (op) {
    case kOpColorOverLife:
        return 0;
    case kOpSizeOverLife:
        return 1;
    case kOpColorBySpeed:
        return 2;
    default:
        return 3; // kOpSizeBySpeed
    }
}

// Emitter e's feature set and its appearance ops (at most kDrawMaxAppearanceOps are copied; a
// larger op_count says no specialised loop covers it).
DrawFeatures featuresOf(const CompiledEffect& effect, const EmitterRecord& emitter,
                        OpRecord (&ops)[kDrawMaxAppearanceOps]) {
    DrawFeatures f;
    f.flipbook =
        !(emitter.flipbook_frames <= 1u && (emitter.render_flags & kRenderFlagFrameBlend) == 0u);
    for (uint32_t k = 0; k < emitter.op_count; ++k) {
        const OpRecord& op = effect.ops[emitter.op_first + k];
        if (!sdIsAppearanceOp(op.op)) continue;
        // The tables hold the four LUT-product kinds; a blackbody op (its colour computed per
        // particle) takes the generic loop, as an emitter with too many ops does.
        if (op.op == kOpBlackbody) f.op_count = kDrawMaxAppearanceOps;
        if (f.op_count < kDrawMaxAppearanceOps) {
            ops[f.op_count] = op;
            f.kinds[f.op_count] = appearanceKindNumber(op.op);
        }
        ++f.op_count;
    }
    return f;
}

// Any emitter: the kernel with nothing specialised.
void genericLoop(const CompiledEffect& effect, const DrawLoopInputs& in, const ParticlePool& pool,
                 DrawRecord* out) {
    const LutRef lut = lutRef(effect);
    const OpRecordsRef ops = opRecordsRef(effect);
    for (uint32_t i = 0; i < pool.count; ++i) {
        out[i] = sdParticleDrawRecord(lut, ops, *in.emitter, in.emitter_index, in.rows[0],
                                      in.rows[1], in.rows[2], storedParticle(pool, i));
    }
}

} // namespace

uint64_t writeDrawRecords(const CpuEffect& fx, DrawRecord* out) {
    const CompiledEffect& effect = *fx.effect;
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, effect.effect.space);
    uint64_t written = 0;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const ParticlePool& pool = fx.pools[e];
        if (pool.count == 0) continue;
        const EmitterRecord& emitter = effect.emitters[e];
        OpRecord ops[kDrawMaxAppearanceOps];
        const DrawFeatures features = featuresOf(effect, emitter, ops);
        DrawLoopInputs in;
        in.lut = lutRef(effect);
        in.rows = world_from_sim.rows;
        in.emitter = &emitter;
        in.emitter_index = e;
        in.appearance_ops = ops;
        if (const DrawLoop loop = kPickLoop(features)) {
            loop(in, pool, out + written);
        } else {
            genericLoop(effect, in, pool, out + written);
        }
        written += pool.count;
    }
    return written;
}

} // namespace spindrift::cpu
