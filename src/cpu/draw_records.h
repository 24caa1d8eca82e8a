// The one function that turns pools into the records the renderer draws (DESIGN rule 3).
#pragma once

#include "cpu/cpu_effect.h"
#include "kernels/draw_record.h"

namespace spindrift::cpu {

// Writes one DrawRecord per live particle into out (room for liveCount(fx) records), emitters in
// compiled order and particles in slot order. Positions are in world space (a local-space effect
// is carried by its current transform); colour and size include every over-life and by-speed
// op; the flipbook frame's fraction is the blend weight to the next frame. Returns the count.
uint64_t writeDrawRecords(const CpuEffect& fx, DrawRecord* out);

} // namespace spindrift::cpu
