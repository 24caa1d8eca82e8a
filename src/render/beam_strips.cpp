#include "render/beam_strips.h"

#include <algorithm>

namespace spindrift::render {

void appendBeamStrips(const BeamCurve& curve, uint32_t jitter_cycle,
                      std::span<const DrawRecord> records, std::vector<StripPoint>& points,
                      std::vector<uint32_t>& segments) {
    const size_t base = points.size();
    const uint32_t count = std::max(curve.segments, 1u);
    for (const DrawRecord& r : records) {
        const auto first = static_cast<uint32_t>(points.size() - base);
        for (uint32_t i = 0; i <= count; ++i) {
            points.push_back(sdBeamPoint(curve, r.key, jitter_cycle, i, r.color));
        }
        for (uint32_t i = 0; i < count; ++i) segments.push_back(first + i);
    }
}

uint64_t beamPointCapacity(uint32_t capacity, uint32_t segments) {
    return uint64_t{capacity} * (uint64_t{std::max(segments, 1u)} + 1);
}

uint64_t beamSegmentCapacity(uint32_t capacity, uint32_t segments) {
    return uint64_t{capacity} * std::max(segments, 1u);
}

} // namespace spindrift::render
