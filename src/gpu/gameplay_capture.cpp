#include "gpu/gameplay_capture.h"

#include <algorithm>
#include <cstring>

#include "gpu/gpu_effect.h"
#include "gpu/shader/gpu_sim.h"
#include "vulkan/commands.h"

namespace spindrift::gpu {

namespace {

constexpr uint64_t kHeaderBytes = sizeof(GpuGameplayHeader);

// Events one submission can produce at most, within kGpuMaxGameplayEvents: per step, each
// reporting emitter's capacity once per kind it reports (a collision once per collision op).
uint32_t capacityOf(const GpuEffect& fx) {
    const CompiledEffect& e = *fx.effect;
    if (e.emitter_events.empty()) return 0;
    uint64_t per_step = 0;
    for (uint32_t i = 0; i < e.emitters.size(); ++i) {
        const uint32_t kinds = e.emitter_events[i].kinds;
        if (kinds == 0) continue;
        uint32_t collision_ops = 0;
        for (uint32_t k = 0; k < e.emitters[i].op_count; ++k)
            collision_ops += e.ops[e.emitters[i].op_first + k].op == kOpCollision ? 1u : 0u;
        uint64_t per_particle = 0;
        for (uint32_t kind = 0; kind < kEventCount; ++kind) {
            if ((kinds & (1u << kind)) == 0) continue;
            per_particle += kind == kEventCollision ? collision_ops : 1u;
        }
        per_step += uint64_t{e.emitters[i].capacity} * per_particle;
    }
    if (per_step == 0) return 0;
    const uint64_t steps = std::max(fx.config.driver.max_steps_per_frame, 1u);
    return static_cast<uint32_t>(std::clamp<uint64_t>(per_step * steps, 16, kGpuMaxGameplayEvents));
}

uint64_t entryBytes(const GpuEffect& fx) {
    return kHeaderBytes + uint64_t{fx.gameplay.capacity} * sizeof(GpuGameplayEvent);
}

} // namespace

bool createGameplayCapture(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    GpuGameplayState& g = fx.gameplay;
    g.capacity = capacityOf(fx);
    if (g.capacity == 0) return true;
    const vk::Device& device = *fx.gpu->device;
    const uint64_t bytes = entryBytes(fx);
    fx.buffers.gameplay = vk::createBuffer(
        device, bytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        vk::MemoryUse::device_local, "GPU gameplay events", diagnostics);
    if (!fx.buffers.gameplay) return false;
    fx.buffers.gameplay_readback =
        vk::createBuffer(device, bytes * kGpuSubmissionsInFlight, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "GPU gameplay events readback", diagnostics);
    if (!fx.buffers.gameplay_readback) return false;
    std::memset(fx.buffers.gameplay_readback.mapped, 0, bytes * kGpuSubmissionsInFlight);
    g.sequence.assign(kGpuSubmissionsInFlight, 0);
    g.first_step.assign(kGpuSubmissionsInFlight, 0);
    g.frame.assign(kGpuSubmissionsInFlight, 0);
    // Room for every entry in flight, so taking never allocates.
    g.events.reserve(size_t{g.capacity} * kGpuSubmissionsInFlight);
    g.event_frames.reserve(g.events.capacity());
    // The device buffer starts empty: zeroed by the first submission (resetPool's).
    return true;
}

void gameplayTables(const GpuEffect& fx, uint32_t out[4]) {
    const VkDeviceAddress a = fx.gameplay.capacity == 0 ? 0 : fx.buffers.gameplay.address;
    out[0] = static_cast<uint32_t>(a);
    out[1] = static_cast<uint32_t>(a >> 32);
    out[2] = fx.gameplay.capacity;
    out[3] = 0;
}

void copyGameplayEvents(GpuEffect& fx, VkCommandBuffer cmd, uint32_t entry) {
    GpuGameplayState& g = fx.gameplay;
    if (g.capacity == 0) return;
    const uint64_t bytes = entryBytes(fx);
    const VkBufferCopy region{0, bytes * entry, bytes};
    vkCmdCopyBuffer(cmd, fx.buffers.gameplay.get(), fx.buffers.gameplay_readback.get(), 1, &region);
    // The next submission appends from 0: the header's count and drops are cleared after the
    // copy has read them (the next submission's leading barrier orders the clear before it).
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                      VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, fx.buffers.gameplay.get(), 0, kHeaderBytes, 0);
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    g.sequence[entry] = fx.last_sequence + 1; // endSubmission numbers it next
    g.first_step[entry] = g.frame_step;
    g.frame[entry] = g.frames;
    g.frame_step = fx.driver.step_index;
}

