// Beams on the CPU side: each live particle of a beam emitter becomes one strip polyline through
// the shared kernel (kernels/beam.h), the text a GPU pass will run too.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/beam.h"
#include "kernels/draw_record.h"
#include "render/shader/strip_draw.h"

namespace spindrift::render {

// Appends one beam per record (one live particle of the emitter whose curve this is, world space
// as beamCurve gives it): curve.segments + 1 points (sdBeamPoint, with the record's key and colour
// and jitter cycle `jitter_cycle`, sdBeamJitterCycle) and curve.segments segment indices, which
// count from the first point this call appends (one call = one StripBatch). Appending allocates
// only when the vectors lack capacity: the scene player reserves
// beamPointCapacity / beamSegmentCapacity at load.
void appendBeamStrips(const BeamCurve& curve, uint32_t jitter_cycle,
                      std::span<const DrawRecord> records, std::vector<StripPoint>& points,
                      std::vector<uint32_t>& segments);

// The most points / segments appendBeamStrips appends for an emitter of `capacity` particles
// whose beam has `segments` segments.
uint64_t beamPointCapacity(uint32_t capacity, uint32_t segments);
uint64_t beamSegmentCapacity(uint32_t capacity, uint32_t segments);

} // namespace spindrift::render
