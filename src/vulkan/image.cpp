#include "vulkan/image.h"

#include <string>

#include "vulkan/memory.h"
#include "vulkan/vk_error.h"

namespace spindrift::vk {

namespace {

bool isDepthFormat(VkFormat format) {
    return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM ||
           format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

std::string formatName(VkFormat format) {
    switch (format) {
    case VK_FORMAT_R16G16B16A16_SFLOAT:
        return "R16G16B16A16_SFLOAT";
    case VK_FORMAT_R32_SFLOAT:
        return "R32_SFLOAT";
    case VK_FORMAT_D32_SFLOAT:
        return "D32_SFLOAT";
    case VK_FORMAT_R8G8B8A8_SRGB:
        return "R8G8B8A8_SRGB";
    default:
        return "VkFormat(" + std::to_string(static_cast<int>(format)) + ")";
    }
}

// The optimal-tiling format features each usage needs.
VkFormatFeatureFlags requiredFeatures(VkImageUsageFlags usage) {
    VkFormatFeatureFlags f = 0;
    if (usage & VK_IMAGE_USAGE_SAMPLED_BIT) f |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if (usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT) f |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    if (usage & VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT) {
        f |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    }
    if (usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) f |= VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
    if (usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT) f |= VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    return f;
}

} // namespace

Image2D createImage2D(const Device& device, VkFormat format, VkExtent2D extent,
                      VkImageUsageFlags usage, std::string_view what,
                      std::vector<Diagnostic>& diagnostics, uint32_t mip_levels) {
    bool depth = isDepthFormat(format);
    VkFormatProperties properties{};
    vkGetPhysicalDeviceFormatProperties(device.physical(), format, &properties);
    VkFormatFeatureFlags needed = requiredFeatures(usage);
    if ((properties.optimalTilingFeatures & needed) != needed) {
        diagnostics.push_back(vulkanSetupError("vkGetPhysicalDeviceFormatProperties",
                                               "format " + formatName(format) +
                                                   " lacks the features " + std::string(what) +
                                                   " needs on this device"));
        return {};
    }

    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = mip_levels;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImage handle = VK_NULL_HANDLE;
    if (!check(vkCreateImage(device.handle(), &info, nullptr, &handle), "vkCreateImage",
               diagnostics, what)) {
        return {};
    }
    Image2D image;
    image.image = OwnedImage(device.handle(), handle);
    image.format = format;
    image.extent = extent;
    image.aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;

    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(device.handle(), handle, &requirements);
    image.memory = allocateMemory(device.handle(), device.memory(), requirements,
                                  MemoryUse::device_local, false, what, diagnostics);
    if (!image.memory) return {};
    if (!check(vkBindImageMemory(device.handle(), handle, image.memory.get(), 0),
               "vkBindImageMemory", diagnostics, what)) {
        return {};
    }

    VkImageViewCreateInfo view{};
    view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view.image = handle;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format;
    view.subresourceRange = {image.aspect, 0, mip_levels, 0, 1};
    VkImageView view_handle = VK_NULL_HANDLE;
    if (!check(vkCreateImageView(device.handle(), &view, nullptr, &view_handle),
               "vkCreateImageView", diagnostics, what)) {
        return {};
    }
    image.view = OwnedImageView(device.handle(), view_handle);
    return image;
}

OwnedSampler createSampler(const Device& device, Filter filter,
                           std::vector<Diagnostic>& diagnostics, Wrap wrap, Mipmaps mipmaps) {
    VkFilter f = filter == Filter::linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    const VkSamplerAddressMode address = wrap == Wrap::repeat
                                             ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                             : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSamplerCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    info.magFilter = f;
    info.minFilter = f;
    info.mipmapMode =
        mipmaps == Mipmaps::linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = address;
    info.addressModeV = address;
    info.addressModeW = address;
    info.maxLod = mipmaps == Mipmaps::linear ? VK_LOD_CLAMP_NONE : 0.0f;
    info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    VkSampler handle = VK_NULL_HANDLE;
    if (!check(vkCreateSampler(device.handle(), &info, nullptr, &handle), "vkCreateSampler",
               diagnostics)) {
        return {};
    }
    return OwnedSampler(device.handle(), handle);
}

} // namespace spindrift::vk