void takeGameplayEntry(GpuEffect& fx, uint32_t entry) {
    GpuGameplayState& g = fx.gameplay;
    if (g.capacity == 0 || g.sequence[entry] == 0) return;
    g.sequence[entry] = 0;
    const auto* base = static_cast<const unsigned char*>(fx.buffers.gameplay_readback.mapped) +
                       entryBytes(fx) * entry;
    GpuGameplayHeader header;
    std::memcpy(&header, base, sizeof(header));
    const uint32_t count = std::min(header.count, g.capacity);
    g.dropped += header.dropped;
    const auto* events = reinterpret_cast<const GpuGameplayEvent*>(base + kHeaderBytes);
    const size_t from = g.events.size();
    const uint64_t first = g.first_step[entry];
    for (uint32_t i = 0; i < count; ++i) {
        const GpuGameplayEvent& d = events[i];
        if (g.events.size() == g.events.capacity()) {
            g.dropped += count - i;
            break;
        }
        GameplayEventRecord r;
        // The low word of the step, within the 2^32 steps after the submission's first.
        r.step = first + static_cast<uint32_t>(d.step_lo - static_cast<uint32_t>(first));
        r.emitter = d.emitter;
        r.kind = d.kind;
        r.key = d.key;
        r.detail = d.detail;
        r.position = vec3(d.position);
        r.velocity = vec3(d.velocity);
        r.normal = vec3(d.normal);
        g.events.push_back(r);
    }
    g.dropped += keepFirstPerStep(*fx.effect, g.events, from);
    g.event_frames.resize(g.events.size(), g.frame[entry]); // within the reserve: no allocation
}

void discardGameplayEvents(GpuEffect& fx) {
    GpuGameplayState& g = fx.gameplay;
    std::fill(g.sequence.begin(), g.sequence.end(), 0);
    g.events.clear();
    g.event_frames.clear();
    g.dropped = 0;
    g.frame_step = fx.driver.step_index;
}

void setGameplayFrame(GpuEffect& fx, uint64_t frame) {
    fx.gameplay.frames = frame;
    fx.gameplay.host_clock = true;
}

bool gameplayPending(const GpuEffect& fx) {
    const GpuGameplayState& g = fx.gameplay;
    if (!g.events.empty() || g.dropped != 0) return true;
    return std::any_of(g.sequence.begin(), g.sequence.end(), [](uint64_t s) { return s != 0; });
}

uint64_t takeGpuGameplayEvents(GpuEffect& fx, std::vector<GameplayEventRecord>& out,
                               uint32_t& latency_frames) {
    GpuGameplayState& g = fx.gameplay;
    latency_frames = 0;
    for (size_t i = 0; i < g.events.size(); ++i) {
        GameplayEventRecord r = g.events[i];
        r.latency_frames = static_cast<uint32_t>(g.frames - g.event_frames[i]);
        latency_frames = std::max(latency_frames, r.latency_frames);
        out.push_back(r);
    }
    g.events.clear();
    g.event_frames.clear();
    const uint64_t dropped = g.dropped;
    g.dropped = 0;
    return dropped;
}

} // namespace spindrift::gpu
