// The ribbon-trail storage limit of one effect instance, the same on both backends. The compiler
// and the cooked-file loader refuse an effect past it (so `validate` refuses what a backend
// would), and the CPU backend (cpu/trail_store.h) and the GPU backend (gpu/gpu_trails.h) check it
// again at creation with the same words, for records that did not come through either.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

// The most trail points one instance may hold: the sum over its ribbon emitters of
// capacity x max_points. 2^24 points are 192 MiB of positions (12 bytes each) plus 8 bytes of
// ring bookkeeping per particle, and keep every trail index of either backend below 2^32.
inline constexpr uint64_t kMaxTrailPoints = uint64_t{1} << 24;

// capacity x max_points for a ribbon emitter, 0 for any other.
uint64_t trailPointsNeeded(const EmitterRecord& emitter);

// Checks the sum of trailPointsNeeded over the effect against kMaxTrailPoints. Past it, appends
// one error at the ribbon emitter that needs the most (its max_points' JSON path, the total, the
// limit, and `whose`, who refuses it: "the CPU backend's", "the GPU backend's" or "the effect
// format's") and returns false.
bool checkTrailLimits(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics,
                      std::string_view whose);

} // namespace spindrift
