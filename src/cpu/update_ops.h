// Where particles move and die on the CPU: the per-chunk passes of one step. Each op is a tight
// loop over a chunk's columns that calls the update step's kernels (src/kernels/update_step.h),
// so the CPU and the GPU compute the same thing from the same text.
#pragma once

#include <cstdint>

#include "compiler/compiled_effect.h"
#include "cpu/particle_pool.h"
#include "cpu/step_context.h"

namespace spindrift::cpu {

struct ChunkResult {
    uint32_t dead_count = 0;    // slots written to pool.dead_slots from the chunk's first slot
    uint32_t contact_count = 0; // slots written to pool.contact_slots likewise
    uint64_t contacts = 0;      // collider contacts (a particle may touch several)
    // Step timing only (cpu/step_timing.h; 0 when off): thread nanoseconds of the chunk's
    // collision ops, and of its whole job (updateAllChunks, cpu_effect.cpp).
    uint64_t collision_ns = 0;
    uint64_t job_ns = 0;
};

// Runs every resolved op of the emitter over slots [begin, end), then integrates and tests for
// death. Touches only slots in the range, so chunks may run on any threads in any order.
// The loops are compiled for the build's baseline and, on x86-64, for AVX2; the AVX2 ones run
// when the CPU has it. Both produce the same bits. `timed`: the collision ops' time goes to
// ChunkResult::collision_ns (two clock reads per chunk; none when false).
ChunkResult updateChunk(const CompiledEffect& effect, const StepScratch& scratch,
                        const EmitterStep& step, ParticlePool& pool, uint32_t begin, uint32_t end,
                        bool timed);

// "avx2" or "baseline": which loops updateChunk runs on this machine.
const char* updateLoopsName();

} // namespace spindrift::cpu
