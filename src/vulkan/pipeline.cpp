#include "vulkan/pipeline.h"

#include "vulkan/vk_error.h"

namespace spindrift::vk {

UintSpecialization::UintSpecialization(std::span<const uint32_t> values) : entries(values.size()) {
    for (uint32_t id = 0; id < values.size(); ++id) {
        entries[id] = {id, static_cast<uint32_t>(id * sizeof(uint32_t)), sizeof(uint32_t)};
    }
    info.mapEntryCount = static_cast<uint32_t>(entries.size());
    info.pMapEntries = entries.data();
    info.dataSize = values.size_bytes();
    info.pData = values.data();
}

namespace {

VkPipelineColorBlendAttachmentState blendAttachment(BlendState blend) {
    VkPipelineColorBlendAttachmentState a{};
    a.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                       VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    if (blend == BlendState::none) return a;
    a.blendEnable = VK_TRUE;
    a.colorBlendOp = VK_BLEND_OP_ADD;
    a.alphaBlendOp = VK_BLEND_OP_ADD;
    switch (blend) {
    case BlendState::additive:
        a.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
        a.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
        break;
    case BlendState::premultiplied:
        a.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
        a.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        break;
    case BlendState::alpha:
    case BlendState::none:
        a.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        a.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        break;
    case BlendState::sum_color_product_alpha:
        a.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
        a.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
        a.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
        a.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        return a;
    case BlendState::additive_keep_alpha:
        a.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
        a.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
        a.srcAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
        a.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        return a;
    }
    // Coverage accumulates as "over" for every mode; the written image ignores alpha.
    a.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    a.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    return a;
}

} // namespace

OwnedPipeline createGraphicsPipeline(VkDevice device, const GraphicsPipelineDesc& desc,
                                     std::string_view what, std::vector<Diagnostic>& diagnostics) {
    VkPipelineShaderStageCreateInfo stages[2]{};
    stages[0].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = desc.vertex;
    stages[0].pName = "main";
    stages[1].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = desc.fragment;
    stages[1].pName = "main";
    stages[0].pSpecializationInfo = desc.specialization;
    stages[1].pSpecializationInfo = desc.specialization;

    VkPipelineVertexInputStateCreateInfo vertex_input{};
    vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;

    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology =
        desc.line_list ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

    VkPipelineViewportStateCreateInfo viewport{};
    viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;

    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = desc.cull_back_faces ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE;
    raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    raster.lineWidth = 1.0f;
    raster.depthBiasEnable = desc.depth_bias_slope != 0.0f ? VK_TRUE : VK_FALSE;
    raster.depthBiasSlopeFactor = desc.depth_bias_slope;

    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;

    VkPipelineDepthStencilStateCreateInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    depth.depthTestEnable = desc.depth_test ? VK_TRUE : VK_FALSE;
    depth.depthWriteEnable = desc.depth_write ? VK_TRUE : VK_FALSE;
    depth.depthCompareOp =
        desc.depth_equal_passes ? VK_COMPARE_OP_LESS_OR_EQUAL : VK_COMPARE_OP_LESS;

    std::vector<VkPipelineColorBlendAttachmentState> attachments;
    for (size_t i = 0; i < desc.color_formats.size(); ++i) {
        attachments.push_back(
            blendAttachment(i < desc.blends.size() ? desc.blends[i] : BlendState::none));
    }
    VkPipelineColorBlendStateCreateInfo blend{};
    blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blend.attachmentCount = static_cast<uint32_t>(attachments.size());
    blend.pAttachments = attachments.data();

    VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dynamic{};
    dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    dynamic.dynamicStateCount = 2;
    dynamic.pDynamicStates = dynamic_states;

    VkPipelineRenderingCreateInfo rendering{};
    rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
    rendering.colorAttachmentCount = static_cast<uint32_t>(desc.color_formats.size());
    rendering.pColorAttachmentFormats = desc.color_formats.data();
    rendering.depthAttachmentFormat = desc.depth_format;

    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.pNext = &rendering;
    info.stageCount = desc.fragment != VK_NULL_HANDLE ? 2u : 1u;
    info.pStages = stages;
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = desc.layout;
    VkPipeline handle = VK_NULL_HANDLE;
    if (!check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &handle),
               "vkCreateGraphicsPipelines", diagnostics, what)) {
        return {};
    }
    return OwnedPipeline(device, handle);
}

OwnedDescriptorSetLayout
createDescriptorSetLayout(VkDevice device,
                          const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                          std::string_view what, std::vector<Diagnostic>& diagnostics) {
    VkDescriptorSetLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout handle = VK_NULL_HANDLE;
    if (!check(vkCreateDescriptorSetLayout(device, &info, nullptr, &handle),
               "vkCreateDescriptorSetLayout", diagnostics, what)) {
        return {};
    }
    return OwnedDescriptorSetLayout(device, handle);
}

OwnedPipelineLayout createPipelineLayout(VkDevice device,
                                         const std::vector<VkDescriptorSetLayout>& set_layouts,
                                         uint32_t push_constant_bytes, std::string_view what,
                                         std::vector<Diagnostic>& diagnostics,
                                         VkShaderStageFlags push_stages) {
    VkPushConstantRange range{};
    range.stageFlags = push_stages;
    range.offset = 0;
    range.size = push_constant_bytes;
    VkPipelineLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    info.setLayoutCount = static_cast<uint32_t>(set_layouts.size());
    info.pSetLayouts = set_layouts.data();
    info.pushConstantRangeCount = push_constant_bytes > 0 ? 1u : 0u;
    info.pPushConstantRanges = &range;
    VkPipelineLayout handle = VK_NULL_HANDLE;
    if (!check(vkCreatePipelineLayout(device, &info, nullptr, &handle), "vkCreatePipelineLayout",
               diagnostics, what)) {
        return {};
    }
    return OwnedPipelineLayout(device, handle);
}

} // namespace spindrift::vk
