#include "cpu/snapshot.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "compiler/structural_hash.h"

namespace spindrift::cpu {

namespace {

constexpr char kSnapshotMagic[8] = {'S', 'D', 'S', 'N', 'A', 'P', '\0', '\1'};
// 2: each ribbon emitter's particle section is followed by its trails.
constexpr uint32_t kSnapshotVersion = 2;

struct SnapshotHeader {
    char magic[8];
    uint32_t version;
    uint32_t emitter_count;
    uint64_t effect_identity;
    uint64_t driver_bytes;
    uint64_t stats_bytes;
};
static_assert(sizeof(SnapshotHeader) == 40);

class Writer {
public:
    explicit Writer(std::vector<uint8_t>& out) : out_(out) {}
    void bytes(const void* data, size_t size) {
        const auto* p = static_cast<const uint8_t*>(data);
        out_.insert(out_.end(), p, p + size);
    }
    template <typename T> void value(const T& v) { bytes(&v, sizeof(T)); }

private:
    std::vector<uint8_t>& out_;
};

class Reader {
public:
    explicit Reader(std::span<const uint8_t> in) : in_(in) {}
    bool bytes(void* data, size_t size) {
        if (size > in_.size() - at_) return false;
        if (size == 0) return true; // an empty span's data() may be null, which memcpy forbids
        std::memcpy(data, in_.data() + at_, size);
        at_ += size;
        return true;
    }
    template <typename T> bool value(T& v) { return bytes(&v, sizeof(T)); }
    bool skip(uint64_t size) {
        if (size > in_.size() - at_) return false;
        at_ += static_cast<size_t>(size);
        return true;
    }
    size_t remaining() const { return in_.size() - at_; }

private:
    std::span<const uint8_t> in_;
    size_t at_ = 0;
};

// Bytes of one live particle's trail: its point count, then the points oldest to newest.
uint64_t trailBytes(const TrailStore& trails, uint32_t slot) {
    return sizeof(uint32_t) + uint64_t{trails.count[slot]} * sizeof(TrailPoint);
}

void writeTrails(Writer& w, const TrailStore& trails, uint32_t live) {
    for (uint32_t slot = 0; slot < live; ++slot) {
        w.value(trails.count[slot]);
        forEachTrailRun(trails, slot, [&](const TrailPoint* run, uint32_t run_count) {
            w.bytes(run, run_count * sizeof(TrailPoint));
        });
    }
}

// Checks the trail section of live particles without storing anything.
bool probeTrails(Reader& r, const TrailStore& trails, uint32_t live) {
    for (uint32_t slot = 0; slot < live; ++slot) {
        uint32_t count = 0;
        if (!r.value(count) || count == 0 || count > trails.max_points ||
            !r.skip(uint64_t{count} * sizeof(TrailPoint))) {
            return false;
        }
    }
    return true;
}

// Reads a section probeTrails accepted; each ring starts at entry 0 (only the order of the
// points is state, not where the ring put them).
void readTrails(Reader& r, TrailStore& trails, uint32_t live) {
    for (uint32_t slot = 0; slot < live; ++slot) {
        r.value(trails.count[slot]);
        trails.first[slot] = 0;
        r.bytes(trails.points.get() + static_cast<size_t>(slot) * trails.max_points,
                trails.count[slot] * sizeof(TrailPoint));
    }
}

} // namespace

std::vector<uint8_t> snapshotState(const CpuEffect& fx) {
    std::vector<uint8_t> out;
    uint64_t particle_bytes = 0;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const ParticlePool& pool = fx.pools[e];
        particle_bytes += 4 + pool.count * kParticleStateBytes;
        if (!hasTrails(fx.trails[e])) continue;
        for (uint32_t slot = 0; slot < pool.count; ++slot)
            particle_bytes += trailBytes(fx.trails[e], slot);
    }
    out.reserve(sizeof(SnapshotHeader) + sizeof(DriverState) + particle_bytes + 1024);
    Writer w(out);
    SnapshotHeader header{};
    std::memcpy(header.magic, kSnapshotMagic, sizeof(kSnapshotMagic));
    header.version = kSnapshotVersion;
    header.emitter_count = static_cast<uint32_t>(fx.pools.size());
    header.effect_identity = fx.effect_identity;
    header.driver_bytes = sizeof(DriverState);
    header.stats_bytes = sizeof(EmitterStats);
    w.value(header);
    w.value(fx.driver);
    for (const EmitterStats& s : fx.stats) w.value(s);
    w.value(fx.world_from_effect);
    w.value(fx.next_world_from_effect);
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const ParticlePool& pool = fx.pools[e];
        w.value(pool.count);
        forEachColumn(const_cast<ParticlePool&>(pool), [&](const void* column, size_t element) {
            w.bytes(column, pool.count * element);
        });
        if (hasTrails(fx.trails[e])) writeTrails(w, fx.trails[e], pool.count);
    }
    return out;
}

