#include "cpu/update_ops.h"

namespace spindrift::cpu {

namespace baseline {
ChunkResult updateChunkLoops(const CompiledEffect& effect, const StepScratch& scratch,
                             const EmitterStep& step, ParticlePool& pool, uint32_t begin,
                             uint32_t end, bool timed);
} // namespace baseline

#if SPINDRIFT_HAS_AVX2_LOOPS
namespace avx2 {
ChunkResult updateChunkLoops(const CompiledEffect& effect, const StepScratch& scratch,
                             const EmitterStep& step, ParticlePool& pool, uint32_t begin,
                             uint32_t end, bool timed);
} // namespace avx2
#endif

namespace {

using LoopsFn = ChunkResult (*)(const CompiledEffect&, const StepScratch&, const EmitterStep&,
                                ParticlePool&, uint32_t, uint32_t, bool);

LoopsFn pickLoops() {
#if SPINDRIFT_HAS_AVX2_LOOPS
    if (__builtin_cpu_supports("avx2")) return &avx2::updateChunkLoops;
#endif
    return &baseline::updateChunkLoops;
}

// Chosen once; every chunk of every step of the process uses the same loops.
const LoopsFn kLoops = pickLoops();

} // namespace

ChunkResult updateChunk(const CompiledEffect& effect, const StepScratch& scratch,
                        const EmitterStep& step, ParticlePool& pool, uint32_t begin, uint32_t end,
                        bool timed) {
    return kLoops(effect, scratch, step, pool, begin, end, timed);
}

const char* updateLoopsName() {
#if SPINDRIFT_HAS_AVX2_LOOPS
    if (kLoops == &avx2::updateChunkLoops) return "avx2";
#endif
    return "baseline";
}

} // namespace spindrift::cpu
