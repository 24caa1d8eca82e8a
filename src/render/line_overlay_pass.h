// The line overlay (FrameView::overlay): world-space segments drawn over the offscreen frame after
// the HDR post, one pixel wide, as a line list vertex-pulled from a host-visible buffer
// (render/shader/line_overlay.h). The editor's gizmos go through it, so what the page shows is
// what the renderer drew (docs/editor.md, "Gizmos").
//
// Why after the post: the tone map and the exposure would change a line's colour with the scene
// (and bloom would smear it); drawn after them, each covered pixel reads back as exactly the
// segment's colour. Why no depth test: a gizmo shows where an emitter is, which matters most
// when it is inside smoke, below the ground or behind another emitter's particles; the page's
// canvas overlay it replaces was never hidden either.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/draw_buffer.h"
#include "render/frame_targets.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

// Why the overlay cannot be drawn, or empty: at most kMaxOverlayLines, every coordinate finite,
// every colour channel in [0, 1]. Names the first bad segment and field.
std::string overlayProblem(std::span<const OverlayLine> lines);

class LineOverlayPass {
public:
    static std::unique_ptr<LineOverlayPass> create(const vk::Device& device,
                                                   const FrameTargets& targets,
                                                   std::vector<Diagnostic>& diagnostics);

    // Writes the segments (checked: overlayProblem) into the pass's buffer, growing it when
    // needed. The buffer may not be in use by pending work (the offscreen frame waits for each
    // frame). False with an error when it cannot grow.
    bool upload(std::span<const OverlayLine> lines, std::vector<Diagnostic>& diagnostics);

    // Records the segments of the last upload. Before and after: the frame colour in
    // TRANSFER_SRC_OPTIMAL, last written by the post (compute) or the particles (attachment
    // writes); after, written by this pass and ready for the readback copy.
    void record(VkCommandBuffer cmd, const FrameTargets& targets, const FrameView& view) const;

private:
    explicit LineOverlayPass(const vk::Device& device) : device_(device) {}
    const vk::Device& device_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    vk::OwnedPipelineLayout layout_;
    vk::OwnedPipeline pipeline_;
    DrawBuffer segments_;
    uint32_t count_ = 0; // segments of the last upload
};

} // namespace spindrift::render
