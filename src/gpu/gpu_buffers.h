// The device buffers of one GPU effect instance and what is uploaded into them once.
#pragma once

#include <vector>

#include "gpu/gpu_effect.h"

namespace spindrift::gpu {

// The limits layoutPool works within on this device: each buffer at most max_buffer_bytes, the
// device's maxMemoryAllocationSize and maxBufferSize; everything together at most
// max_total_bytes, or (0) the size of the device's largest device-local heap.
PoolLimits devicePoolLimits(const vk::Device& device, uint64_t max_buffer_bytes,
                            uint64_t max_total_bytes);

// Creates fx.buffers from fx.layout and fx.effect: records (uploaded, with the column and
// draw-record chunk address tables), pool buffers, counters (zeroed), draw-record chunks, per-step
// uniform slots (config.driver.max_steps_per_frame of them, plus one for the draw pass), the
// counters' readback copy, each ribbon emitter's trail and gather buffers and each device strip
// buffer (fx.trail_layout, gpu_trails.h), and the beam frames (ribbon_strips.h). False with an
// error naming the buffer.
bool createGpuBuffers(GpuEffect& fx, std::vector<Diagnostic>& diagnostics);

// Replaces fx.effect by `effect`, which differs from it only in record values (user parameters,
// compiler/parameter_bindings.h: same arrays, same sizes), and rewrites the emitter and op
// records of the records buffer. Waits for the instance's submissions in flight first (they read
// the buffer); the rest of what the GPU reads from the records is resolved per step on the host.
// False with errors appended when that wait fails.
bool replaceRecords(GpuEffect& fx, std::shared_ptr<const CompiledEffect> effect,
                    std::vector<Diagnostic>& diagnostics);

// The device address of a draw-record range's first record (its chunk's buffer, offset to
// range.first_in_chunk): what a draw of that piece reads from.
VkDeviceAddress drawRecordAddress(const GpuBuffers& buffers, const DrawRecordRange& range);

// The address of step slot `slot`'s GpuStepHeader.
VkDeviceAddress stepSlotAddress(const GpuBuffers& buffers, uint32_t slot);

// Writes one step's uniforms into slot: the header (addresses of the rest; world_from_sim from
// world_from_effect), a GpuStepEmitter per emitter (fx.scratch's EmitterStep and fx.plan's
// births) and the resolved ops, force fields and colliders of fx.scratch.
void writeStepSlot(const GpuEffect& fx, uint32_t slot, const Rows3x4& world_from_effect);

} // namespace spindrift::gpu
