// The draw-record loops specialised per emitter feature set (draw_loops.inl says how), compiled
// for the build's baseline and, on x86-64, for AVX2. writeDrawRecords (draw_records.cpp) picks
// one per emitter; an emitter no loop covers takes the generic loop there.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"
#include "cpu/particle_pool.h"
#include "kernels/draw_record.h"
#include "kernels/lut.h"

namespace spindrift::cpu {

// Appearance op kinds the loops are instantiated for (colour and size over life and by speed,
// numbered 0-3 in that order) and the most appearance ops an emitter may have to get a loop.
inline constexpr uint32_t kDrawAppearanceKinds = 4;
inline constexpr uint32_t kDrawMaxAppearanceOps = 2;

// What a loop is specialised on.
struct DrawFeatures {
    bool flipbook = false;                      // sdFlipbookFrame can be other than 0
    uint32_t op_count = 0;                      // appearance ops, in compiled order
    uint32_t kinds[kDrawMaxAppearanceOps] = {}; // their kinds, numbered 0-3
};

// What a loop reads besides the pool.
struct DrawLoopInputs {
    LutRef lut;
    const vec4* rows = nullptr; // world_from_sim, 3 rows
    const EmitterRecord* emitter = nullptr;
    uint32_t emitter_index = 0;
    const OpRecord* appearance_ops = nullptr; // DrawFeatures::op_count of them
};

// Writes the records of slots [0, pool.count) to out.
using DrawLoop = void (*)(const DrawLoopInputs& in, const ParticlePool& pool, DrawRecord* out);

namespace baseline {
DrawLoop drawLoopFor(const DrawFeatures& features); // nullptr: no loop covers it
} // namespace baseline
#if SPINDRIFT_HAS_AVX2_LOOPS
namespace avx2 {
DrawLoop drawLoopFor(const DrawFeatures& features);
} // namespace avx2
#endif

} // namespace spindrift::cpu
