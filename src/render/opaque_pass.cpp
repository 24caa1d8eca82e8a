#include "render/opaque_pass.h"

#include <vector>

#include "embedded_shaders.h"
#include "render/shader/frame_globals.h"
#include "render/shader/opaque_geometry.h"
#include "render/shader_code.h"
#include "vulkan/commands.h"
#include "vulkan/descriptors.h"
#include "vulkan/pipeline.h"
#include "vulkan/shader_module.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

namespace {

vec3 toVec3(const Float3& f) {
    return vec3(f.x, f.y, f.z);
}

OpaqueDraw groundDraw(const GroundDesc& ground) {
    OpaqueDraw d{};
    float half = 0.5f * ground.size;
    d.center = vec4(0.0f, ground.height, 0.0f, 0.0f);
    d.extent = vec4(half, 1.0f, half, 0.0f);
    d.color = vec4(toVec3(ground.color), 1.0f);
    d.kind = kOpaqueGround;
    return d;
}

} // namespace

OpaqueDraw opaquePrimitiveDraw(const PrimitiveDesc& p) {
    OpaqueDraw d{};
    d.center = vec4(toVec3(p.center), 0.0f);
    d.color = vec4(toVec3(p.color), 0.0f);
    if (p.type == PrimitiveKind::sphere) {
        d.extent = vec4(p.radius, p.radius, p.radius, 0.0f);
        d.kind = kOpaqueSphere;
    } else {
        d.extent = vec4(0.5f * toVec3(p.size), 0.0f);
        d.kind = kOpaqueBox;
    }
    return d;
}

uint32_t opaqueVertexCount(uint32_t kind) {
    return kind == kOpaqueBox      ? kBoxVertexCount
           : kind == kOpaqueSphere ? kSphereVertexCount
                                   : kGroundVertexCount;
}

std::unique_ptr<OpaquePass> OpaquePass::create(const vk::Device& device,
                                               const FrameTargets& targets,
                                               std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<OpaquePass> pass(new OpaquePass());
    VkDevice d = device.handle();
    pass->vertex_ = vk::createShaderModule(d, spirvWords(shaders::kOpaqueVert),
                                           shaders::kOpaqueVert.source, diagnostics);
    pass->fragment_ = vk::createShaderModule(d, spirvWords(shaders::kOpaqueFrag),
                                             shaders::kOpaqueFrag.source, diagnostics);
    if (!pass->vertex_ || !pass->fragment_) return nullptr;

    VkDescriptorSetLayoutBinding globals{};
    globals.binding = kBindingFrameGlobals;
    globals.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    globals.descriptorCount = 1;
    globals.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    std::vector<VkDescriptorSetLayoutBinding> bindings = {globals};
    addShadowBindings(bindings, VK_SHADER_STAGE_FRAGMENT_BIT);
    pass->set_layout_ =
        vk::createDescriptorSetLayout(d, bindings, "the opaque frame set layout", diagnostics);
    if (!pass->set_layout_) return nullptr;
    pass->layout_ = vk::createPipelineLayout(d, {pass->set_layout_.get()}, sizeof(OpaqueDraw),
                                             "the opaque pipeline layout", diagnostics);
    if (!pass->layout_) return nullptr;

    vk::GraphicsPipelineDesc desc;
    desc.vertex = pass->vertex_.get();
    desc.fragment = pass->fragment_.get();
    desc.layout = pass->layout_.get();
    desc.color_formats = {kColorFormat, kLinearDepthFormat};
    desc.blends = {vk::BlendState::none, vk::BlendState::none};
    desc.depth_format = kDepthFormat;
    desc.depth_test = true;
    desc.depth_write = true;
    pass->pipeline_ = vk::createGraphicsPipeline(d, desc, "the opaque pipeline", diagnostics);
    if (!pass->pipeline_) return nullptr;

    pass->pool_ = vk::createDescriptorPool(d, 1, 1, kShadowBindingCount, diagnostics);
    if (!pass->pool_) return nullptr;
    pass->set_ =
        vk::allocateDescriptorSet(d, pass->pool_.get(), pass->set_layout_.get(), diagnostics);
    if (pass->set_ == VK_NULL_HANDLE) return nullptr;
    vk::writeUniformBuffer(d, pass->set_, kBindingFrameGlobals, targets.globals[0].get(),
                           sizeof(FrameGlobals));
    return pass;
}

void OpaquePass::bindShadows(const vk::Device& device, const ShadowMaps& maps) const {
    writeShadowBindings(device.handle(), set_, maps);
}

void OpaquePass::record(VkCommandBuffer cmd, const FrameTargets& targets,
                        const FrameView& view) const {
    std::vector<VkRenderingAttachmentInfo> color(2);
    color[0].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    color[0].imageView = targets.color.view;
    color[0].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color[0].clearValue.color = {{view.background.x, view.background.y, view.background.z, 1.0f}};
    color[1] = color[0];
    color[1].imageView = targets.linear_depth.view.get();
    color[1].clearValue.color = {{kSceneDepthCleared, 0.0f, 0.0f, 0.0f}};
    VkRenderingAttachmentInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
    depth.imageView = targets.depth.view;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue.depthStencil = {1.0f, 0};

    vk::beginRendering(cmd, targets.extent(), color, &depth);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_.get(), kSetFrame, 1,
                            &set_, 0, nullptr);
    auto draw = [&](const OpaqueDraw& d) {
        vkCmdPushConstants(cmd, layout_.get(),
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(OpaqueDraw), &d);
        vkCmdDraw(cmd, opaqueVertexCount(d.kind), 1, 0, 0);
    };
    if (view.ground.enabled) draw(groundDraw(view.ground));
    for (const PrimitiveDesc& p : view.primitives) draw(opaquePrimitiveDraw(p));
    vkCmdEndRendering(cmd);
}

} // namespace spindrift::render
