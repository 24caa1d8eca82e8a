// The draw order of one emitter's particles, by the emitter's sort mode (EmitterRecord::sort):
//   kSortNone          the order given (the backend's slot order, or birth order for stable_order);
//   kSortBackToFront   farthest from the camera eye first (what alpha blending needs);
//   kSortFrontToBack   nearest first;
//   kSortOldestFirst   largest normalized_age first (age as a fraction of the particle's life,
//                      what the records carry; not age in seconds);
//   kSortNewestFirst   smallest normalized_age first.
// Distance is the Euclidean distance from the eye to the record's position.
//
// Deterministic: the order depends only on the records and the eye, and particles with equal keys
// keep their input order (the sort is stable), so two runs, two machines and both algorithms
// agree. Below kRadixSortThreshold records a comparison (insertion) sort runs; at or above it an
// LSD radix sort over 32-bit keys (issue 4, seed 000: comparison below 256, radix at or above).
//
// Keys: each float key is mapped to a uint32 whose unsigned order is the float order (-0 and +0
// are made equal first). Records from a backend are finite; should a NaN key still occur it gets
// a fixed place (a positive NaN after +infinity, a negative one before -infinity) in both paths,
// so the result stays deterministic and the sort never misbehaves, but no other promise is made.
//
// Allocation: the caller owns a SortScratch; it grows to the largest count seen and is reused, so
// sorting allocates nothing in the steady state. Not thread-safe per scratch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/draw_record.h"
#include "kernels/shared_types.h"

namespace spindrift::render {

inline constexpr size_t kRadixSortThreshold = 256;

struct SortScratch {
    std::vector<uint32_t> keys;
    std::vector<uint32_t> keys_alt;
    std::vector<uint32_t> order;
    std::vector<uint32_t> order_alt;
    std::vector<DrawRecord> records;
};

// True for the modes that reorder (every kSort* except kSortNone).
bool sortReorders(uint32_t sort_mode);

// The order-preserving key of a float: a < b (as floats, NaN-free) <=> key(a) < key(b) (as
// uint32), and key(-0) == key(+0).
uint32_t orderedFloatKey(float value);

// Writes into order (order.size() == records.size()) the indices of records in draw order.
// An unknown sort_mode is treated as kSortNone (compiled records are validated upstream).
void particleDrawOrder(std::span<const DrawRecord> records, uint32_t sort_mode, vec3 eye,
                       SortScratch& scratch, std::span<uint32_t> order);

// Reorders records in place into draw order (particleDrawOrder, then a gather through
// scratch.records). Does nothing for kSortNone.
void sortDrawRecords(std::span<DrawRecord> records, uint32_t sort_mode, vec3 eye,
                     SortScratch& scratch);

} // namespace spindrift::render
