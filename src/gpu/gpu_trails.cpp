#include "gpu/gpu_trails.h"

#include <algorithm>
#include <string>

#include "compiler/trail_limits.h"
#include "kernels/ribbon.h"
#include "kernels/strip.h"

namespace spindrift::gpu {

namespace {

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

// Bytes of one recorded point: x, y, z floats, as the CPU's TrailPoint.
constexpr uint64_t kTrailPointBytes = 12;

uint64_t alignColumn(uint64_t bytes) {
    return (bytes + kGpuColumnAlignBytes - 1) / kGpuColumnAlignBytes * kGpuColumnAlignBytes;
}

// The device strip buffer: capacity blocks of block_points StripPoints, then a count per block.
void addDeviceStrips(TrailRegion& r, uint32_t capacity, uint32_t block_points) {
    r.capacity = capacity;
    r.strip_block_points = block_points;
    r.strip_counts_offset_bytes =
        alignColumn(uint64_t{capacity} * block_points * sizeof(StripPoint));
    r.strips_bytes = r.strip_counts_offset_bytes + uint64_t{capacity} * sizeof(uint32_t);
}

TrailRegion regionFor(const EmitterRecord& e, bool device_strips) {
    TrailRegion r;
    // A beam has no trails: every point is derived from the curve each frame (kernels/beam.h).
    if (e.render_type == kRenderBeam && device_strips) {
        addDeviceStrips(r, e.capacity, std::max(e.beam_segments, 1u) + 1);
    }
    if (e.render_type != kRenderRibbon) return r;
    r.capacity = e.capacity;
    r.max_points = e.ribbon_max_points;
    r.min_sample_distance_m = e.ribbon_min_sample_distance;
    const uint64_t points = uint64_t{e.capacity} * e.ribbon_max_points;
    r.rings_offset_bytes = alignColumn(points * kTrailPointBytes);
    r.buffer_bytes = r.rings_offset_bytes + uint64_t{e.capacity} * sizeof(uvec2);
    r.gather_bytes = uint64_t{e.capacity} * sizeof(GpuTrailHead) + points * kTrailPointBytes;
    if (device_strips) addDeviceStrips(r, e.capacity, e.ribbon_max_points + 1);
    return r;
}

Diagnostic emitterError(const CompiledEffect& effect, uint32_t e, std::string message) {
    const EmitterRecord& r = effect.emitters[e];
    const bool beam = r.render_type == kRenderBeam;
    Diagnostic d;
    d.path = "$.emitters[" + std::to_string(r.source_index) + "].render." +
             (beam ? "segments" : "max_points");
    d.message = "emitter '" + std::string(stringAt(effect, r.name_offset, r.name_length)) +
                "' (capacity " + std::to_string(r.capacity) +
                (beam ? ", segments " + std::to_string(r.beam_segments)
                      : ", max_points " + std::to_string(r.ribbon_max_points)) +
                "): " + std::move(message);
    return d;
}

} // namespace

bool layoutTrails(const CompiledEffect& effect, const PoolLimits& limits, uint64_t pool_bytes,
                  bool device_strips, std::vector<TrailRegion>& out,
                  std::vector<Diagnostic>& diagnostics) {
    // The CPU backend's limit and words: kMaxTrailPoints keeps every index below 2^32 here too.
    if (!checkTrailLimits(effect, diagnostics, "the GPU backend's")) return false;
    out.clear();
    uint64_t total = pool_bytes;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        out.push_back(regionFor(effect.emitters[e], device_strips));
        const TrailRegion& r = out.back();
        const uint64_t largest = std::max(r.buffer_bytes, r.strips_bytes);
        // Within the buffer limit (< 2^32 bytes) every strip point index fits 32 bits.
        if (largest > limits.buffer_bytes) {
            const bool beam = effect.emitters[e].render_type == kRenderBeam;
            const char* what = r.strips_bytes <= r.buffer_bytes ? "its ribbon trails"
                               : beam                           ? "its device beam strips"
                                                                : "its device ribbon strips";
            diagnostics.push_back(emitterError(
                effect, e,
                std::string(what) + " would need a buffer of " + std::to_string(largest) +
                    " bytes, past the GPU backend's buffer limit of " +
                    std::to_string(limits.buffer_bytes) + " bytes; lower capacity or " +
                    (beam ? "segments" : "max_points")));
            return false;
        }
        total += r.buffer_bytes + r.strips_bytes;
        if (total > limits.total_bytes) {
            diagnostics.push_back(emitterError(
                effect, e,
                "the GPU backend would need " + std::to_string(total) +
                    " bytes of device memory (pool, draw records, trails and strips) by this "
                    "emitter, past the limit of " +
                    std::to_string(limits.total_bytes) + " bytes; lower the capacities"));
            return false;
        }
    }
    return true;
}

bool createTrailBuffers(const vk::Device& device, const std::vector<TrailRegion>& regions,
                        std::vector<vk::Buffer>& trails, std::vector<vk::Buffer>& gather,
                        std::vector<vk::Buffer>& strips, std::vector<Diagnostic>& diagnostics) {
    trails.clear();
    gather.clear();
    strips.clear();
    trails.resize(regions.size());
    gather.resize(regions.size());
    strips.resize(regions.size());
    for (size_t e = 0; e < regions.size(); ++e) {
        if (hasDeviceStrips(regions[e])) {
            // Read by the renderer's strip vertex shader; tests copy it out.
            strips[e] = vk::createBuffer(
                device, regions[e].strips_bytes, kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                vk::MemoryUse::device_local, "GPU device strips", diagnostics);
            if (!strips[e]) return false;
        }
        if (!hasTrails(regions[e])) continue;
        // Copyable both ways: a hot reload carries the trails into the new version's buffer
        // (state_carry.h).
        trails[e] = vk::createBuffer(device, regions[e].buffer_bytes,
                                     kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                     vk::MemoryUse::device_local, "GPU ribbon trails", diagnostics);
        if (!trails[e]) return false;
        // Host-visible: the gather pass writes what the host reads, with no copy in between.
        gather[e] =
            vk::createBuffer(device, regions[e].gather_bytes, kStorage, vk::MemoryUse::readback,
                             "GPU ribbon trails readback", diagnostics);
        if (!gather[e]) return false;
    }
    return true;
}

GpuEmitterTrails trailRecord(const TrailRegion& region, const vk::Buffer& trail,
                             const vk::Buffer& gather, const vk::Buffer& strips) {
    GpuEmitterTrails t{};
    if (strips) {
        const VkDeviceAddress counts = strips.address + region.strip_counts_offset_bytes;
        t.strips_lo = static_cast<uint32_t>(strips.address);
        t.strips_hi = static_cast<uint32_t>(strips.address >> 32);
        t.strip_counts_lo = static_cast<uint32_t>(counts);
        t.strip_counts_hi = static_cast<uint32_t>(counts >> 32);
    }
    if (!hasTrails(region)) return t;
    const VkDeviceAddress points = trail.address;
    const VkDeviceAddress rings = trail.address + region.rings_offset_bytes;
    t.points_lo = static_cast<uint32_t>(points);
    t.points_hi = static_cast<uint32_t>(points >> 32);
    t.rings_lo = static_cast<uint32_t>(rings);
    t.rings_hi = static_cast<uint32_t>(rings >> 32);
    t.gather_lo = static_cast<uint32_t>(gather.address);
    t.gather_hi = static_cast<uint32_t>(gather.address >> 32);
    t.max_points = region.max_points;
    t.min_sample_distance_m = region.min_sample_distance_m;
    return t;
}

} // namespace spindrift::gpu
