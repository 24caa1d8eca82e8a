// Graphics pipelines for dynamic rendering (no render pass objects), and the layouts they use.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

// How a colour attachment combines the fragment's output with what is there.
enum class BlendState : uint8_t {
    none,          // overwrite
    additive,      // src + dst                     (ONE, ONE)
    premultiplied, // src + dst * (1 - src.a)       (ONE, ONE_MINUS_SRC_ALPHA)
    alpha,         // src * src.a + dst * (1 - src.a) (SRC_ALPHA, ONE_MINUS_SRC_ALPHA)
    // Colour src + dst (ONE, ONE), alpha dst * (1 - src.a) (ZERO, ONE_MINUS_SRC_ALPHA): sums in
    // colour and a product in alpha, one state for every attachment (weighted-blended OIT
    // without the independentBlend feature).
    sum_color_product_alpha,
    // Colour src + dst (ONE, ONE), alpha dst (ZERO, ONE): light added over a layer whose alpha
    // is the coverage it will composite with (the half-resolution particle layer), which light
    // must not change.
    additive_keep_alpha,
};

// Specialisation constants 0 .. n - 1, one uint32 each, from `values` (which must outlive it):
// the shape of every specialised shader here (kSpec* ids, 4 bytes apart). Not copyable: `info`
// points into `entries`.
struct UintSpecialization {
    explicit UintSpecialization(std::span<const uint32_t> values);
    UintSpecialization(const UintSpecialization&) = delete;
    UintSpecialization& operator=(const UintSpecialization&) = delete;
    std::vector<VkSpecializationMapEntry> entries;
    VkSpecializationInfo info{};
};

struct GraphicsPipelineDesc {
    VkShaderModule vertex = VK_NULL_HANDLE;
    VkShaderModule fragment = VK_NULL_HANDLE; // null: no fragment stage (depth only)
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::vector<VkFormat> color_formats;
    std::vector<BlendState> blends; // one per colour attachment
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    bool depth_test = true; // VK_COMPARE_OP_LESS
    bool depth_write = true;
    // VK_COMPARE_OP_LESS_OR_EQUAL instead: a second draw of geometry that wrote the depth (the
    // same invariant positions) passes where it is the visible surface.
    bool depth_equal_passes = false;
    // Specialisation constants for both stages; null for none.
    const VkSpecializationInfo* specialization = nullptr;
    // Back faces (clockwise on screen) culled: closed meshes. Off by default: billboards and
    // decals are seen from both sides.
    bool cull_back_faces = false;
    // Slope-scaled depth bias (depthBiasSlopeFactor; 0: none): shadow casters push their depth
    // away by this many times the depth slope of each triangle.
    float depth_bias_slope = 0.0f;
    // Line lists, one pixel wide (the line overlay), instead of triangle lists.
    bool line_list = false;
    // Triangle lists, counter-clockwise fronts, viewport and scissor dynamic, one sample.
};

// An empty owner and an error naming `what` on failure.
OwnedPipeline createGraphicsPipeline(VkDevice device, const GraphicsPipelineDesc& desc,
                                     std::string_view what, std::vector<Diagnostic>& diagnostics);

OwnedDescriptorSetLayout
createDescriptorSetLayout(VkDevice device,
                          const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                          std::string_view what, std::vector<Diagnostic>& diagnostics);

// A layout of the sets and, when push_constant_bytes > 0, one push-constant range for the
// stages push_stages (the graphics pipelines' vertex and fragment stages by default).
OwnedPipelineLayout createPipelineLayout(
    VkDevice device, const std::vector<VkDescriptorSetLayout>& set_layouts,
    uint32_t push_constant_bytes, std::string_view what, std::vector<Diagnostic>& diagnostics,
    VkShaderStageFlags push_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);

} // namespace spindrift::vk
