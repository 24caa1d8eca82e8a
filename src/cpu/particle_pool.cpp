#include "cpu/particle_pool.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>

namespace spindrift::cpu {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kLine = 64;

// Where column index starts, given where the previous one ended; advances end past it. packed:
// on the next 64-byte boundary; else 64 x index bytes past the next page boundary.
size_t columnStart(size_t& end, uint32_t index, size_t column_bytes, bool packed) {
    const size_t start = packed ? (end + kLine - 1) / kLine * kLine
                                : (end + kPage - 1) / kPage * kPage + kLine * (index % 64);
    end = start + column_bytes;
    return start;
}

// Calls place(column, index) for every column, state columns first, then the work space.
template <typename Place> void forEachColumnToPlace(ParticlePool& pool, Place&& place) {
    uint32_t index = 0;
    place(pool.position_x, index++);
    place(pool.position_y, index++);
    place(pool.position_z, index++);
    place(pool.velocity_x, index++);
    place(pool.velocity_y, index++);
    place(pool.velocity_z, index++);
    place(pool.age_s, index++);
    place(pool.lifetime_s, index++);
    place(pool.rotation_rad, index++);
    place(pool.flags, index++);
    place(pool.angular_velocity_rad_per_s, index++);
    place(pool.size, index++);
    place(pool.mass, index++);
    place(pool.color_r, index++);
    place(pool.color_g, index++);
    place(pool.color_b, index++);
    place(pool.color_a, index++);
    place(pool.key, index++);
    place(pool.ordinal, index++);
    place(pool.dead_slots, index++);
    place(pool.contact_slots, index++);
}

} // namespace

void allocatePool(ParticlePool& pool, uint32_t capacity, uint32_t contact_lists) {
    pool.capacity = capacity;
    pool.count = 0;
    pool.contact_lists = std::max(contact_lists, 1u);
    // Entries of a column: capacity, contact_lists times that for the contact lists.
    auto entries = [&](const void* column) {
        return static_cast<size_t>(capacity) *
               (column == &pool.contact_slots ? pool.contact_lists : 1u);
    };
    // Packed when every column is short (the widest is the ordinals, 8 bytes a slot).
    const bool packed = size_t{capacity} * sizeof(uint64_t) < kPackedColumnBytes;
    const size_t alignment = packed ? kLine : kPage;
    // First pass measures, second pass places.
    size_t bytes = 0;
    forEachColumnToPlace(pool, [&](auto& column, uint32_t index) {
        columnStart(bytes, index, entries(&column) * sizeof(*column.data), packed);
    });
    bytes = std::max(bytes, alignment);
    pool.storage = std::unique_ptr<unsigned char[], PoolBlockDeleter>(
        static_cast<unsigned char*>(::operator new[](bytes, std::align_val_t(alignment))),
        PoolBlockDeleter{alignment});
    size_t end = 0;
    forEachColumnToPlace(pool, [&](auto& column, uint32_t index) {
        using T = std::remove_reference_t<decltype(*column.data)>;
        const size_t start = columnStart(end, index, entries(&column) * sizeof(T), packed);
        column.data = reinterpret_cast<T*>(pool.storage.get() + start);
    });
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
