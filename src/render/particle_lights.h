// Particles as point lights (docs/rendering.md, "Lights"; the effect format's render.lights):
// which of an emitter's drawn particles light the scene this frame. Runs on the host over the
// emitter's draw records, so only host (CPU-simulated) emitters make lights; a GPU emitter's
// records stay on the device (checkBackends notes it).
#pragma once

#include <span>
#include <vector>

#include "kernels/draw_record.h"
#include "kernels/effect_records.h"
#include "spindrift/scene_desc.h"

namespace spindrift::render {

// Appends at most settings.count point lights chosen from records (one emitter's, in draw order)
// to out, as settings.select says:
//   brightest  the largest luminance of rgb x alpha (Rec. 709 weights);
//   oldest     the largest normalized_age;
//   every_kth  the records at positions 0, k, 2k, ... (the first count of them).
// Ties go to the earlier record, so the choice is the same every run. A record whose rgb x alpha
// is black (or not finite) makes no light and is never chosen. Each light sits at its particle,
// of colour rgb x alpha, intensity settings.intensity and range settings.range_m, in the order
// chosen (brightest or oldest first). Cost O(records) with a fixed heap of at most
// kMaxParticleLights entries: no allocation but out's growth. settings must be valid (as the
// .sfx loader and the compiler hold it).
void appendParticleLights(const ParticleLightRecord& settings, std::span<const DrawRecord> records,
                          std::vector<LightDesc>& out);

} // namespace spindrift::render
