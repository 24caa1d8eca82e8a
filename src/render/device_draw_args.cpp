#include "render/device_draw_args.h"

#include "embedded_shaders.h"
#include "render/shader/billboard.h"
#include "render/shader/strip_draw.h"
#include "vulkan/commands.h"
#include "vulkan/compute.h"

namespace spindrift::render {

namespace {

uvec2 split(uint64_t address) {
    return uvec2(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32));
}

} // namespace

DeviceDraw deviceDrawOf(const DrawBatch& batch, const MeshStore& meshes) {
    DeviceDraw d;
    if (const BillboardBatch* b = std::get_if<BillboardBatch>(&batch)) {
        if (b->device.records == 0) return d;
        return {b->device.count, b->device.max_records, kBillboardVerticesPerQuad, false};
    }
    if (const MeshBatch* m = std::get_if<MeshBatch>(&batch)) {
        if (m->device.records == 0) return d;
        return {m->device.count, m->device.max_records, meshes.vertexCount(m->mesh), true};
    }
    const DeviceStrips& s = std::get<StripBatch>(batch).device;
    if (s.points == 0) return d;
    // A polyline of points_per_strip points: points_per_strip - 1 segments of 6 vertices.
    return {s.count, s.max_strips, (s.points_per_strip - 1) * kStripVerticesPerSegment, false};
}

std::unique_ptr<DeviceDrawArgs> DeviceDrawArgs::create(const vk::Device& device,
                                                       std::vector<Diagnostic>& diagnostics) {
    std::unique_ptr<DeviceDrawArgs> pass(new DeviceDrawArgs());
    pass->layout_ = vk::createComputeLayout(device.handle(), sizeof(DrawArgsPush),
                                            "the draw-argument pass", diagnostics);
    if (!pass->layout_) return nullptr;
    const shaders::SpirvCode& code = shaders::kDrawArgsComp;
    pass->pipeline_ = vk::createComputePipeline(
        device.handle(), pass->layout_.get(),
        std::span<const uint32_t>(code.words, code.word_count), code.source, nullptr, diagnostics);
    if (!pass->pipeline_) return nullptr;
    pass->args_ =
        vk::createBuffer(device, VkDeviceSize{kMaxDeviceBatches} * sizeof(VkDrawIndirectCommand),
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                         vk::MemoryUse::device_local, "the indirect draw arguments", diagnostics);
    if (!pass->args_) return nullptr;
    return pass;
}

void DeviceDrawArgs::record(VkCommandBuffer cmd, std::span<const DrawBatch> batches,
                            const MeshStore& meshes) const {
    bool any = false;
    for (const DrawBatch& entry : batches)
        any = any || deviceDrawOf(entry, meshes).vertices_per_record != 0;
    if (!any) return;
    // The simulation's submission (draw records, orders, counts) and the previous frame's
    // indirect reads of these arguments, before this pass and the frame's vertex shaders.
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_.get());
    uint32_t k = 0;
    for (const DrawBatch& entry : batches) {
        const DeviceDraw draw = deviceDrawOf(entry, meshes);
        if (draw.vertices_per_record == 0) continue;
        DrawArgsPush push{};
        push.count = split(draw.count);
        push.args = split(args_.address + argsOffset(k++));
        push.max_records = draw.max_records;
        push.vertices_per_record = draw.vertices_per_record;
        push.instanced = draw.instanced ? 1u : 0u;
        vkCmdPushConstants(cmd, layout_.get(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

} // namespace spindrift::render
