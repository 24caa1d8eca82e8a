#include "cpu/particle_pool.h"

#include <cstring>

namespace spindrift::cpu {

void allocatePool(ParticlePool& pool, uint32_t capacity) {
    pool.capacity = capacity;
    pool.count = 0;
    pool.position_x.allocate(capacity);
    pool.position_y.allocate(capacity);
    pool.position_z.allocate(capacity);
    pool.velocity_x.allocate(capacity);
    pool.velocity_y.allocate(capacity);
    pool.velocity_z.allocate(capacity);
    pool.age_s.allocate(capacity);
    pool.lifetime_s.allocate(capacity);
    pool.rotation_rad.allocate(capacity);
    pool.flags.allocate(capacity);
    pool.angular_velocity_rad_per_s.allocate(capacity);
    pool.size.allocate(capacity);
    pool.mass.allocate(capacity);
    pool.color_r.allocate(capacity);
    pool.color_g.allocate(capacity);
    pool.color_b.allocate(capacity);
    pool.color_a.allocate(capacity);
    pool.key.allocate(capacity);
    pool.ordinal.allocate(capacity);
    pool.dead_slots.allocate(capacity);
    pool.contact_slots.allocate(capacity);
}

void moveParticle(ParticlePool& pool, uint32_t from, uint32_t to) {
    forEachColumn(pool, [from, to](void* column, size_t element) {
        auto* bytes = static_cast<unsigned char*>(column);
        std::memcpy(bytes + to * element, bytes + from * element, element);
    });
}

void removeDescending(ParticlePool& pool, const uint32_t* slots, uint32_t slot_count) {
    for (uint32_t i = 0; i < slot_count; ++i) {
        const uint32_t slot = slots[i];
        const uint32_t last = pool.count - 1;
        if (slot != last) moveParticle(pool, last, slot);
        pool.count = last;
    }
}

} // namespace spindrift::cpu
