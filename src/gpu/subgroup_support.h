// What a device's compute shaders can do with subgroups: the one query the passes that have a
// subgroup variant and a portable one (the radix sort's ranking, the update pass's append) pick
// their variant from. A module that declares a subgroup capability the device lacks may not be
// loaded, so the choice is made on the host, before the pipeline is built.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

namespace spindrift::gpu {

struct SubgroupSupport {
    uint32_t size = 0;       // what SPIR-V 1.5 compute shaders run with
    bool ballot = false;     // basic, ballot and shuffle in the compute stage
    bool arithmetic = false; // basic and arithmetic (subgroupInclusiveAdd) in the compute stage
    VkDeviceSize max_allocation_bytes = 0;
};

SubgroupSupport querySubgroups(VkPhysicalDevice physical);

// Whether the update pass's compaction can append with one atomic per subgroup
// (subgroupBallot): ballot in the compute stage and a subgroup of at most 128 lanes (a uvec4
// ballot). Otherwise it appends with one atomic per workgroup through shared memory.
bool subgroupAppendFits(const SubgroupSupport& s);

} // namespace spindrift::gpu
