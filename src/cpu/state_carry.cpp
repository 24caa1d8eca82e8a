#include "cpu/state_carry.h"

#include <array>
#include <cassert>
#include <cstring>

namespace spindrift::cpu {

namespace {

// Every state column of a pool, in forEachColumn's order.
struct ColumnList {
    std::array<void*, 32> data{};
    std::array<size_t, 32> element_bytes{};
    uint32_t count = 0;
};

ColumnList columnsOf(ParticlePool& pool) {
    ColumnList list;
    forEachColumn(pool, [&](void* data, size_t element_bytes) {
        assert(list.count < list.data.size());
        list.data[list.count] = data;
        list.element_bytes[list.count] = element_bytes;
        ++list.count;
    });
    return list;
}

void copyParticles(ParticlePool& from, ParticlePool& to) {
    assert(from.capacity == to.capacity && to.count == 0);
    const ColumnList a = columnsOf(from);
    const ColumnList b = columnsOf(to);
    for (uint32_t c = 0; c < a.count; ++c) {
        std::memcpy(b.data[c], a.data[c], size_t{from.count} * a.element_bytes[c]);
    }
    to.count = from.count;
}

// The rings of the live slots [0, live): a slot's ring is its own (trail_store.h), so the
// copy keeps every trail with its particle.
void copyTrails(const TrailStore& from, TrailStore& to, uint32_t live) {
    assert(from.max_points == to.max_points);
    if (!hasTrails(from) || live == 0) return;
    std::memcpy(to.points.get(), from.points.get(),
                size_t{live} * from.max_points * sizeof(TrailPoint));
    std::memcpy(to.first.get(), from.first.get(), size_t{live} * sizeof(uint32_t));
    std::memcpy(to.count.get(), from.count.get(), size_t{live} * sizeof(uint32_t));
}

} // namespace

void carryCpuState(CpuEffect& from, CpuEffect& to, std::span<const int32_t> old_emitter) {
    assert(old_emitter.size() == to.pools.size());
    continueClock(from.driver, to.driver, old_emitter);
    for (uint32_t e = 0; e < to.pools.size(); ++e) {
        if (old_emitter[e] < 0) continue;
        const auto o = static_cast<uint32_t>(old_emitter[e]);
        copyParticles(from.pools[o], to.pools[e]);
        copyTrails(from.trails[o], to.trails[e], to.pools[e].count);
        to.stats[e] = from.stats[o];
    }
}

} // namespace spindrift::cpu
