// The motion-vector target of an offscreen frame that asks for it (FrameView::motion,
// docs/rendering.md "Motion vectors"; the maths: render/shader/motion.h), drawn after every colour
// phase: a full-screen pass writes the camera's motion of every pixel from the opaque scene's
// linear depth (motion_camera.frag), then the particle batches that write motion draw over it,
// depth tested against the opaque scene, opaque meshes first (each particle pass's motion
// variants: billboard_motion.frag, strip_motion.frag, mesh_motion.frag, in the renderer's motion
// phases); the result is copied to a host-visible buffer beside the colour's readback. Made by the
// first frame that asks; a frame that does not records nothing of it. A host frame has no
// MotionPass: its particles draw over the host's own motion image (render/host_frame.cpp), which
// already holds the host scene's motion, with beginMotionParticles.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "render/particle_bindings.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/image.h"
#include "vulkan/owned.h"

namespace spindrift::render {

class MotionPass {
public:
    // The target (width x height of kMotionFormat), its readback buffer and the camera pass's
    // pipeline on the particle bindings' layout. nullptr and an error naming what failed.
    static std::unique_ptr<MotionPass> create(const vk::Device& device,
                                              const ParticleBindings& bindings, uint32_t width,
                                              uint32_t height,
                                              std::vector<Diagnostic>& diagnostics);

    // The camera's motion of every pixel, outside any rendering scope: expects the frame set of
    // `slot` bound-ready (its globals written, the linear depth SHADER_READ_ONLY_OPTIMAL for the
    // fragment stage) and the frame's depth as the colour phases leave it; then begins the
    // particles' scope on the target (loaded) and the frame's depth (loaded, tested), which the
    // caller fills with the passes' drawMotion (billboards, strips, meshes) and ends.
    void recordCameraAndBeginParticles(VkCommandBuffer cmd, const ParticleBindings& bindings,
                                       uint32_t slot, const FrameTargets& targets) const;

    // After the particles' scope ended: copies the target into the readback buffer (the caller's
    // later COPY -> HOST barrier makes it visible to the host).
    void recordReadback(VkCommandBuffer cmd) const;

    // The motion of the last frame recorded and finished, as floats.
    void read(MotionImage& out) const;

private:
    MotionPass() = default;
    uint32_t width_ = 0;
    uint32_t height_ = 0;
    vk::Image2D target_;
    vk::Buffer readback_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    vk::OwnedPipeline camera_;
};

// Begins the particles' motion scope: `motion_view` (COLOR_ATTACHMENT_OPTIMAL, in
// targets.formats.motion) loaded and stored, the frame's depth loaded and tested (its layout as
// depthAttachmentLayout). The caller made both ready (barriers) and fills and ends the scope.
void beginMotionParticles(VkCommandBuffer cmd, VkImageView motion_view, const FrameTargets& t);

} // namespace spindrift::render
