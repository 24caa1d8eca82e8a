// The distortion phase's input (docs/rendering.md, "Distortion"): after every other particle is
// drawn, the frame's colour is copied into an image of its own, which the distortion billboards
// (render.distortion: heat haze, shock waves) then read at displaced points while they blend over
// the frame. A pixel cannot read the attachment it is drawn into, hence the copy; it is made only
// by frames that draw a distortion batch: the renderer's own, or a host frame whose colour image is
// a transfer source (else FrameStats::distortion_not_drawn). The billboards themselves are drawn
// by the billboard pass (billboard_distortion.frag) in the renderer's distortion phase.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/frame_targets.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/image.h"

namespace spindrift::render {

class DistortionCopy {
public:
    // The copy image: width x height of color_format, a transfer destination and sampled.
    // nullptr and an error naming it on failure.
    static std::unique_ptr<DistortionCopy> create(const vk::Device& device, uint32_t width,
                                                  uint32_t height, VkFormat color_format,
                                                  std::vector<Diagnostic>& diagnostics);

    VkImageView view() const { return copy_.view.get(); }

    // Copies the frame's colour into the image, outside any rendering scope: the colour goes from
    // COLOR_ATTACHMENT_OPTIMAL (after a scope wrote it) to a transfer source and back, ready to be
    // loaded and blended by the next scope; the copy ends SHADER_READ_ONLY_OPTIMAL for the
    // fragment stage.
    void record(VkCommandBuffer cmd, const FrameTargets& targets) const;

private:
    DistortionCopy() = default;
    vk::Image2D copy_;
};

} // namespace spindrift::render
