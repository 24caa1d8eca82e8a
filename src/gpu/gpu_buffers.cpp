#include "gpu/gpu_buffers.h"

#include <algorithm>
#include <cstring>

#include "gpu/gameplay_capture.h"
#include "gpu/ordered_list.h"
#include "gpu/ribbon_strips.h"
#include "gpu/shader/gpu_sim.h"
#include "gpu/sub_emitters.h"

namespace spindrift::gpu {

namespace {

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

uint64_t roundUp16(uint64_t bytes) {
    return (bytes + 15) / 16 * 16;
}

uvec2 split(VkDeviceAddress address) {
    return uvec2(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32));
}

uvec4 pair(VkDeviceAddress a, VkDeviceAddress b) {
    return uvec4(split(a), split(b));
}

// Byte offsets of the parts of the records buffer; each part at least 16 bytes so every
// address is valid even for an empty array.
struct RecordsLayout {
    uint64_t tables = 0, emitters = 0, ops = 0, lut = 0, mesh_points = 0, pools = 0, columns = 0,
             chunks = 0, trails = 0, sub_emitters = 0, emitter_events = 0, bytes = 0;
};

template <typename T> uint64_t bytesOf(const std::vector<T>& v) {
    return std::max<uint64_t>(roundUp16(v.size() * sizeof(T)), 16);
}

RecordsLayout recordsLayout(const CompiledEffect& e, const PoolLayout& pool) {
    RecordsLayout r;
    uint64_t at = 0;
    r.tables = at;
    at += sizeof(GpuTables);
    r.emitters = at;
    at += bytesOf(e.emitters);
    r.ops = at;
    at += bytesOf(e.ops);
    r.lut = at;
    at += bytesOf(e.lut);
    r.mesh_points = at;
    at += bytesOf(e.mesh_points);
    r.pools = at;
    at += std::max<uint64_t>(e.emitters.size() * sizeof(GpuEmitterPool), 16);
    r.columns = at; // two tables of kGpuColumnCount addresses per emitter (GpuEmitterPool)
    at += roundUp16(std::max<uint64_t>(e.emitters.size() * 2 * kGpuColumnCount * 8, 16));
    r.chunks = at; // one address per draw-record chunk
    at += roundUp16(std::max<uint64_t>(pool.chunk_records.size() * 8, 16));
    r.trails = at; // GpuEmitterTrails per emitter
    at += std::max<uint64_t>(e.emitters.size() * sizeof(GpuEmitterTrails), 16);
    r.sub_emitters = at;
    at += bytesOf(e.sub_emitters);
    r.emitter_events = at;
    at += bytesOf(e.emitter_events);
    r.bytes = at;
    return r;
}

// Byte offsets inside one step slot.
struct SlotLayout {
    uint64_t emitters = 0, ops = 0, fields = 0, colliders = 0, bytes = 0;
};

SlotLayout slotLayout(const CompiledEffect& e) {
    SlotLayout s;
    uint64_t at = sizeof(GpuStepHeader);
    s.emitters = at;
    at += std::max<uint64_t>(e.emitters.size() * sizeof(GpuStepEmitter), 16);
    s.ops = at;
    at += std::max<uint64_t>(e.ops.size() * sizeof(GpuResolvedOp), 16);
    s.fields = at;
    at += std::max<uint64_t>(stepForceFieldCapacity(e) * sizeof(ForceFieldRecord), 16);
    s.colliders = at;
    at += std::max<uint64_t>(stepColliderCapacity(e) * sizeof(ColliderRecord), 16);
    s.bytes = at;
    return s;
}

template <typename T> void put(unsigned char* base, uint64_t offset, const std::vector<T>& v) {
    if (!v.empty()) std::memcpy(base + offset, v.data(), v.size() * sizeof(T));
}

bool uploadRecords(GpuEffect& fx, const OrderedScratchLayout& ordered,
                   std::vector<Diagnostic>& diagnostics) {
    const CompiledEffect& e = *fx.effect;
    GpuBuffers& b = fx.buffers;
    const RecordsLayout r = recordsLayout(e, fx.layout);
    b.records = vk::createBuffer(*fx.gpu->device, r.bytes, kStorage, vk::MemoryUse::upload,
                                 "GPU effect records", diagnostics);
    if (!b.records) return false;
    auto* base = static_cast<unsigned char*>(b.records.mapped);
    std::memset(base, 0, r.bytes);
    put(base, r.emitters, e.emitters);
    put(base, r.ops, e.ops);
    put(base, r.lut, e.lut);
    put(base, r.mesh_points, e.mesh_points);
    put(base, r.sub_emitters, e.sub_emitters);
    put(base, r.emitter_events, e.emitter_events);
    const VkDeviceAddress a = b.records.address;
    // Addresses are stored as uint64 little-endian: the (low, high) words the shaders read.
    std::vector<uint64_t> columns;
    std::vector<GpuEmitterPool> pools;
    const uint64_t per_chunk = fx.layout.records_per_chunk;
    for (uint32_t i = 0; i < fx.layout.regions.size(); ++i) {
        const EmitterRegion& region = fx.layout.regions[i];
        const VkDeviceAddress table = a + r.columns + uint64_t{i} * 2 * kGpuColumnCount * 8;
        for (uint32_t list = 0; list < 2; ++list) {
            for (uint32_t column = 0; column < kGpuColumnCount; ++column) {
                const ColumnPlace& c = columnPlace(region, column, list);
                columns.push_back(b.pool[c.buffer].address + c.offset_bytes);
            }
        }
        GpuEmitterPool pool{};
        pool.columns_lo = static_cast<uint32_t>(table);
        pool.columns_hi = static_cast<uint32_t>(table >> 32);
        pool.capacity = region.capacity;
        pool.draw_chunk_records = static_cast<uint32_t>(per_chunk);
        pool.draw_chunk = static_cast<uint32_t>(region.first_draw_record / per_chunk);
        pool.draw_first_in_chunk = static_cast<uint32_t>(region.first_draw_record % per_chunk);
        if (ordered.offsets[i] != kNoOrderedScratch) {
            const VkDeviceAddress scratch = b.ordered.address + ordered.offsets[i];
            pool.ordered_lo = static_cast<uint32_t>(scratch);
            pool.ordered_hi = static_cast<uint32_t>(scratch >> 32);
        }
        pools.push_back(pool);
    }
    std::vector<uint64_t> chunks;
    for (const vk::Buffer& chunk : b.draw_record_chunks) chunks.push_back(chunk.address);
    put(base, r.columns, columns);
    put(base, r.chunks, chunks);
    put(base, r.pools, pools);
    std::vector<GpuEmitterTrails> trails;
    for (uint32_t i = 0; i < fx.trail_layout.size(); ++i) {
        trails.push_back(
            trailRecord(fx.trail_layout[i], b.trails[i], b.trail_gather[i], b.strips[i]));
    }
    put(base, r.trails, trails);
    GpuTables tables{};
    tables.emitters_ops = pair(a + r.emitters, a + r.ops);
    tables.lut_mesh_points = pair(a + r.lut, a + r.mesh_points);
    tables.pools_counters = pair(a + r.pools, b.counters.address);
    tables.draw_records = pair(a + r.chunks, 0);
    tables.trails = pair(a + r.trails, 0);
    tables.sub_emitters = pair(a + r.sub_emitters, b.counters.address + eventCountersOffset(e));
    tables.event_queue = pair(b.events ? b.events.address : 0, 0);
    uint32_t gameplay[4];
    gameplayTables(fx, gameplay);
    tables.gameplay = uvec4(gameplay[0], gameplay[1], gameplay[2], gameplay[3]);
    tables.emitter_events = pair(e.emitter_events.empty() ? 0 : a + r.emitter_events, 0);
    std::memcpy(base + r.tables, &tables, sizeof(tables));
    b.tables_address = a + r.tables;
    b.draw_chunk_table = a + r.chunks;
    return true;
}

} // namespace

