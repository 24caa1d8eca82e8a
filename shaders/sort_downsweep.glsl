// Radix sort, per pass (downsweep): each workgroup ranks a tile of kSortTileKeys keys stably by
// the pass's digit, reorders keys and payloads through shared memory so each digit's run is
// contiguous, and writes them to the tile's place for that digit.
//
// Where a tile's digit runs go (its output position per digit) comes from one of two scans,
// chosen by the specialisation constant kChainedScan (sort_common.glsl):
// - chained scan (sort_chained_scan.glsl): tiles are claimed in order; after ranking, each
//   publishes its digit counts and looks back over earlier tiles' published counts. One kernel
//   per pass, which reads the keys once: no upsweep, no scan kernel.
// - reduce-then-scan: sort_upsweep.comp and sort_scan.comp wrote every tile's positions before
//   this kernel; they are loaded with the keys, before ranking, so their latency overlaps it.
//
// Memory round trips per tile: keys and payloads are loaded together before ranking; after it,
// the only global accesses are the look-back's (chained scan) and the writes.
//
// Ranking (after Adinets and Merrill, "Onesweep", 2022, warp-level multi-split): the tile is cut
// into ranking groups of `width` lanes, each owning kSortKeysPerThread consecutive rows of
// `width` consecutive keys. Row by row, a lane finds the lanes of its row holding the same digit
// (its peers): its rank is the group's count of that digit so far plus its earlier peers; the
// last peer adds the row's count (ballot path: with one shared atomic whose old value a shuffle
// hands to the peers). Per-group counts are then scanned across groups, which gives
// every key its stable position in the tile. Counts are 16-bit halves of shared words (a tile's
// count of a digit is at most 4096), so 32 groups fit in 16 KiB, the size of the reorder buffer
// they share memory with.
//
// Entry points define SORT_SUBGROUP_RANKING: 1 finds peers with 8 subgroup ballots (a group is a
// subgroup; its size is a specialisation constant, the device's subgroupSize, which a SPIR-V 1.5
// compute shader always runs with); 0 is the portable path for devices without ballot: groups of
// kSortPortableMatchWidth invocations compare digits through shared memory.
#if SORT_SUBGROUP_RANKING
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
#include "sort_common.glsl"
#include "sort_chained_scan.glsl"

#if SORT_SUBGROUP_RANKING
// kSortSpecSubgroupSize: the device's subgroup size, 8 to 128 (the host checks), so at most 32
// ranking groups share the counters.
layout(constant_id = kSortSpecSubgroupSize) const uint kSubgroupSize = 32u;
#endif

shared uint s_mem[kSortTileKeys];  // packed per-group digit counts, then the reorder buffer
shared uint s_digit_start[256];    // first position of each digit in the reordered tile
shared uint s_digit_offset[256];   // output position of the digit's first key minus its start
#if !SORT_SUBGROUP_RANKING
shared uint s_match[256];          // the digits of one row, for the portable peer search
#endif

struct RankLayout {
    uint group;  // ranking group of this invocation
    uint lane;   // its lane in the group
    uint width;  // lanes per group
    uint groups; // groups per workgroup
};

RankLayout rankLayout() {
    RankLayout l;
#if SORT_SUBGROUP_RANKING
    l.group = gl_SubgroupID;
    l.lane = gl_SubgroupInvocationID;
    l.width = kSubgroupSize;
    l.groups = kSortWorkgroupSize / kSubgroupSize;
#else
    l.group = gl_LocalInvocationIndex / kSortPortableMatchWidth;
    l.lane = gl_LocalInvocationIndex % kSortPortableMatchWidth;
    l.width = kSortPortableMatchWidth;
    l.groups = kSortWorkgroupSize / kSortPortableMatchWidth;
#endif
    return l;
}

