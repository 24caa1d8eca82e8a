#include "gpu/state_carry.h"

#include <cassert>

#include "gpu/sub_emitters.h"

namespace spindrift::gpu {

namespace {

// One range of device bytes to copy from the old instance to the new one.
struct CarryRange {
    VkBuffer src = VK_NULL_HANDLE;
    VkDeviceSize src_offset = 0;
    VkBuffer dst = VK_NULL_HANDLE;
    VkDeviceSize dst_offset = 0;
    VkDeviceSize bytes = 0;
};

// What the two regions would have to agree on for a byte copy to be the same state.
std::string regionDifference(const GpuEffect& from, uint32_t o, const GpuEffect& to, uint32_t e) {
    const EmitterRegion& a = from.layout.regions[o];
    const EmitterRegion& b = to.layout.regions[e];
    if (a.capacity != b.capacity || a.column_bytes != b.column_bytes) return "pool size";
    if (a.relocates != b.relocates) return "relocation (birth order)";
    const TrailRegion& ta = from.trail_layout[o];
    const TrailRegion& tb = to.trail_layout[e];
    if (ta.max_points != tb.max_points || ta.buffer_bytes != tb.buffer_bytes) return "trail rings";
    return {};
}

void addColumn(const GpuEffect& from, const ColumnPlace& a, const GpuEffect& to,
               const ColumnPlace& b, uint64_t bytes, std::vector<CarryRange>& out) {
    out.push_back({from.buffers.pool[a.buffer].get(), a.offset_bytes,
                   to.buffers.pool[b.buffer].get(), b.offset_bytes, bytes});
}

// Every range of emitter o of `from` that emitter e of `to` takes.
void listRanges(const GpuEffect& from, uint32_t o, const GpuEffect& to, uint32_t e,
                std::vector<CarryRange>& out) {
    const EmitterRegion& a = from.layout.regions[o];
    const EmitterRegion& b = to.layout.regions[e];
    if (a.capacity == 0) return; // switched off in this part (runOnly): no state
    for (uint32_t c = 0; c < kGpuColumnCount; ++c) {
        addColumn(from, a.columns[c], to, b.columns[c], a.column_bytes, out);
    }
    if (a.relocates) {
        for (uint32_t c = 0; c < kGpuStateColumnCount; ++c) {
            addColumn(from, a.state_copy[c], to, b.state_copy[c], a.column_bytes, out);
        }
    }
    const VkBuffer src_counters = from.buffers.counters.get();
    const VkBuffer dst_counters = to.buffers.counters.get();
    out.push_back({src_counters, o * sizeof(GpuEmitterCounters), dst_counters,
                   e * sizeof(GpuEmitterCounters), sizeof(GpuEmitterCounters)});
    out.push_back({src_counters, eventCountersOffset(*from.effect) + o * sizeof(GpuEventCounters),
                   dst_counters, eventCountersOffset(*to.effect) + e * sizeof(GpuEventCounters),
                   sizeof(GpuEventCounters)});
    if (hasTrails(from.trail_layout[o])) {
        out.push_back({from.buffers.trails[o].get(), 0, to.buffers.trails[e].get(), 0,
                       from.trail_layout[o].buffer_bytes});
    }
}

// Transfer writes before the next step's compute passes and the counters' copy read them.
void copyBarrier(VkCommandBuffer cmd) {
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                          VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

// Both instances on one device: each range straight into `to`'s buffers.
bool copyOnDevice(GpuEffect& to, const std::vector<CarryRange>& ranges,
                  std::vector<Diagnostic>& diagnostics) {
    return runAndWait(
        to, "GPU hot reload copy",
        [&](VkCommandBuffer cmd) {
            for (const CarryRange& r : ranges) {
                const VkBufferCopy region{r.src_offset, r.dst_offset, r.bytes};
                vkCmdCopyBuffer(cmd, r.src, r.dst, 1, &region);
            }
            copyBarrier(cmd);
        },
        diagnostics);
}

} // namespace

bool carryGpuState(GpuEffect& from, GpuEffect& to, std::span<const int32_t> old_emitter,
                   std::vector<Diagnostic>& diagnostics) {
    assert(old_emitter.size() == to.layout.regions.size());
    if (!from.errors.empty() || !to.errors.empty()) {
        diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                               "GPU hot reload: an instance has failed; nothing to carry"});
        return false;
    }
    if (from.gpu->device != to.gpu->device) {
        diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                               "GPU hot reload: the instances run on different devices"});
        return false;
    }
    std::vector<CarryRange> ranges;
    for (uint32_t e = 0; e < old_emitter.size(); ++e) {
        if (old_emitter[e] < 0) continue;
        const auto o = static_cast<uint32_t>(old_emitter[e]);
        const std::string difference = regionDifference(from, o, to, e);
        if (!difference.empty()) {
            diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                                   "GPU hot reload: emitter " + std::to_string(e) +
                                       " differs from the old emitter " + std::to_string(o) +
                                       " in its " + difference});
            return false;
        }
        listRanges(from, o, to, e, ranges);
    }
    // The old instance's steps in flight write what is about to be read.
    if (!waitForStatistics(from)) {
        diagnostics.insert(diagnostics.end(), from.errors.begin(), from.errors.end());
        return false;
    }
    // Before the copy's submission: its counters' copy is read with this list current.
    to.list_in = from.list_in;
    continueClock(from.driver, to.driver, old_emitter);
    for (uint32_t e = 0; e < old_emitter.size(); ++e) {
        if (old_emitter[e] < 0) continue;
        continueLiveWindow(from.live_windows[static_cast<uint32_t>(old_emitter[e])],
                           to.live_windows[e]);
    }
    if (ranges.empty()) return true;
    return copyOnDevice(to, ranges, diagnostics);
}

} // namespace spindrift::gpu