PoolLimits devicePoolLimits(const vk::Device& device, uint64_t max_buffer_bytes,
                            uint64_t max_total_bytes) {
    VkPhysicalDeviceVulkan13Properties p13{};
    p13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
    VkPhysicalDeviceVulkan11Properties p11{};
    p11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES;
    p11.pNext = &p13;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &p11;
    vkGetPhysicalDeviceProperties2(device.physical(), &properties);
    PoolLimits limits;
    limits.buffer_bytes = std::min(
        {max_buffer_bytes, uint64_t{p11.maxMemoryAllocationSize}, uint64_t{p13.maxBufferSize}});
    uint64_t heap = 0;
    const VkPhysicalDeviceMemoryProperties& memory = device.memory();
    for (uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
        if ((memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0) {
            heap = std::max<uint64_t>(heap, memory.memoryHeaps[h].size);
        }
    }
    limits.total_bytes = max_total_bytes != 0 ? max_total_bytes : heap;
    return limits;
}

bool createGpuBuffers(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    const CompiledEffect& e = *fx.effect;
    GpuBuffers& b = fx.buffers;
    const vk::Device& device = *fx.gpu->device;
    for (const uint64_t bytes : fx.layout.buffer_bytes) {
        // Copyable both ways: tests and tools read a column back, and a hot reload copies the
        // particles of the old version's pool into this one (state_carry.h).
        b.pool.push_back(vk::createBuffer(
            device, bytes,
            kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            vk::MemoryUse::device_local, "GPU particle pool", diagnostics));
        if (!b.pool.back()) return false;
    }
    const uint64_t counter_bytes =
        eventCountersOffset(e) +
        std::max<uint64_t>(e.emitters.size(), 1) * sizeof(GpuEventCounters);
    b.counters = vk::createBuffer(device, counter_bytes,
                                  kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  vk::MemoryUse::device_local, "GPU counters", diagnostics);
    if (!b.counters) return false;
    // One copy of the counters per submission in flight (asynchronous statistics).
    b.counters_readback = vk::createBuffer(
        device, counter_bytes * kGpuSubmissionsInFlight, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        vk::MemoryUse::readback, "GPU counters readback", diagnostics);
    if (!b.counters_readback) return false;
    std::memset(b.counters_readback.mapped, 0, counter_bytes * kGpuSubmissionsInFlight);
    for (const uint64_t records : fx.layout.chunk_records) {
        b.draw_record_chunks.push_back(vk::createBuffer(
            device, records * sizeof(DrawRecord), kStorage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
            vk::MemoryUse::device_local, "GPU draw records", diagnostics));
        if (!b.draw_record_chunks.back()) return false;
    }
    if (!createEventQueue(fx, diagnostics)) return false;
    if (!createGameplayCapture(fx, diagnostics)) return false;
    const OrderedScratchLayout ordered = orderedScratchLayout(e);
    if (ordered.bytes != 0) {
        b.ordered = vk::createBuffer(device, ordered.bytes, kStorage, vk::MemoryUse::device_local,
                                     "GPU ordered compaction scratch", diagnostics);
        if (!b.ordered) return false;
    }
    b.step_slot_bytes = slotLayout(e).bytes;
    b.step_slots = std::max(fx.config.driver.max_steps_per_frame, 1u) + 1;
    // Each submission in flight has its own slots: the host writes the next submission's while
    // the device still reads the previous one's.
    b.steps = vk::createBuffer(device, b.step_slot_bytes * b.step_slots * kGpuSubmissionsInFlight,
                               kStorage, vk::MemoryUse::upload, "GPU step uniforms", diagnostics);
    if (!b.steps) return false;
    if (!createTrailBuffers(device, fx.trail_layout, b.trails, b.trail_gather, b.strips,
                            diagnostics) ||
        !createBeamFrames(fx, diagnostics)) {
        return false;
    }
    return uploadRecords(fx, ordered, diagnostics);
}

bool replaceRecords(GpuEffect& fx, std::shared_ptr<const CompiledEffect> effect,
                    std::vector<Diagnostic>& diagnostics) {
    if (!fx.gpu->runner->waitAll(diagnostics)) return false;
    fx.effect = std::move(effect);
    const RecordsLayout r = recordsLayout(*fx.effect, fx.layout);
    auto* base = static_cast<unsigned char*>(fx.buffers.records.mapped);
    put(base, r.emitters, fx.effect->emitters);
    put(base, r.ops, fx.effect->ops);
    return true;
}

VkDeviceAddress drawRecordAddress(const GpuBuffers& buffers, const DrawRecordRange& range) {
    return buffers.draw_record_chunks[range.chunk].address +
           drawRecordOffsetBytes(range.first_in_chunk);
}

VkDeviceAddress stepSlotAddress(const GpuBuffers& buffers, uint32_t slot) {
    return buffers.steps.address + buffers.step_slot_bytes * slot;
}

void writeStepSlot(const GpuEffect& fx, uint32_t slot, const Rows3x4& world_from_effect) {
    const CompiledEffect& e = *fx.effect;
    const GpuBuffers& b = fx.buffers;
    const SlotLayout s = slotLayout(e);
    auto* base = static_cast<unsigned char*>(b.steps.mapped) + b.step_slot_bytes * slot;
    const VkDeviceAddress a = stepSlotAddress(b, slot);

    GpuStepHeader header{};
    header.emitters_ops = pair(a + s.emitters, a + s.ops);
    header.force_fields_colliders = pair(a + s.fields, a + s.colliders);
    const Rows3x4 world_from_sim = worldFromSim(world_from_effect, e.effect.space);
    header.world_from_sim0 = world_from_sim.rows[0];
    header.world_from_sim1 = world_from_sim.rows[1];
    header.world_from_sim2 = world_from_sim.rows[2];
    std::memcpy(base, &header, sizeof(header));

    for (uint32_t i = 0; i < e.emitters.size(); ++i) {
        const EmitterStep& step = fx.scratch.emitters[i];
        const EmitterSpawn& spawn = fx.plan.emitters[i];
        GpuStepEmitter g{};
        g.emitter_start0 = step.emitter_start[0];
        g.emitter_start1 = step.emitter_start[1];
        g.emitter_start2 = step.emitter_start[2];
        g.emitter_end0 = step.emitter_end[0];
        g.emitter_end1 = step.emitter_end[1];
        g.emitter_end2 = step.emitter_end[2];
        g.dt = step.dt;
        g.time_s = step.time_s;
        g.op_first = step.op_first;
        g.op_count = step.op_count;
        g.flags = (step.spins ? kGpuStepSpins : 0u) | (step.uses_flags ? kGpuStepUsesFlags : 0u) |
                  (gpuKeepsBirthOrder(e, i) ? kGpuStepKeepsBirthOrder : 0u) |
                  (fx.layout.regions[i].relocates ? kGpuStepRelocates : 0u) |
                  (hasThresholdLinks(e, i) ? kGpuStepThresholdLinks : 0u);
        g.birth_count = spawn.count;
        g.first_ordinal_lo = static_cast<uint32_t>(spawn.first_ordinal);
        g.first_ordinal_hi = static_cast<uint32_t>(spawn.first_ordinal >> 32);
        g.planned_dropped_lo = static_cast<uint32_t>(spawn.dropped);
        g.planned_dropped_hi = static_cast<uint32_t>(spawn.dropped >> 32);
        g.seed = e.effect.seed;
        g.step_index_lo = static_cast<uint32_t>(fx.plan.step_index);
        std::memcpy(base + s.emitters + i * sizeof(g), &g, sizeof(g));
    }
    for (size_t k = 0; k < fx.scratch.ops.size(); ++k) {
        const ResolvedOp& r = fx.scratch.ops[k];
        GpuResolvedOp g{};
        g.op = r.op;
        g.vector_factor = vec4(r.vector, r.factor);
        std::memcpy(base + s.ops + k * sizeof(g), &g, sizeof(g));
    }
    put(base, s.fields, fx.scratch.force_fields);
    put(base, s.colliders, fx.scratch.colliders);
}

} // namespace spindrift::gpu
