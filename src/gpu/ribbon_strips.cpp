#include "gpu/ribbon_strips.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "vulkan/buffer.h"
#include "vulkan/commands.h"

namespace spindrift::gpu {

namespace {

bool emitterHasTrails(const GpuEffect& fx, uint32_t emitter) {
    return emitter < fx.trail_layout.size() && hasTrails(fx.trail_layout[emitter]) &&
           emitter < fx.buffers.trail_gather.size() &&
           fx.buffers.trail_gather[emitter].mapped != nullptr;
}

} // namespace

void recordTrailGather(const GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants push) {
    bool any = false;
    for (uint32_t e = 0; e < fx.trail_layout.size(); ++e) {
        if (!hasTrails(fx.trail_layout[e])) continue;
        const uint32_t bound = liveBound(fx.live_windows[e]);
        push.params.x = e;
        push.params.z = bound;
        dispatchPass(*fx.gpu, cmd, Pass::trail_gather, push, bound);
        any = true;
    }
    if (!any) return;
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

bool createBeamFrames(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    if (std::none_of(fx.trail_layout.begin(), fx.trail_layout.end(),
                     [](const TrailRegion& r) { return hasDeviceStrips(r) && !hasTrails(r); })) {
        return true;
    }
    const uint64_t bytes =
        uint64_t{fx.gpu->runner->entries()} * fx.trail_layout.size() * sizeof(BeamFrame);
    fx.buffers.beam_frames = vk::createBuffer(
        *fx.gpu->device, bytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        vk::MemoryUse::upload, "GPU beam frames", diagnostics);
    return static_cast<bool>(fx.buffers.beam_frames);
}

bool checkBeamFrames(const GpuEffect& fx, std::span<const BeamFrame> beams,
                     std::vector<Diagnostic>& diagnostics) {
    for (uint32_t e = 0; e < fx.trail_layout.size(); ++e) {
        const TrailRegion& r = fx.trail_layout[e];
        if (!hasDeviceStrips(r) || hasTrails(r) || e < beams.size()) continue;
        const EmitterRecord& record = fx.effect->emitters[e];
        diagnostics.push_back(
            {Severity::error, "", 0, 0, 0, "",
             "submitDrawOutput: beam emitter '" +
                 std::string(stringAt(*fx.effect, record.name_offset, record.name_length)) +
                 "' is drawn from the device but the request has no beam curve for it (" +
                 std::to_string(beams.size()) + " given)"});
        return false;
    }
    return true;
}

uint32_t recordDeviceStrips(const GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants push) {
    uint32_t dispatches = 0;
    const GpuPushConstants base = push;
    for (uint32_t e = 0; e < fx.trail_layout.size(); ++e) {
        const TrailRegion& r = fx.trail_layout[e];
        if (!hasDeviceStrips(r)) continue;
        const uint32_t bound = liveBound(fx.live_windows[e]);
        if (bound == 0) continue;
        // The draw-record pass's records (key, colour, size) before the first strip dispatch.
        if (dispatches == 0) computeBarrier(cmd);
        push = base;
        push.params.x = e;
        push.params.z = bound;
        uint32_t invocations = bound;
        if (!hasTrails(r)) {
            // A beam: its frame in this submission's entry (the host has waited for the entry's
            // previous submission), one invocation per point (the buffer limit keeps the count
            // below 2^32).
            const uint64_t at = (uint64_t{fx.gpu->runner->current()} * fx.trail_layout.size() + e) *
                                sizeof(BeamFrame);
            std::memcpy(static_cast<unsigned char*>(fx.buffers.beam_frames.mapped) + at,
                        &fx.draw.beams[e], sizeof(BeamFrame));
            const VkDeviceAddress frame = fx.buffers.beam_frames.address + at;
            push.addresses.z = static_cast<uint32_t>(frame);
            push.addresses.w = static_cast<uint32_t>(frame >> 32);
            push.params.w = kGpuStripsBeam;
            invocations = bound * r.strip_block_points;
        } else {
            push.params.w = kGpuStripsRibbon;
            // The subgroup variant: one subgroup per ribbon (the pass loops grid-stride over
            // ribbons by subgroup, so a capped dispatch still covers them all).
            if (fx.gpu->passes->variant.subgroup_strips) {
                invocations = static_cast<uint32_t>(
                    std::min<uint64_t>(uint64_t{bound} * fx.gpu->subgroup_size, UINT32_MAX));
            }
        }
        dispatchPass(*fx.gpu, cmd, Pass::ribbon_strips, push, invocations);
        ++dispatches;
    }
    return dispatches;
}

GpuStripSource deviceStripSource(const GpuEffect& fx, uint32_t emitter) {
    GpuStripSource source;
    if (emitter >= fx.buffers.strips.size() || !fx.buffers.strips[emitter]) return source;
    const TrailRegion& r = fx.trail_layout[emitter];
    const vk::Buffer& strips = fx.buffers.strips[emitter];
    source.points = strips.address;
    source.point_counts = strips.address + r.strip_counts_offset_bytes;
    source.count = drawSource(fx, emitter).count;
    source.points_per_strip = r.strip_block_points;
    source.max_strips = std::min(r.capacity, liveBoundOf(fx, emitter));
    return source;
}

bool readBackDeviceStripsForTest(GpuEffect& fx, uint32_t emitter, std::vector<StripPoint>& points,
                                 std::vector<uint32_t>& counts,
                                 std::vector<Diagnostic>& diagnostics) {
    if (emitter >= fx.buffers.strips.size() || !fx.buffers.strips[emitter]) {
        diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                               "emitter " + std::to_string(emitter) + " has no device strips"});
        return false;
    }
    const TrailRegion& r = fx.trail_layout[emitter];
    const vk::Buffer& strips = fx.buffers.strips[emitter];
    vk::Buffer staging =
        vk::createBuffer(*fx.gpu->device, r.strips_bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "GPU device strips readback", diagnostics);
    if (!staging) return false;
    if (!waitForStatistics(fx)) return false;
    const bool ok = fx.gpu->runner->run(
        "GPU device strips readback",
        [&](VkCommandBuffer cmd) {
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                              VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferCopy region{0, 0, r.strips_bytes};
            vkCmdCopyBuffer(cmd, strips.get(), staging.get(), 1, &region);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        },
        diagnostics);
    if (!ok) return false;
    const auto* bytes = static_cast<const unsigned char*>(staging.mapped);
    points.resize(uint64_t{r.capacity} * r.strip_block_points);
    counts.resize(r.capacity);
    std::memcpy(points.data(), bytes, points.size() * sizeof(StripPoint));
    std::memcpy(counts.data(), bytes + r.strip_counts_offset_bytes,
                counts.size() * sizeof(uint32_t));
    return true;
}

