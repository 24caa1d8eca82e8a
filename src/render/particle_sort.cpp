#include "render/particle_sort.h"

#include <array>
#include <cstring>

#include "kernels/sort_key.h"

namespace spindrift::render {

namespace {

// Keys for an ascending sort, from the shared kernel the GPU key pass runs too
// (kernels/sort_key.h), so both sorts order alike.
void computeKeys(std::span<const DrawRecord> records, uint32_t sort_mode, vec3 eye,
                 uint32_t* keys) {
    const size_t n = records.size();
    for (size_t i = 0; i < n; ++i) keys[i] = sdDrawRecordSortKey(records[i], sort_mode, eye);
}

// Stable insertion sort of (key, index) pairs: few records, no allocation, and no comparator
// that could see a NaN.
void insertionSort(uint32_t* keys, uint32_t* order, size_t n) {
    for (size_t i = 1; i < n; ++i) {
        const uint32_t key = keys[i];
        const uint32_t index = order[i];
        size_t j = i;
        // Strictly greater: an equal key stays after the earlier one.
        while (j > 0 && keys[j - 1] > key) {
            keys[j] = keys[j - 1];
            order[j] = order[j - 1];
            --j;
        }
        keys[j] = key;
        order[j] = index;
    }
}

// LSD radix sort, 8 bits per pass. Each pass is a stable counting sort, so the whole is stable.
// A pass whose byte is the same for every key would be a copy and is skipped. On return the
// sorted pairs are in (keys, order) again.
void radixSort(uint32_t* keys, uint32_t* order, uint32_t* keys_alt, uint32_t* order_alt, size_t n) {
    uint32_t* src_keys = keys;
    uint32_t* src_order = order;
    uint32_t* dst_keys = keys_alt;
    uint32_t* dst_order = order_alt;
    for (uint32_t shift = 0; shift < 32; shift += 8) {
        std::array<size_t, 256> counts{};
        for (size_t i = 0; i < n; ++i) ++counts[(src_keys[i] >> shift) & 0xffu];
        if (counts[(src_keys[0] >> shift) & 0xffu] == n) continue;
        size_t offset = 0;
        for (size_t& c : counts) {
            const size_t count = c;
            c = offset;
            offset += count;
        }
        for (size_t i = 0; i < n; ++i) {
            const size_t at = counts[(src_keys[i] >> shift) & 0xffu]++;
            dst_keys[at] = src_keys[i];
            dst_order[at] = src_order[i];
        }
        std::swap(src_keys, dst_keys);
        std::swap(src_order, dst_order);
    }
    if (src_keys != keys) {
        std::memcpy(keys, src_keys, n * sizeof(uint32_t));
        std::memcpy(order, src_order, n * sizeof(uint32_t));
    }
}

template <typename T> T* atLeast(std::vector<T>& v, size_t n) {
    if (v.size() < n) v.resize(n);
    return v.data();
}

} // namespace

bool sortReorders(uint32_t sort_mode) {
    return sort_mode == kSortBackToFront || sort_mode == kSortFrontToBack ||
           sort_mode == kSortOldestFirst || sort_mode == kSortNewestFirst;
}

uint32_t orderedFloatKey(float value) {
    return sdOrderedFloatKey(value);
}

void particleDrawOrder(std::span<const DrawRecord> records, uint32_t sort_mode, vec3 eye,
                       SortScratch& scratch, std::span<uint32_t> order) {
    const size_t n = records.size();
    for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
    if (!sortReorders(sort_mode) || n < 2) return;
    uint32_t* keys = atLeast(scratch.keys, n);
    computeKeys(records, sort_mode, eye, keys);
    if (n < kRadixSortThreshold) {
        insertionSort(keys, order.data(), n);
    } else {
        radixSort(keys, order.data(), atLeast(scratch.keys_alt, n), atLeast(scratch.order_alt, n),
                  n);
    }
}

void sortDrawRecords(std::span<DrawRecord> records, uint32_t sort_mode, vec3 eye,
                     SortScratch& scratch) {
    const size_t n = records.size();
    if (!sortReorders(sort_mode) || n < 2) return;
    uint32_t* order = atLeast(scratch.order, n);
    particleDrawOrder(records, sort_mode, eye, scratch, std::span<uint32_t>(order, n));
    DrawRecord* copy = atLeast(scratch.records, n);
    std::memcpy(copy, records.data(), n * sizeof(DrawRecord));
    for (size_t i = 0; i < n; ++i) records[i] = copy[order[i]];
}

} // namespace spindrift::render
