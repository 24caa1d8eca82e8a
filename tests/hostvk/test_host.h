// A minimal Vulkan host for the host-frame tests: its own instance (validation on, a messenger
// that keeps every warning and error), lavapipe's device with the features Spindrift needs, one
// queue, a command pool, colour and depth images in the formats a test asks for, and a readback.
// What a game engine would own; Spindrift only borrows it (include/spindrift/vulkan_renderer.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/vulkan_renderer.h"

namespace spindrift::test {

class TestHost {
public:
    // nullptr (with the reason in why) when Vulkan, lavapipe or the validation layer is missing.
    static std::unique_ptr<TestHost> create(std::string& why);
    ~TestHost();

    // What VulkanRenderer::create needs; create_info is the one the device was made with.
    VulkanDevice device() const;
    const VkDeviceCreateInfo& createInfo() const { return create_info_; }
    VkDevice handle() const { return device_; }
    VkQueue queue() const { return queue_; }

    // Colour and depth images of the host's own (colour usage: attachment, transfer source and
    // destination; depth: attachment, sampled, transfer source and destination) and the readback
    // buffer.
    bool makeImages(VkFormat color, VkFormat depth, uint32_t width, uint32_t height);
    // The images as beginScene leaves them, and the layouts the host wants them in afterwards
    // (colour ready for the readback copy).
    VulkanImage color() const {
        return {color_, color_view_, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    }
    // Depth with stencil is in DEPTH_STENCIL_ATTACHMENT_OPTIMAL, else DEPTH_ATTACHMENT_OPTIMAL;
    // its view's aspect is DEPTH either way.
    VulkanImage depth() const { return {depth_, depth_view_, depthLayout(), depthLayout()}; }
    VkExtent2D extent() const { return {width_, height_}; }
    // A motion-vector image of the host's own (after makeImages, its size; usage attachment,
    // transfer source and destination), which beginScene then clears to kMotionClear, the
    // host scene's motion, and leaves in COLOR_ATTACHMENT_OPTIMAL; the frame leaves it ready for a
    // copy (readMotion).
    bool makeMotionImage(VkFormat format);
    VulkanImage motion() const {
        return {motion_, motion_view_, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    }
    static constexpr float kMotionClear[2] = {7.0f, -3.0f};
    // The motion image's x, y per pixel (rows top to bottom) as floats; every frame must have
    // been waited for.
    bool readMotion(std::vector<float>& xy);

    // Frames the host may have in flight: each has its command buffer, fence and part of the
    // readback buffer; they share the images (full barriers order them on the queue).
    static constexpr uint32_t kFramesInFlight = 4;

    // Begins frame's command buffer and records the host's "opaque scene": colour cleared to
    // `clear` (linear), depth cleared to 1 and, when wall_depth < 1, the left half of the depth
    // cleared to wall_depth (a wall in front of whatever it hides). Leaves colour in
    // COLOR_ATTACHMENT_OPTIMAL and depth in depth().layout; a stencil is cleared to kStencil.
    // The frame's previous
    // submission must have been waited for.
    VkCommandBuffer beginScene(const float clear[4], float wall_depth, uint32_t frame = 0);
    // Copies the colour image (in TRANSFER_SRC_OPTIMAL) to the frame's part of the readback
    // buffer, ends the command buffer and submits it signalling `signal` to `value` (when not
    // null), after waiting on the GPU for `gate` to reach gate_value (when not null); does not
    // wait for it.
    bool submit(uint32_t frame, VkSemaphore signal, uint64_t value,
                VkSemaphore gate = VK_NULL_HANDLE, uint64_t gate_value = 0);
    // Waits for the frame's submission.
    bool wait(uint32_t frame);
    // What beginScene clears a stencil to.
    static constexpr uint8_t kStencil = 0x5a;
    // Copies the stencil of the depth image (in depth().final_layout, left there) into out, one
    // byte per pixel; every frame must have been waited for.
    bool readStencil(std::vector<uint8_t>& out);
    // submit and wait, frame 0.
    bool submitAndRead(VkSemaphore signal, uint64_t value);
    // The pixels a frame read back: bytes_per_pixel x width x height.
    const uint8_t* pixels(uint32_t frame = 0) const {
        return static_cast<const uint8_t*>(mapped_) + frameBytes() * frame;
    }

    // Every validation warning and error so far.
    const std::vector<std::string>& messages() const { return messages_; }

private:
    TestHost() = default;
    void destroyImages();
    // A width_ x height_ image of one mip level and layer, in device memory, and its view.
    bool createImage(VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                     VkImage& out, VkDeviceMemory& memory, VkImageView& view);
    // Copies `copy_aspect` of `image` (in `layout`, left there) into out (`bytes`).
    bool readImage(VkImage image, VkImageAspectFlags aspects, VkImageAspectFlags copy_aspect,
                   VkImageLayout layout, VkDeviceSize bytes, std::vector<uint8_t>& out);
    size_t frameBytes() const { return size_t{width_} * height_ * bytes_per_pixel_; }
    // A host-visible, coherent buffer of `bytes` a copy can write (destroyed by the caller).
    bool createReadback(VkDeviceSize bytes, VkBuffer& buffer, VkDeviceMemory& memory);
    bool hasStencil() const {
        return depth_format_ == VK_FORMAT_D24_UNORM_S8_UINT ||
               depth_format_ == VK_FORMAT_D32_SFLOAT_S8_UINT;
    }
    VkImageLayout depthLayout() const {
        return hasStencil() ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
                            : VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    }
    VkImageAspectFlags depthAspects() const {
        return hasStencil() ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                            : VK_IMAGE_ASPECT_DEPTH_BIT;
    }
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    VkDeviceCreateInfo create_info_{};
    VkDeviceQueueCreateInfo queue_info_{};
    float priority_ = 1.0f;
    VkPhysicalDeviceVulkan12Features features12_{};
    VkPhysicalDeviceVulkan13Features features13_{};
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmds_[kFramesInFlight]{};
    VkFence fences_[kFramesInFlight]{};
    VkImage color_ = VK_NULL_HANDLE;
    VkImage depth_ = VK_NULL_HANDLE;
    VkImageView color_view_ = VK_NULL_HANDLE;
    VkImageView depth_view_ = VK_NULL_HANDLE;
    VkDeviceMemory color_memory_ = VK_NULL_HANDLE;
    VkDeviceMemory depth_memory_ = VK_NULL_HANDLE;
    VkImage motion_ = VK_NULL_HANDLE;
    VkImageView motion_view_ = VK_NULL_HANDLE;
    VkDeviceMemory motion_memory_ = VK_NULL_HANDLE;
    VkFormat motion_format_ = VK_FORMAT_UNDEFINED;
    VkBuffer readback_ = VK_NULL_HANDLE;
    VkDeviceMemory readback_memory_ = VK_NULL_HANDLE;
    void* mapped_ = nullptr;
    uint32_t width_ = 0;
    uint32_t height_ = 0;
    uint32_t bytes_per_pixel_ = 0;
    VkFormat depth_format_ = VK_FORMAT_UNDEFINED;
    std::vector<std::string> messages_;
};

} // namespace spindrift::test
