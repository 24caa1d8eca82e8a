// 2D images with their own memory and one view, and samplers.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

struct Image2D {
    OwnedMemory memory; // declared first: destroyed after the image bound to it
    OwnedImage image;
    OwnedImageView view;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;

    Image2D() = default;
    Image2D(Image2D&&) = default;
    // Releases the view and image before their memory, then takes other's.
    Image2D& operator=(Image2D&& other) noexcept {
        if (this == &other) return *this;
        view.reset();
        image.reset();
        memory = std::move(other.memory);
        image = std::move(other.image);
        view = std::move(other.view);
        format = other.format;
        extent = other.extent;
        aspect = other.aspect;
        return *this;
    }

    VkImage get() const { return image.get(); }
    explicit operator bool() const { return static_cast<bool>(image); }
};

// A device-local, single-layer, optimally tiled 2D image and a view of it (the depth
// aspect for depth formats, colour otherwise). An error naming `what` when the format lacks the
// features `usage` needs or a call fails; the result is then empty.
// mip_levels: 1, or up to the full chain (the view covers them all).
Image2D createImage2D(const Device& device, VkFormat format, VkExtent2D extent,
                      VkImageUsageFlags usage, std::string_view what,
                      std::vector<Diagnostic>& diagnostics, uint32_t mip_levels = 1);

enum class Filter : uint8_t { nearest, linear };
// Addressing outside [0, 1]: clamped to the edge texel, or repeating the image.
enum class Wrap : uint8_t { clamp, repeat };
// Between mipmap levels: none (level 0 only), or linear between the two nearest levels over the
// image's whole chain (trilinear with Filter::linear). No anisotropy.
enum class Mipmaps : uint8_t { none, linear };
OwnedSampler createSampler(const Device& device, Filter filter,
                           std::vector<Diagnostic>& diagnostics, Wrap wrap = Wrap::clamp,
                           Mipmaps mipmaps = Mipmaps::none);

} // namespace spindrift::vk
