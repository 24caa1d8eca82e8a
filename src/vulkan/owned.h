// Ownership of a Vulkan object created from a VkDevice: destroyed exactly once, with the device
// it came from, when the owner goes out of scope. Move-only. The device must outlive its owners
// (the renderer declares the device before everything made from it).
#pragma once

#include <utility>

#include <vulkan/vulkan.h>

namespace spindrift::vk {

template <typename T, void (*Destroy)(VkDevice, T, const VkAllocationCallbacks*)> class Owned {
public:
    Owned() = default;
    Owned(VkDevice device, T handle) : device_(device), handle_(handle) {}
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    Owned(Owned&& other) noexcept
        : device_(other.device_), handle_(std::exchange(other.handle_, VK_NULL_HANDLE)) {}
    Owned& operator=(Owned&& other) noexcept {
        if (this != &other) {
            reset();
            device_ = other.device_;
            handle_ = std::exchange(other.handle_, VK_NULL_HANDLE);
        }
        return *this;
    }
    ~Owned() { reset(); }

    void reset() {
        if (handle_ != VK_NULL_HANDLE) Destroy(device_, handle_, nullptr);
        handle_ = VK_NULL_HANDLE;
    }
    T get() const { return handle_; }
    explicit operator bool() const { return handle_ != VK_NULL_HANDLE; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    T handle_ = VK_NULL_HANDLE;
};

using OwnedMemory = Owned<VkDeviceMemory, vkFreeMemory>;
using OwnedBuffer = Owned<VkBuffer, vkDestroyBuffer>;
using OwnedImage = Owned<VkImage, vkDestroyImage>;
using OwnedImageView = Owned<VkImageView, vkDestroyImageView>;
using OwnedSampler = Owned<VkSampler, vkDestroySampler>;
using OwnedShaderModule = Owned<VkShaderModule, vkDestroyShaderModule>;
using OwnedPipeline = Owned<VkPipeline, vkDestroyPipeline>;
using OwnedPipelineLayout = Owned<VkPipelineLayout, vkDestroyPipelineLayout>;
using OwnedDescriptorSetLayout = Owned<VkDescriptorSetLayout, vkDestroyDescriptorSetLayout>;
using OwnedDescriptorPool = Owned<VkDescriptorPool, vkDestroyDescriptorPool>;
using OwnedCommandPool = Owned<VkCommandPool, vkDestroyCommandPool>;
using OwnedFence = Owned<VkFence, vkDestroyFence>;
using OwnedQueryPool = Owned<VkQueryPool, vkDestroyQueryPool>;
using OwnedSemaphore = Owned<VkSemaphore, vkDestroySemaphore>;

} // namespace spindrift::vk
