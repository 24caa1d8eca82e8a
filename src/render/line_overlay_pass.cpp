#include "render/line_overlay_pass.h"

#include <cmath>
#include <cstring>

#include "render/particle_pass.h"
#include "render/shader/line_overlay.h"
#include "render/shader_code.h"
#include "render/view_globals.h"
#include "vulkan/commands.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"

namespace spindrift::render {

namespace {

// The overlay's buffer starts with room for this many segments (a few emitters' gizmos).
constexpr uint64_t kMinOverlayCapacity = 1024;

// IEC 61966-2-1 decoding, in double: the readback's encodeSrgb8 (render/readback.h) brings the
// value back to the same 8-bit code through the frame's half-float colour.
float linearFromSrgb(float c) {
    const double s = c;
    return static_cast<float>(s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4));
}

bool finite3(const Float3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

bool unit3(const Float3& v) {
    return v.x >= 0.0f && v.x <= 1.0f && v.y >= 0.0f && v.y <= 1.0f && v.z >= 0.0f && v.z <= 1.0f;
}

} // namespace

std::string overlayProblem(std::span<const OverlayLine> lines) {
    if (lines.size() > kMaxOverlayLines) {
        return "overlay: " + std::to_string(lines.size()) + " segments, more than the " +
               std::to_string(kMaxOverlayLines) + " a frame may draw";
    }
    for (size_t i = 0; i < lines.size(); ++i) {
        const OverlayLine& l = lines[i];
        const std::string at = "overlay[" + std::to_string(i) + "]";
        if (!finite3(l.from) || !finite3(l.to)) return at + ": from and to must be finite";
        if (!unit3(l.color)) return at + ": every colour channel must be in [0, 1]";
    }
    return {};
}

std::unique_ptr<LineOverlayPass> LineOverlayPass::create(const vk::Device& device,
                                                         const FrameTargets& targets,
                                                         std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<LineOverlayPass> pass(new LineOverlayPass(device));
    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kLineOverlayVert),
                                           shaders::kLineOverlayVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kLineOverlayFrag),
                                             shaders::kLineOverlayFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;
    pass->layout_ =
        vk::createPipelineLayout(d, {}, sizeof(LineOverlayPush), "the line overlay pipeline layout",
                                 diagnostics, VK_SHADER_STAGE_VERTEX_BIT);
    if (!pass->layout_) return nullptr;
    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->vertex_.get();
    desc.fragment = pass->fragment_.get();
    desc.layout = pass->layout_.get();
    desc.color_formats = {targets.formats.color};
    desc.blends = {vk::BlendState::none};
    desc.depth_test = false; // line_overlay_pass.h says why
    desc.depth_write = false;
    desc.line_list = true;
    pass->pipeline_ = vk::createGraphicsPipeline(d, desc, "the line overlay pipeline", diagnostics);
    if (!pass->pipeline_) return nullptr;
    return pass;
}

bool LineOverlayPass::upload(std::span<const OverlayLine> lines,
                             std::vector<Diagnostic>& diagnostics) {
    count_ = 0;
    if (lines.empty()) return true;
    if (!reserveDrawBuffer(device_, segments_, lines.size(), sizeof(OverlaySegment),
                           kMinOverlayCapacity, kMaxOverlayLines, "the line overlay's segments",
                           diagnostics)) {
        return false;
    }
    auto* out = static_cast<OverlaySegment*>(segments_.buffer.mapped);
    for (size_t i = 0; i < lines.size(); ++i) {
        const OverlayLine& l = lines[i];
        OverlaySegment s;
        s.from = vec4(l.from.x, l.from.y, l.from.z, 1.0f);
        s.to = vec4(l.to.x, l.to.y, l.to.z, 1.0f);
        s.color = vec4(linearFromSrgb(l.color.x), linearFromSrgb(l.color.y),
                       linearFromSrgb(l.color.z), 1.0f);
        std::memcpy(out + i, &s, sizeof(s));
    }
    count_ = static_cast<uint32_t>(lines.size());
    return true;
}

void LineOverlayPass::record(VkCommandBuffer cmd, const FrameTargets& targets,
                             const FrameView& view) const {
    if (count_ == 0) return;
    vk::imageBarriers(
        cmd, {{targets.color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               // After the barrier that made the colour a copy source (its second scope: the
               // copy stage) and the writes before it (the post's or the particles').
               VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                   VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
               VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT}});
    VkRenderingAttachmentInfo color{};
    color.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    color.imageView = targets.color.view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    vk::beginRendering(cmd, targets.extent(), {color}, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
    // The camera every other pass draws with (viewGlobals), so a segment lies where the
    // particles at its ends would.
    const FrameGlobals globals = viewGlobals(view, targets.width, targets.height);
    LineOverlayPush push{};
    push.clip_from_world_c0 = globals.clip_from_world_c0;
    push.clip_from_world_c1 = globals.clip_from_world_c1;
    push.clip_from_world_c2 = globals.clip_from_world_c2;
    push.clip_from_world_c3 = globals.clip_from_world_c3;
    push.segments = uvec4(splitAddress(segments_.buffer.address), 0u, 0u);
    vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(push), &push);
    vkCmdDraw(cmd, count_ * kOverlayVerticesPerSegment, 1, 0, 0);
    vkCmdEndRendering(cmd);
    vk::imageBarriers(cmd, {vk::colorAttachmentToCopySource(targets.color.image)});
}

} // namespace spindrift::render
