// What the GPU radix sort's C++ side and its shaders (shaders/sort_*.comp) share: tile and
// workgroup sizes, specialisation-constant ids and the push-constant blocks, written once in the
// C++/GLSL subset (kernels/shared_types.h). The shaders include this file by relative path.
//
// FROZEN while the shaders are embedded: the push-constant layouts (offsets pinned below).
#ifndef SPINDRIFT_GPU_SORT_RADIX_SORT_SHARED_H
#define SPINDRIFT_GPU_SORT_RADIX_SORT_SHARED_H

#include "../../kernels/shared_types.h"

SD_BEGIN_NAMESPACE

SD_CONST uint kSortWorkgroupSize = 256u;     // invocations of every sort workgroup
SD_CONST uint kSortKeysPerThread = 16u;      // keys each invocation ranks per tile
SD_CONST uint kSortTileKeys = 4096u;         // kSortWorkgroupSize * kSortKeysPerThread
SD_CONST uint kSortRadixBits = 8u;           // bits per pass
SD_CONST uint kSortRadix = 256u;             // digits per pass; == kSortWorkgroupSize
SD_CONST uint kSortPasses = 4u;              // 32-bit keys
SD_CONST uint kSortPortableMatchWidth = 32u; // lanes of the shared-memory match (no ballot)
// Largest number of workgroups one dispatch uses; every kernel loops over tiles (grid stride),
// so any count fits the portable envelope of 65 535 groups in x.
SD_CONST uint kSortMaxGroups = 65535u;
// Workgroups the global histogram uses at most: few, so their shared counts are flushed rarely.
SD_CONST uint kSortHistogramGroups = 1024u;

// Specialisation constant ids.
SD_CONST uint kSortSpecSubgroupSize = 0u;  // the ballot downsweep's ranking width
SD_CONST uint kSortSpecChainedScan = 1u;   // bool: chained scan (else reduce-then-scan)
SD_CONST uint kSortSpecLookBackSpins = 2u; // chained scan: reads of unpublished words per tile
SD_CONST uint kSortSpecForceFallback = 3u; // bool, tests: every tile recounts its predecessor

// The counters buffer (push constant digit_counts): the global histogram of every pass, then the
// chained scan's tile ticket of each pass, then how many look-back fallbacks the sort ran. All
// zero at the start of a sort (one vkCmdFillBuffer).
SD_CONST uint kSortTicketWord = 1024u;   // kSortPasses * kSortRadix: + pass_index
SD_CONST uint kSortFallbackWord = 1028u; // kSortTicketWord + kSortPasses
SD_CONST uint kSortCounterWords = 1029u;

// Chained scan status words (one per tile and digit, in the tile_counts buffer): flag bits and a
// count in one 32-bit word, so one atomic writes or reads both. 0 = not published yet. The
// count excludes the keys of smaller digits (the global histogram adds those): aggregate = the
// tile's count of the digit; inclusive = the count in this tile and every earlier one. Counts
// stay below 2^30 (kGpuSortMaxCount), under the flags.
SD_CONST uint kSortStatusAggregate = 0x40000000u;
SD_CONST uint kSortStatusInclusive = 0x80000000u;
SD_CONST uint kSortStatusValueMask = 0x3fffffffu;

// Push constants of the histogram, upsweep, scan and downsweep kernels (and the copy reference).
// Addresses are buffer device addresses split into (low, high) words
// (GL_EXT_buffer_reference_uvec2: no shaderInt64 needed).
struct RadixSortPush {
    uvec2 src_keys;     // count keys read by this pass
    uvec2 src_payloads; // their payloads
    uvec2 dst_keys;     // where the pass writes keys
    uvec2 dst_payloads; // and payloads
    // reduce-then-scan: kSortRadix * tile_count uints, digit-major (digit * tile_count + tile);
    // chained scan: two regions of tile_count * kSortRadix status words, tile-major
    uvec2 tile_counts;
    uvec2 digit_counts; // kSortCounterWords uints: histograms, tickets, fallbacks
    uint count;         // keys to sort
    uint shift;         // bit offset of this pass's digit (0, 8, 16, 24)
    uint pass_index;    // 0..3
    uint tile_count;    // ceil(count / kSortTileKeys)
};

// Push constants of the key pass (shaders/sort_keys.comp).
struct SortKeyPush {
    // count DrawRecords: one run at this address (chunk_records 0), or spread over draw-record
    // chunks, this the address of a table of the chunks' addresses (sdDrawRecordPlace,
    // kernels/draw_record.h; shaders/draw_record_fetch.glsl)
    uvec2 records;
    uvec2 keys;     // count uints written: sdDrawRecordSortKey of each record
    uvec2 payloads; // count uints written: the record's index
    // 0, or the address of a uint the device wrote: only the first min(count, *valid) records
    // are real (a simulation's live count, known only on the device); the rest get the largest
    // key, so a stable ascending sort leaves them after every real record.
    uvec2 valid;
    uint count;
    uint sort_mode;      // kSort*
    uint chunk_records;  // records per chunk; 0: one run at `records`
    uint first_in_chunk; // record 0's index in the table's first chunk
    vec4 eye;            // xyz the camera eye, w unused
};

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
#include <type_traits>
namespace spindrift {
static_assert(kSortTileKeys == kSortWorkgroupSize * kSortKeysPerThread);
static_assert(kSortRadix == kSortWorkgroupSize, "one invocation per digit in the scans");
static_assert(kSortTicketWord == kSortPasses * kSortRadix);
static_assert(kSortFallbackWord == kSortTicketWord + kSortPasses);
static_assert(kSortCounterWords == kSortFallbackWord + 1u);
static_assert((kSortStatusAggregate & kSortStatusValueMask) == 0 &&
              (kSortStatusInclusive & kSortStatusValueMask) == 0);
static_assert(sizeof(RadixSortPush) == 64 && std::is_trivially_copyable_v<RadixSortPush>);
static_assert(offsetof(RadixSortPush, digit_counts) == 40);
static_assert(offsetof(RadixSortPush, count) == 48);
static_assert(offsetof(RadixSortPush, tile_count) == 60);
static_assert(sizeof(SortKeyPush) == 64 && std::is_trivially_copyable_v<SortKeyPush>);
static_assert(offsetof(SortKeyPush, count) == 32);
static_assert(offsetof(SortKeyPush, eye) == 48); // std430: vec4 at a multiple of 16
} // namespace spindrift
#endif

#endif // SPINDRIFT_GPU_SORT_RADIX_SORT_SHARED_H
