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
#include "spindrift/runtime.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace spindrift::render {

struct SceneDepthBuffers {
    vk::Buffer device; // width x height floats, device-local, read at device.address
    vk::Buffer host;   // the same, host-visible; empty unless a frame asked for it
    uint32_t width = 0;
    uint32_t height = 0;
    VkDeviceSize device_bytes = 0; // the device buffer's size: at least width x height floats
    // Host frames: device buffers outgrown, kept until the renderer goes (a world may still
    // step with their address: SceneDepthGrowth::keep).
    std::vector<vk::Buffer> outgrown;
    SceneDepthCopy copy; // what the last frame left, and the camera that saw it
};

// How the buffers follow the frame's size.
enum class SceneDepthGrowth {
    // The offscreen renderer: buffers of exactly the targets' size; those of another size are
    // freed after the device has finished everything submitted (a step may still read them).
    exact,
    // A host frame, on a device the host also uses (no vkDeviceWaitIdle), whose depth worlds
    // keep reading at the address they were given until fed again: the device buffer only
    // grows, by at least half its size each time, and an outgrown one is kept until the renderer
    // goes (at most about twice the largest frame's bytes in all). No host copy.
    keep,
};

// Makes the buffers fit the targets (and the host copy when `host`, exact growth only). False
// with an error on failure.
bool prepareSceneDepth(const vk::Device& device, const FrameTargets& targets, bool host,
                       SceneDepthGrowth growth, SceneDepthBuffers& buffers,
                       std::vector<Diagnostic>& diagnostics);

// The world's view of a copy (its camera, size and host samples; the device address is the
// copy's), for World::setSceneDepth's rules.
SceneDepth sceneDepthOf(const SceneDepthCopy& copy);

// Records the copy of the targets' linear depth (in SHADER_READ_ONLY_OPTIMAL after the particle
// draws; left in TRANSFER_SRC_OPTIMAL, which the next frame's first barrier discards) into the
// buffers, after whatever compute work read them before (the steps of this frame) and before any
// compute or host read after.
void recordSceneDepthCopy(VkCommandBuffer cmd, const FrameTargets& targets, bool host,
                          const SceneDepthBuffers& buffers);

} // namespace spindrift::render
