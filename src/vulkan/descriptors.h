// Descriptor pools and sets: the renderer allocates its few sets once and rewrites them only
// when what they point at is replaced.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"
#include "vulkan/owned.h"

namespace spindrift::vk {

// A pool for max_sets sets holding at most uniform_buffers uniform buffers, image_samplers
// combined image samplers and storage_images storage images in all.
OwnedDescriptorPool createDescriptorPool(VkDevice device, uint32_t max_sets,
                                         uint32_t uniform_buffers, uint32_t image_samplers,
                                         std::vector<Diagnostic>& diagnostics,
                                         uint32_t storage_images = 0);

// One set of layout from pool; VK_NULL_HANDLE and an error on failure. Freed with the pool.
VkDescriptorSet allocateDescriptorSet(VkDevice device, VkDescriptorPool pool,
                                      VkDescriptorSetLayout layout,
                                      std::vector<Diagnostic>& diagnostics);

void writeUniformBuffer(VkDevice device, VkDescriptorSet set, uint32_t binding, VkBuffer buffer,
                        VkDeviceSize bytes);
void writeCombinedImageSampler(VkDevice device, VkDescriptorSet set, uint32_t binding,
                               VkImageView view, VkSampler sampler, VkImageLayout layout);
// A storage image, in the GENERAL layout (the one storage access allows).
void writeStorageImage(VkDevice device, VkDescriptorSet set, uint32_t binding, VkImageView view);

} // namespace spindrift::vk
