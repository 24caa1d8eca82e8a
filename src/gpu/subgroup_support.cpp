#include "gpu/subgroup_support.h"

namespace spindrift::gpu {

SubgroupSupport querySubgroups(VkPhysicalDevice physical) {
    VkPhysicalDeviceVulkan11Properties p11{};
    p11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &p11;
    vkGetPhysicalDeviceProperties2(physical, &properties);
    SubgroupSupport s;
    s.size = p11.subgroupSize;
    const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_BASIC_BIT |
                                          VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                          VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    const bool compute = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    const VkSubgroupFeatureFlags arithmetic =
        VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    s.ballot = compute && (p11.subgroupSupportedOperations & needed) == needed;
    s.arithmetic = compute && (p11.subgroupSupportedOperations & arithmetic) == arithmetic;
    s.max_allocation_bytes = p11.maxMemoryAllocationSize;
    return s;
}

bool subgroupAppendFits(const SubgroupSupport& s) {
    return s.ballot && s.size != 0 && s.size <= 128;
}

} // namespace spindrift::gpu
