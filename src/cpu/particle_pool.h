// One emitter's particles as columns (structure of arrays): one array per attribute, indexed by
// slot, slots [0, count) alive and dense. No per-particle objects; every array is allocated once,
// at the emitter's capacity, and never during a step (DESIGN rule 7).
//
// What is stored is the physical state plus the values a particle was born with. Appearance that
// is a pure function of those (colour and size over life or by speed, flipbook frame) is derived
// when draw records are written, so a step moves only the bytes physics needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace spindrift::cpu {

// Particle flag bits (ParticlePool::flags).
inline constexpr uint32_t kParticleStuck = 1u;  // collision response "stick": no more motion
inline constexpr uint32_t kParticleKilled = 2u; // dies at the end of this step

// A view of one column inside the pool's single allocation.
template <typename T> struct Column {
    T* data = nullptr;
    T* get() const { return data; }
    T& operator[](size_t i) const { return data[i]; }
};

// Frees a pool's block, allocated with this alignment.
struct PoolBlockDeleter {
    size_t alignment = 4096;
    void operator()(unsigned char* p) const { ::operator delete[](p, std::align_val_t(alignment)); }
};

struct ParticlePool {
    uint32_t capacity = 0;
    uint32_t count = 0;

    // Every column lives in this one block (allocatePool says how they are placed).
    std::unique_ptr<unsigned char[], PoolBlockDeleter> storage;

    // Simulation state, in the effect's simulation space (world or local).
    Column<float> position_x, position_y, position_z;
    Column<float> velocity_x, velocity_y, velocity_z;
    Column<float> age_s;
    Column<float> lifetime_s;
    Column<float> rotation_rad;
    Column<uint32_t> flags; // kParticle*

    // Born with.
    Column<float> angular_velocity_rad_per_s;
    Column<float> size;
    Column<float> mass;
    Column<float> color_r, color_g, color_b, color_a;
    Column<uint32_t> key;     // sdParticleKey: the particle's random stream
    Column<uint64_t> ordinal; // spawn ordinal within its emitter

    // Work space for one step, never part of the state: per chunk, the slots that died (from the
    // chunk's first slot on) and the slots that touched a collider, one list per collision op
    // run after the other, so a chunk's region holds contact_lists entries per slot (a particle
    // can touch in every collision op): it starts at entry first slot x contact_lists.
    Column<uint32_t> dead_slots;
    Column<uint32_t> contact_slots;
    uint32_t contact_lists = 1; // the emitter's collision ops, at least 1
    // Only for an emitter delivering collision events (cpu/gameplay_events.h, which owns it):
    // beside each contact_slots entry, 4 floats (contact normal xyz, collision op ordinal).
    float* contact_normals = nullptr;
};

// Allocates every column for capacity particles in one block; count = 0.
// A large pool (a column of kPackedColumnBytes or more): column k starts 64 * k bytes past a
// 4 KiB boundary: columns that each began on a page boundary would map the same slot of every
// column to the same L1 set, and the step's nine streams would evict each other (measured: 2.4
// vs 16 GB/s for one pass; docs/benchmarks.md).
// A small pool: the columns follow each other, each on a 64-byte boundary (a cache line, and a
// whole AVX-512 vector), so an emitter of 64 particles holds a few KiB instead of a page per
// column, and a world of many small instances touches few pages (docs/cpu-backend.md).
// contact_lists: the emitter's collision ops (contact_slots holds that many entries per slot).
void allocatePool(ParticlePool& pool, uint32_t capacity, uint32_t contact_lists = 1);

// Columns shorter than this (bytes) are packed; see allocatePool.
inline constexpr size_t kPackedColumnBytes = 4096;

// Moves the particle in slot from into slot to (every column).
void moveParticle(ParticlePool& pool, uint32_t from, uint32_t to);

// Removes the particles whose slots are listed in descending order, filling each hole with the
// last live particle. Descending order guarantees the particle moved into a hole is alive. The
// result depends only on the pool and the list, never on threads.
void removeDescending(ParticlePool& pool, const uint32_t* slots, uint32_t slot_count);

// Bytes of state per particle that snapshots and hashes cover (every column but scratch).
inline constexpr size_t kParticleStateBytes =
    16 * sizeof(float) + 2 * sizeof(uint32_t) + sizeof(uint64_t);

// Calls fn(column_pointer, element_size) for every state column, in a fixed order. Snapshots,
// hashing and moving particles use this one list, so a new column cannot be forgotten in one.
template <typename Fn> void forEachColumn(ParticlePool& pool, Fn&& fn) {
    fn(pool.position_x.get(), sizeof(float));
    fn(pool.position_y.get(), sizeof(float));
    fn(pool.position_z.get(), sizeof(float));
    fn(pool.velocity_x.get(), sizeof(float));
    fn(pool.velocity_y.get(), sizeof(float));
    fn(pool.velocity_z.get(), sizeof(float));
    fn(pool.age_s.get(), sizeof(float));
    fn(pool.lifetime_s.get(), sizeof(float));
    fn(pool.rotation_rad.get(), sizeof(float));
    fn(pool.flags.get(), sizeof(uint32_t));
    fn(pool.angular_velocity_rad_per_s.get(), sizeof(float));
    fn(pool.size.get(), sizeof(float));
    fn(pool.mass.get(), sizeof(float));
    fn(pool.color_r.get(), sizeof(float));
    fn(pool.color_g.get(), sizeof(float));
    fn(pool.color_b.get(), sizeof(float));
    fn(pool.color_a.get(), sizeof(float));
    fn(pool.key.get(), sizeof(uint32_t));
    fn(pool.ordinal.get(), sizeof(uint64_t));
}

} // namespace spindrift::cpu
