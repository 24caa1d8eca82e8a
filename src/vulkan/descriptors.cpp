#include "vulkan/descriptors.h"

#include "vulkan/vk_error.h"

namespace spindrift::vk {

OwnedDescriptorPool createDescriptorPool(VkDevice device, uint32_t max_sets,
                                         uint32_t uniform_buffers, uint32_t image_samplers,
                                         std::vector<Diagnostic>& diagnostics,
                                         uint32_t storage_images) {
    std::vector<VkDescriptorPoolSize> sizes;
    if (uniform_buffers > 0) sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniform_buffers});
    if (image_samplers > 0) {
        sizes.push_back({VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, image_samplers});
    }
    if (storage_images > 0) sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, storage_images});
    VkDescriptorPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = max_sets;
    info.poolSizeCount = static_cast<uint32_t>(sizes.size());
    info.pPoolSizes = sizes.data();
    VkDescriptorPool handle = VK_NULL_HANDLE;
    if (!check(vkCreateDescriptorPool(device, &info, nullptr, &handle), "vkCreateDescriptorPool",
               diagnostics)) {
        return {};
    }
    return OwnedDescriptorPool(device, handle);
}

VkDescriptorSet allocateDescriptorSet(VkDevice device, VkDescriptorPool pool,
                                      VkDescriptorSetLayout layout,
                                      std::vector<Diagnostic>& diagnostics) {
    VkDescriptorSetAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    info.descriptorPool = pool;
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (!check(vkAllocateDescriptorSets(device, &info, &set), "vkAllocateDescriptorSets",
               diagnostics)) {
        return VK_NULL_HANDLE;
    }
    return set;
}

void writeUniformBuffer(VkDevice device, VkDescriptorSet set, uint32_t binding, VkBuffer buffer,
                        VkDeviceSize bytes) {
    VkDescriptorBufferInfo info{buffer, 0, bytes};
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    write.pBufferInfo = &info;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

namespace {

// One image descriptor (sampled or storage) written at binding.
void writeImage(VkDevice device, VkDescriptorSet set, uint32_t binding, VkDescriptorType type,
                const VkDescriptorImageInfo& info) {
    VkWriteDescriptorSet write{};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = type;
    write.pImageInfo = &info;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
}

} // namespace

void writeCombinedImageSampler(VkDevice device, VkDescriptorSet set, uint32_t binding,
                               VkImageView view, VkSampler sampler, VkImageLayout layout) {
    writeImage(device, set, binding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
               {sampler, view, layout});
}

void writeStorageImage(VkDevice device, VkDescriptorSet set, uint32_t binding, VkImageView view) {
    writeImage(device, set, binding, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
               {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL});
}

} // namespace spindrift::vk
