// The draw-argument pass: for each batch whose records stay on the device (a GPU simulation on the
// renderer's device: billboards' and meshes' DeviceRecords, strips' DeviceStrips), one tiny compute
// dispatch turns the live count the simulation wrote into a VkDrawIndirectCommand, so the batch is
// drawn with vkCmdDrawIndirect and the host never reads a count back. Recorded before the frame's
// rendering scope.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/mesh_store.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::render {

// Where an indirect draw's arguments are: a buffer and an offset in it (DeviceDrawArgs::args).
struct IndirectArgs {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
};

// What the pass needs of a batch drawn from the device; vertices_per_record 0 for a batch drawn
// from host data. Device batches take argument slots in batch order (argsOffset(k) for the k-th).
struct DeviceDraw {
    uint64_t count = 0; // the address of the live count
    uint32_t max_records = 0;
    uint32_t vertices_per_record = 0;
    bool instanced = false; // one instance of vertices_per_record vertices per record (meshes)
};
// A mesh batch draws its mesh (meshes: where its vertex count is) once per record.
DeviceDraw deviceDrawOf(const DrawBatch& batch, const MeshStore& meshes);

class DeviceDrawArgs {
public:
    static std::unique_ptr<DeviceDrawArgs> create(const vk::Device& device,
                                                  std::vector<Diagnostic>& diagnostics);

    // Records, for the k-th batch of `batches` with device records, the dispatch that writes its
    // arguments at argsOffset(k), between two barriers: before, every earlier write on the queue
    // (the simulation's submission) against this pass's reads and the vertex shader's; after,
    // these writes against the indirect draws. Records nothing when no batch has device records.
    // The caller has checked there are at most kMaxDeviceBatches.
    void record(VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                const MeshStore& meshes) const;

    VkBuffer buffer() const { return args_.get(); }
    static VkDeviceSize argsOffset(uint32_t device_batch) {
        return VkDeviceSize{device_batch} * sizeof(VkDrawIndirectCommand);
    }
    // The arguments of the device_batch-th batch with device records, for its draw.
    IndirectArgs args(uint32_t device_batch) const { return {buffer(), argsOffset(device_batch)}; }

private:
    vk::OwnedPipelineLayout layout_;
    vk::OwnedPipeline pipeline_;
    vk::Buffer args_; // kMaxDeviceBatches VkDrawIndirectCommands
};

} // namespace spindrift::render
