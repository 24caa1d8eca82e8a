// The compute pass that turns draw records into sort keys for the GPU radix sort: key i is
// sdDrawRecordSortKey(record i, sort_mode, eye) (kernels/sort_key.h, the text the CPU sort
// runs too) and payload i is i, whichever draw-record chunk record i lies in. Sorting the pairs
// ascending then gives the draw order the CPU sort (render/particle_sort.h) gives for the same
// records, ties included.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <vulkan/vulkan.h>

#include "kernels/shared_types.h"
#include "spindrift/diagnostic.h"
#include "vulkan/context.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::gpu {

// Where draw records are on the device: one run at `address` (chunk_records 0), or spread over
// draw-record chunks of chunk_records records each (src/gpu/pool_layout.h), `address` then being
// a table of the chunks' 64-bit addresses whose first entry holds record 0 at first_in_chunk
// (sdDrawRecordPlace, kernels/draw_record.h).
struct DeviceDrawRecords {
    VkDeviceAddress address = 0;
    uint32_t chunk_records = 0;
    uint32_t first_in_chunk = 0;
};

struct GpuSortKeyPass {
    vk::OwnedPipelineLayout layout;
    vk::OwnedPipeline pipeline;
};

std::optional<GpuSortKeyPass> createGpuSortKeyPass(const vk::Device& device,
                                                   std::vector<Diagnostic>& diagnostics);

// The context's one key pass (vk::sharedObject), compiled by the first GPU instance on the device
// that sorts its draw order; nullptr with the reasons.
std::shared_ptr<const GpuSortKeyPass> sharedSortKeyPass(vk::Context& context,
                                                        std::vector<Diagnostic>& diagnostics);

// Records the key pass over the first count DrawRecords of `records`, writing count uints
// at `keys` and at `payloads`. With `valid` (the address of a uint the device wrote, e.g. a live
// count) only the first min(count, *valid) records are keyed; the rest get key 0xffffffff and so
// sort after them. Records a leading barrier against earlier compute and transfer
// writes; the sort that follows records its own. count 0 records nothing but that barrier.
void recordSortKeys(VkCommandBuffer cmd, const GpuSortKeyPass& pass,
                    const DeviceDrawRecords& records, uint32_t count, uint32_t sort_mode, vec3 eye,
                    VkDeviceAddress keys, VkDeviceAddress payloads, VkDeviceAddress valid = 0);

} // namespace spindrift::gpu