// The lanes of this row with the same digit: how many come before this lane (earlier), how many
// there are (peers, this lane included), which lane is the last of them (leader) and whether
// this lane is it. Invalid
// lanes (past the end of the tile) are nobody's peers; their own answers are not used.
void findPeers(uint digit, bool valid, RankLayout l, out uint earlier, out uint peers,
               out bool last, out uint leader) {
#if SORT_SUBGROUP_RANKING
    uvec4 mask = subgroupBallot(valid);
    for (uint b = 0u; b < kSortRadixBits; ++b) {
        bool bit = ((digit >> b) & 1u) != 0u;
        uvec4 votes = subgroupBallot(bit);
        mask &= bit ? votes : ~votes;
    }
    earlier = subgroupBallotExclusiveBitCount(mask);
    peers = subgroupBallotBitCount(mask);
    leader = subgroupBallotFindMSB(mask);
    last = leader == l.lane;
#else
    uint i = gl_LocalInvocationIndex;
    s_match[i] = valid ? digit : 0x100u; // 0x100 matches no digit
    barrier();
    uint row = i - l.lane;
    uint mask = 0u;
    for (uint j = 0u; j < kSortPortableMatchWidth; ++j) {
        mask |= (s_match[row + j] == digit ? 1u : 0u) << j;
    }
    earlier = uint(bitCount(mask & ((1u << l.lane) - 1u)));
    peers = uint(bitCount(mask));
    leader = uint(findMSB(mask));
    last = leader == l.lane;
    barrier(); // the next row rewrites s_match
#endif
}

void copyPass() {
    ReadWords src_keys = ReadWords(pc.src_keys);
    ReadWords src_payloads = ReadWords(pc.src_payloads);
    WriteWords dst_keys = WriteWords(pc.dst_keys);
    WriteWords dst_payloads = WriteWords(pc.dst_payloads);
    for (uint tile = gl_WorkGroupID.x; tile < pc.tile_count; tile += gl_NumWorkGroups.x) {
        if (kChainedScan) clearNextPassStatus(tile);
        uint begin = tile * kSortTileKeys;
        uint end = min(begin + kSortTileKeys, pc.count);
        for (uint k = begin + gl_LocalInvocationIndex; k < end; k += kSortWorkgroupSize) {
            dst_keys.v[k] = src_keys.v[k];
            dst_payloads.v[k] = src_payloads.v[k];
        }
    }
}

