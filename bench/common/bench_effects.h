// What the step benchmarks share: the benchmark effects (one emitter of N particles with one of
// three update stacks), their compilation, and the size lists read from the environment. The CPU
// step benchmark (bench/cpu/) and the GPU simulation benchmark (bench/gpu/) time the same
// effects, so their figures compare.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/effect_desc.h"

namespace spindrift::bench {

// basic: gravity, drag, colour over life, size over life; curl: basic + curl noise (1 octave);
// fields: basic + 4 force fields (one kOpForceFields op).
enum class Stack { basic, curl, fields };

const char* stackName(Stack stack); // "basic", "curl", "fields4"

// One emitter of capacity `particles`, filled by bursts and never spawning after; lifetime
// 1000 s, so nothing dies while a case is timed (60,000 steps at 60 Hz). Up to kMaxBursts x
// kMaxBurstCount (16M) particles are all born in the first step; more cannot be, so bursts of
// kMaxBurstCount then repeat once per step (cycles, interval = one step) until all are born.
EffectDesc makeStackEffect(Stack stack, uint32_t particles);

// Compiles desc; prints every diagnostic to stderr and returns nullptr on an error.
std::shared_ptr<const CompiledEffect> compileOrNull(const EffectDesc& desc);

// A comma-separated list of counts, each a decimal number with an optional K or M suffix
// meaning x unit or x unit^2 (unit 1000 or 1024, as the benchmark documents): "64K,1M,100000000".
// Unparseable entries read as 0.
std::vector<uint64_t> parseCounts(const std::string& list, uint64_t unit);

} // namespace spindrift::bench
