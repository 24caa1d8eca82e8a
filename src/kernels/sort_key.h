// Sort keys of draw records: one text for the CPU sort (src/render/particle_sort.cpp) and the
// GPU key pass (shaders/sort_keys.comp), so both order particles identically.
//
// A key is a uint whose unsigned ascending order is the draw order of the record's sort mode
// (EmitterRecord::sort): back to front sorts the complement of the squared eye distance's key,
// oldest first the complement of normalized_age's key. Complementing reverses the order of
// distinct keys and keeps equal keys equal, so a stable ascending sort of the keys keeps input
// order for ties in every mode.
#ifndef SPINDRIFT_KERNELS_SORT_KEY_H
#define SPINDRIFT_KERNELS_SORT_KEY_H

#include "draw_record.h"
#include "effect_records.h"
#include "shared_types.h"

// The squared distance must be the same bits on both sides: C++ is compiled without contraction
// (-ffp-contract=off); in GLSL `precise` forbids fusing the multiply-adds into FMAs.
#ifdef __cplusplus
#define SD_SORT_PRECISE
#else
#define SD_SORT_PRECISE precise
#endif

SD_BEGIN_NAMESPACE

// The order-preserving key of a float: a < b (as floats, NaN-free) <=> key(a) < key(b) (as
// uints), and key(-0) == key(+0). A positive NaN sorts after +infinity, a negative one before
// -infinity.
SD_FUNC uint sdOrderedFloatKey(float value) {
    // -0 and +0 compare equal as floats; give them one key (NaN keeps its bits).
    uint bits = floatBitsToUint(value == 0.0f ? 0.0f : value);
    // Negative floats order backwards by their bits: flip them all; positive ones go above.
    return (bits & 0x80000000u) != 0u ? ~bits : (bits | 0x80000000u);
}

// Squared Euclidean distance from eye to the record's position: it has the distance's order and
// needs no sqrt. Evaluated as (dx*dx + dy*dy) + dz*dz with every step rounded.
SD_FUNC float sdSortDistanceSquared(vec4 position_size, vec3 eye) {
    SD_SORT_PRECISE float dx = position_size.x - eye.x;
    SD_SORT_PRECISE float dy = position_size.y - eye.y;
    SD_SORT_PRECISE float dz = position_size.z - eye.z;
    SD_SORT_PRECISE float d2 = dx * dx + dy * dy + dz * dz;
    return d2;
}

// The ascending sort key of record r for sort_mode (kSort*). kSortNone and unknown modes give 0
// for every record, which a stable sort leaves in input order.
SD_FUNC uint sdDrawRecordSortKey(DrawRecord r, uint sort_mode, vec3 eye) {
    uint key = 0u;
    if (sort_mode == kSortBackToFront) {
        key = ~sdOrderedFloatKey(sdSortDistanceSquared(r.position_size, eye));
    } else if (sort_mode == kSortFrontToBack) {
        key = sdOrderedFloatKey(sdSortDistanceSquared(r.position_size, eye));
    } else if (sort_mode == kSortOldestFirst) {
        key = ~sdOrderedFloatKey(r.normalized_age);
    } else if (sort_mode == kSortNewestFirst) {
        key = sdOrderedFloatKey(r.normalized_age);
    }
    return key;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_SORT_KEY_H