bool restoreState(CpuEffect& fx, std::span<const uint8_t> bytes, std::string& error) {
    Reader r(bytes);
    SnapshotHeader header{};
    if (!r.value(header) ||
        std::memcmp(header.magic, kSnapshotMagic, sizeof(kSnapshotMagic)) != 0) {
        error = "not a Spindrift CPU snapshot (bad magic or too short)";
        return false;
    }
    if (header.version != kSnapshotVersion || header.driver_bytes != sizeof(DriverState) ||
        header.stats_bytes != sizeof(EmitterStats)) {
        error =
            "snapshot version " + std::to_string(header.version) + " was written by another build";
        return false;
    }
    if (header.effect_identity != fx.effect_identity || header.emitter_count != fx.pools.size()) {
        error = "snapshot belongs to a different compiled effect";
        return false;
    }
    // Read into locals first so a bad snapshot leaves fx untouched.
    DriverState driver;
    std::vector<EmitterStats> stats(fx.stats.size());
    Rows3x4 world_from_effect, next_world_from_effect;
    bool ok = r.value(driver);
    for (EmitterStats& s : stats) ok = ok && r.value(s);
    ok = ok && r.value(world_from_effect) && r.value(next_world_from_effect);
    if (!ok) {
        error = "snapshot is truncated";
        return false;
    }
    // Particle sections: check every count and length before copying anything.
    Reader probe = r;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const ParticlePool& pool = fx.pools[e];
        uint32_t count = 0;
        if (!probe.value(count) || count > pool.capacity ||
            !probe.skip(static_cast<uint64_t>(count) * kParticleStateBytes)) {
            error = "snapshot particle section is truncated or exceeds the emitter's capacity";
            return false;
        }
        if (hasTrails(fx.trails[e]) && !probeTrails(probe, fx.trails[e], count)) {
            error = "snapshot trail section of emitter " + std::to_string(e) +
                    " is truncated or has a point count outside 1.." +
                    std::to_string(fx.trails[e].max_points);
            return false;
        }
    }
    if (probe.remaining() != 0) {
        error = "snapshot has " + std::to_string(probe.remaining()) + " trailing bytes";
        return false;
    }
    fx.driver = driver;
    fx.stats = std::move(stats);
    fx.world_from_effect = world_from_effect;
    fx.next_world_from_effect = next_world_from_effect;
    fx.step_start = world_from_effect;
    fx.step_end = world_from_effect;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        ParticlePool& pool = fx.pools[e];
        r.value(pool.count);
        forEachColumn(pool,
                      [&](void* column, size_t element) { r.bytes(column, pool.count * element); });
        if (hasTrails(fx.trails[e])) readTrails(r, fx.trails[e], pool.count);
    }
    return true;
}

uint64_t stateHash(const CpuEffect& fx) {
    uint64_t h = fnv1a64(&fx.driver, sizeof(DriverState));
    for (const EmitterStats& s : fx.stats) h = fnv1a64(&s, sizeof(s), h);
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const ParticlePool& pool = fx.pools[e];
        h = fnv1a64(&pool.count, sizeof(pool.count), h);
        forEachColumn(const_cast<ParticlePool&>(pool), [&](const void* column, size_t element) {
            h = fnv1a64(column, pool.count * element, h);
        });
        const TrailStore& trails = fx.trails[e];
        if (!hasTrails(trails)) continue;
        // In order, oldest to newest: where the ring keeps them is not state (restore rebases it).
        for (uint32_t slot = 0; slot < pool.count; ++slot) {
            h = fnv1a64(&trails.count[slot], sizeof(uint32_t), h);
            forEachTrailRun(trails, slot, [&](const TrailPoint* run, uint32_t run_count) {
                h = fnv1a64(run, run_count * sizeof(TrailPoint), h);
            });
        }
    }
    return h;
}

void SeekCache::record(const CpuEffect& fx) {
    const uint64_t step = fx.driver.step_index;
    if (step % config_.checkpoint_interval_steps != 0) return;
    if (!checkpoints_.empty() && checkpoints_.back().step >= step) return;
    if (checkpoints_.size() >= config_.max_checkpoints) {
        // Thin out: keep every other checkpoint, so coverage stays even over the whole run.
        size_t kept = 0;
        for (size_t i = 0; i < checkpoints_.size(); i += 2)
            checkpoints_[kept++] = std::move(checkpoints_[i]);
        checkpoints_.resize(kept);
    }
    checkpoints_.push_back({step, snapshotState(fx)});
}

SeekResult SeekCache::seek(CpuEffect& fx, double time_s) {
    SeekResult result;
    const double dt = fx.effect->effect.fixed_timestep_s;
    result.target_step = static_cast<uint64_t>(std::ceil(std::max(time_s, 0.0) / dt - 1e-9));
    // The latest checkpoint at or before the target, or a restart from zero.
    const Checkpoint* best = nullptr;
    for (const Checkpoint& c : checkpoints_) {
        if (c.step <= result.target_step) best = &c;
    }
    const bool ahead_is_usable = fx.driver.step_index <= result.target_step &&
                                 (best == nullptr || fx.driver.step_index >= best->step);
    if (!ahead_is_usable) {
        std::string error;
        if (best != nullptr) {
            restoreState(fx, best->bytes, error);
        } else {
            restart(fx);
            fx.stats.assign(fx.stats.size(), EmitterStats{});
        }
    }
    while (fx.driver.step_index < result.target_step) {
        if (result.replayed_steps >= config_.replay_budget_steps) {
            result.limited = true;
            break;
        }
        stepOnce(fx);
        ++result.replayed_steps;
        record(fx);
    }
    result.reached_step = fx.driver.step_index;
    return result;
}

} // namespace spindrift::cpu
