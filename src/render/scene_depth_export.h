// The offscreen frame's opaque linear depth handed to the simulation for depth-buffer collision
// (docs/rendering.md, "Scene depth for collision"; kernels/collision.h, sdContactSceneDepth):
// copied at the end of the frame's draws into a device buffer the GPU simulation reads through
// its address and, when asked, into a host buffer CPU instances read. The next frame's steps
// collide with it: one frame late, as a game's would.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace spindrift::render {

struct SceneDepthBuffers {
    vk::Buffer device; // width x height floats, device-local, read at device.address
    vk::Buffer host;   // the same, host-visible; empty unless a frame asked for it
    uint32_t width = 0;
    uint32_t height = 0;
    SceneDepthCopy copy; // what the last frame left, and the camera that saw it
};

// Makes the buffers the targets' size (and the host copy when `host`); buffers of another size are
// freed after the device has finished everything submitted (a simulation step may still read
// them). False with an error on failure.
bool prepareSceneDepth(const vk::Device& device, const FrameTargets& targets, bool host,
                       SceneDepthBuffers& buffers, std::vector<Diagnostic>& diagnostics);

// Records the copy of the targets' linear depth (in SHADER_READ_ONLY_OPTIMAL after the particle
// draws; left in TRANSFER_SRC_OPTIMAL, which the next frame's first barrier discards) into the
// buffers, after whatever compute work read them before (the steps of this frame) and before any
// compute or host read after.
void recordSceneDepthCopy(VkCommandBuffer cmd, const FrameTargets& targets, bool host,
                          const SceneDepthBuffers& buffers);

} // namespace spindrift::render
