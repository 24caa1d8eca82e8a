// Radix sort, chained scan (Onesweep: Adinets and Merrill 2022, after Merrill and Garland's
// decoupled look-back, 2016), with the decoupled fallback of Smith, Levien and Owens (2025): the
// downsweep finds where each of its tile's digit runs goes without an upsweep or scan kernel.
//
// - Tiles are claimed in order through the pass's ticket (an atomic counter), so a tile's
//   predecessors were all claimed by workgroups that had started.
// - After ranking, a tile publishes its count of each digit ("aggregate"; tile 0: "inclusive")
//   in one status word per digit (flag | count, one atomic: never torn). Invocation d then looks
//   back over its predecessors' words for digit d, summing aggregates until it meets an
//   inclusive one, and publishes its own inclusive count.
// - Fallback: a word still unpublished after the tile's budget of reads (kLookBackSpins) is not
//   waited for: the workgroup counts that predecessor's digits itself from its keys (the pass's
//   source keys, unchanged during the pass) and looks on back from there. So no workgroup ever
//   waits on another, whatever the scheduler does, and every loop is bounded: lavapipe's
//   gallivm ends an invocation's loops after 65 535 iterations in all (docs/gpu-backend.md),
//   which made the earlier spin-until-published version fall through with wrong counts. A
//   look-back goes back over at most the tiles not yet inclusive (those of workgroups still
//   running: a few on a CPU) and reads at most kLookBackSpins unpublished words.
//
// Memory model: a status word carries its flag and its count together, so readers need no
// ordering against other data; reads are atomics (atomicOr with 0), which are coherent at device
// scope, so a loop of them sees other workgroups' writes. Included by sort_downsweep.glsl after
// sort_common.glsl; not an entry point.
#include "sort_tile_histogram.glsl"

// kSortSpecLookBackSpins: reads of unpublished status words a tile makes before it counts the
// predecessor itself (the host picks: fewer on a CPU, where a descheduled predecessor is slow).
layout(constant_id = kSortSpecLookBackSpins) const uint kLookBackSpins = 64u;
// kSortSpecForceFallback (tests): the nearest predecessor's counts always come from its keys.
layout(constant_id = kSortSpecForceFallback) const bool kForceFallback = false;

shared uint s_claimed_tile;  // the tile this workgroup claimed
shared uint s_fallback_look; // 1 + the latest predecessor some invocation needs counted, or 0

// The next tile of this pass for this workgroup (whole workgroup: barriers).
uint claimTile() {
    if (gl_LocalInvocationIndex == 0u) {
        s_claimed_tile = atomicAdd(Words(pc.digit_counts).v[kSortTicketWord + pc.pass_index], 1u);
    }
    barrier();
    uint tile = s_claimed_tile;
    barrier(); // every invocation read it before a later claim rewrites it
    return tile;
}

// The next pass's status words of this tile start at 0 (not published). Nothing reads them in
// this pass: the other region is this pass's.
void clearNextPassStatus(uint tile) {
    uint at = sortStatusIndex(pc.pass_index + 1u, tile, gl_LocalInvocationIndex);
    Words(pc.tile_counts).v[at] = 0u;
}

void publishStatus(uint tile, uint digit, uint word) {
    atomicExchange(Words(pc.tile_counts).v[sortStatusIndex(pc.pass_index, tile, digit)], word);
}

// One invocation's look-back over its digit: tiles look .. (its tile - 1) are summed in prefix.
struct LookBack {
    uint look;
    uint prefix;
    uint spins; // reads of unpublished words left
    bool done;  // prefix counts every earlier tile
    bool stuck; // tile look - 1 is unpublished and no spins are left: the fallback counts it
};

// Walks back while words are published (or spins are left), without barriers.
void walkBack(inout LookBack b, uint digit) {
    Words status = Words(pc.tile_counts);
    // One loop condition, no break (lavapipe mis-summed a spin loop left through break and
    // continue while its lanes diverged).
    while (!b.done && !b.stuck) {
        uint word = atomicOr(status.v[sortStatusIndex(pc.pass_index, b.look - 1u, digit)], 0u);
        if (word != 0u) {
            b.prefix += word & kSortStatusValueMask;
            b.look -= 1u;
            b.done = (word & kSortStatusInclusive) != 0u || b.look == 0u;
        } else if (b.spins != 0u) {
            b.spins -= 1u;
        } else {
            b.stuck = true;
        }
    }
}

// The count of digit gl_LocalInvocationIndex in the tiles before `tile` (> 0). Whole workgroup:
// each round counts, from its keys, the latest predecessor some invocation is stuck at; those
// invocations walk on. Rounds end when nobody is stuck; the round's tile strictly decreases, so
// there are at most `tile` rounds.
uint lookBack(uint tile) {
    uint digit = gl_LocalInvocationIndex;
    LookBack b;
    b.look = tile;
    b.prefix = 0u;
    b.spins = kLookBackSpins;
    b.done = false;
    b.stuck = kForceFallback;
    walkBack(b, digit);
    ReadWords keys = ReadWords(pc.src_keys);
    bool rounds = true;
    while (rounds) {
        if (digit == 0u) s_fallback_look = 0u;
        barrier();
        if (b.stuck) atomicMax(s_fallback_look, b.look);
        barrier();
        uint look = s_fallback_look; // uniform: read after the barrier, rewritten after the
                                     // barriers of sortCountTileDigits below
        rounds = look != 0u;
        if (rounds) {
            uint count = sortCountTileDigits(keys, look - 1u);
            if (digit == 0u) atomicAdd(Words(pc.digit_counts).v[kSortFallbackWord], 1u);
            if (b.stuck && b.look == look) {
                b.prefix += count;
                b.look -= 1u;
                b.stuck = false;
                b.done = b.look == 0u;
                walkBack(b, digit);
            }
        }
    }
    return b.prefix;
}