uint64_t maxRibbonPoints(const GpuEffect& fx, uint32_t emitter) {
    if (emitter >= fx.trail_layout.size() || !hasTrails(fx.trail_layout[emitter])) return 0;
    const TrailRegion& r = fx.trail_layout[emitter];
    return uint64_t{r.capacity} * (uint64_t{r.max_points} + 1);
}

GatheredTrail gatheredTrail(const GpuEffect& fx, uint32_t emitter, uint32_t index) {
    GatheredTrail trail;
    if (!emitterHasTrails(fx, emitter)) return trail;
    const TrailRegion& r = fx.trail_layout[emitter];
    if (index >= r.capacity) return trail;
    // The gather buffer: GpuTrailHead[capacity], then max_points points (xyz) per particle.
    const auto* heads = static_cast<const GpuTrailHead*>(fx.buffers.trail_gather[emitter].mapped);
    const auto* points = reinterpret_cast<const float*>(heads + r.capacity);
    const GpuTrailHead& head = heads[index];
    trail.head_sim = vec3(head.x, head.y, head.z);
    // The device wrote 1..max_points; a clamp keeps a host read in bounds whatever it holds.
    trail.count = std::min(head.count, r.max_points);
    trail.max_points = r.max_points;
    trail.oldest_first = points + uint64_t{index} * r.max_points * 3;
    return trail;
}

uint64_t writeRibbonStrips(const GpuEffect& fx, uint32_t emitter,
                           std::span<const DrawRecord> records, std::vector<StripPoint>& points,
                           std::vector<uint32_t>& segments, std::vector<vec4>* velocities) {
    if (!emitterHasTrails(fx, emitter)) return 0;
    const CompiledEffect& effect = *fx.effect;
    const EmitterRecord& record = effect.emitters[emitter];
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, effect.effect.space);
    const size_t batch_first = points.size();
    const auto count =
        static_cast<uint32_t>(std::min<size_t>(records.size(), fx.trail_layout[emitter].capacity));
    const vec4* rows = world_from_sim.rows;
    for (uint32_t i = 0; i < count; ++i) {
        const GatheredTrail trail = gatheredTrail(fx, emitter, i);
        const RibbonPointsRef recorded = trail.points();
        const RibbonPolyline line =
            sdRibbonPolyline(recorded, trail.ring(), trail.head_sim, rows[0], rows[1], rows[2]);
        if (line.points == 0) continue;
        const DrawRecord& r = records[i];
        appendRibbonStrip(recorded, line, record, r.position_size.w, r.color, batch_first, points,
                          segments, vec3(r.velocity_rotation), velocities);
    }
    return points.size() - batch_first;
}

} // namespace spindrift::gpu
