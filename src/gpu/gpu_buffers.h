// The device buffers of one GPU effect instance and what is uploaded into them once.
#pragma once

#include <vector>

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// Creates fx.buffers from fx.layout and fx.effect: records (uploaded), pool, counters (zeroed),
// draw records, per-step uniform slots (config.driver.max_steps_per_frame of them, plus one for
// the draw pass) and the counters' readback copy. False with an error naming the buffer.
bool createGpuBuffers(GpuEffect& fx, std::vector<Diagnostic>& diagnostics);

// The address of step slot `slot`'s GpuStepHeader.
VkDeviceAddress stepSlotAddress(const GpuBuffers& buffers, uint32_t slot);

// Writes one step's uniforms into slot: the header (addresses of the rest; world_from_sim from
// world_from_effect), a GpuStepEmitter per emitter (fx.scratch's EmitterStep and fx.plan's
// births) and the resolved ops, force fields and colliders of fx.scratch.
void writeStepSlot(const GpuEffect& fx, uint32_t slot, const Rows3x4& world_from_effect);

} // namespace spindrift::gpu