void main() {
    if (sortPassIsTrivial()) { // uniform: every invocation reads the same two words
        copyPass();
        return;
    }
    uint i = gl_LocalInvocationIndex;
    ReadWords src_keys = ReadWords(pc.src_keys);
    ReadWords src_payloads = ReadWords(pc.src_payloads);
    WriteWords dst_keys = WriteWords(pc.dst_keys);
    WriteWords dst_payloads = WriteWords(pc.dst_payloads);
    ReadWords tile_counts = ReadWords(pc.tile_counts);
    RankLayout l = rankLayout();
    uint counter_row = l.group * 128u;
    uint group_first = l.group * kSortKeysPerThread * l.width; // in the tile
    // Chained scan: the keys of digits below i in the whole pass (the same for every tile).
    uint digit_base = 0u;
    if (kChainedScan) {
        uint all_keys;
        digit_base = sortScan256(ReadWords(pc.digit_counts).v[pc.pass_index * 256u + i], all_keys);
    }

    // Chained scan: tiles claimed in order (sort_chained_scan.glsl); else grid stride.
    for (uint tile = kChainedScan ? claimTile() : gl_WorkGroupID.x; tile < pc.tile_count;
         tile = kChainedScan ? claimTile() : tile + gl_NumWorkGroups.x) {
        uint tile_begin = tile * kSortTileKeys;
        uint tile_size = min(kSortTileKeys, pc.count - tile_begin);
        // Reduce-then-scan: the tile's output position for digit i, loaded now so its latency
        // overlaps the ranking rather than following it.
        uint position = kChainedScan ? 0u : tile_counts.v[i * pc.tile_count + tile];
        if (kChainedScan) clearNextPassStatus(tile);
        for (uint j = i; j < l.groups * 128u; j += kSortWorkgroupSize) s_mem[j] = 0u;

        uint keys[kSortKeysPerThread];
        uint values[kSortKeysPerThread];
        uint ranks[kSortKeysPerThread];
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            uint at = group_first + r * l.width + l.lane;
            bool valid = at < tile_size;
            keys[r] = valid ? src_keys.v[tile_begin + at] : 0u;
            values[r] = valid ? src_payloads.v[tile_begin + at] : 0u;
        }
        barrier(); // the counters are cleared

        // Rank within the group, row by row.
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            bool valid = group_first + r * l.width + l.lane < tile_size;
            uint digit = (keys[r] >> pc.shift) & 0xffu;
            uint earlier, peers, leader;
            bool last;
            findPeers(digit, valid, l, earlier, peers, last, leader);
            uint word = counter_row + (digit >> 1u);
            uint half_shift = (digit & 1u) * 16u;
#if SORT_SUBGROUP_RANKING
            // The last peer adds the row's count and hands the old count to its peers: no
            // barrier, since the shuffle orders every peer after the add.
            uint before = 0u;
            if (valid && last) before = atomicAdd(s_mem[word], peers << half_shift);
            before = subgroupShuffle(before, leader);
            ranks[r] = ((before >> half_shift) & 0xffffu) + earlier;
#else
            ranks[r] = ((s_mem[word] >> half_shift) & 0xffffu) + earlier;
            barrier(); // every read of this row before the update
            if (valid && last) atomicAdd(s_mem[word], peers << half_shift);
            barrier(); // the update before the next row's reads
#endif
        }
        barrier();

        // Per digit pair (one packed word), counts of earlier groups; the sum is the tile's
        // count. Halves never carry: each is at most kSortTileKeys < 2^16.
        if (i < 128u) {
            uint running = 0u;
            for (uint g = 0u; g < l.groups; ++g) {
                uint count = s_mem[g * 128u + i];
                s_mem[g * 128u + i] = running;
                running += count;
            }
            s_digit_start[2u * i] = running & 0xffffu;
            s_digit_start[2u * i + 1u] = running >> 16u;
        }
        barrier();
        uint digit_count = s_digit_start[i];
        // Published before this tile's own scan, so later tiles' look-backs wait less. Tile 0's
        // count is already its inclusive one.
        if (kChainedScan) {
            publishStatus(tile, i,
                          (tile == 0u ? kSortStatusInclusive : kSortStatusAggregate) | digit_count);
        }
        uint tile_total;
        uint start = sortScan256(digit_count, tile_total);
        if (kChainedScan) {
            uint earlier = 0u;
            if (tile != 0u) { // uniform: the whole workgroup looks back together
                earlier = lookBack(tile);
                publishStatus(tile, i, kSortStatusInclusive | (earlier + digit_count));
            }
            position = digit_base + earlier;
        }
        s_digit_start[i] = start;
        // Unsigned wrap-around is fine: a position in the tile (>= start) is added back.
        s_digit_offset[i] = position - start;
        barrier();

        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            uint digit = (keys[r] >> pc.shift) & 0xffu;
            uint packed = s_mem[counter_row + (digit >> 1u)];
            ranks[r] += s_digit_start[digit] + ((packed >> ((digit & 1u) * 16u)) & 0xffffu);
        }
        barrier(); // the counters are read; s_mem becomes the reorder buffer

        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            if (group_first + r * l.width + l.lane < tile_size) s_mem[ranks[r]] = keys[r];
        }
        barrier();
        // Keys leave in tile order, so consecutive invocations write runs of one digit.
        // keys[] now holds each written key's output position, for the payloads.
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            uint at = i + r * kSortWorkgroupSize;
            if (at < tile_size) {
                uint key = s_mem[at];
                keys[r] = s_digit_offset[(key >> pc.shift) & 0xffu] + at;
                dst_keys.v[keys[r]] = key;
            }
        }
        barrier();
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            if (group_first + r * l.width + l.lane < tile_size) s_mem[ranks[r]] = values[r];
        }
        barrier();
        for (uint r = 0u; r < kSortKeysPerThread; ++r) {
            uint at = i + r * kSortWorkgroupSize;
            if (at < tile_size) dst_payloads.v[keys[r]] = s_mem[at];
        }
        barrier(); // the next tile clears s_mem
    }
}
