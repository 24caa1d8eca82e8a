// One draw order over several sorted runs: the k-way merge behind the draw list's order across
// emitters and effects (docs/rendering.md, "Draw order across effects").
//
// Each run is one batch's items (particles, or strip segments) already in draw order: their keys
// (kernels/sort_key.h, back to front: the complement of the squared eye distance) ascend. The
// merge interleaves the runs into one ascending order and describes it as segments: stretches of
// consecutive items of one run, two successive segments never of the same run. Drawing the segments
// in order, each with its run's settings, draws every item in the one global order, so the image is
// exactly that of a single sort over all the items.
//
// Neighbours: items of two runs need the one order only where the runs' images can overlap. The
// caller may say which runs can (OrderNeighbours, symmetric); two runs that are not neighbours
// are drawn in whichever order makes fewer segments, so effects side by side on the screen at
// like depths do not cut each other into stretches for nothing. Every pair of items of two
// neighbouring runs (and of one run) is still drawn in key order: a run's stretch is taken only
// while its next key precedes the next key of every neighbour. Without neighbours every pair of
// runs is ordered (one total order). A run with more than 16 neighbours is bounded by every
// run instead (cheaper than scanning them per segment; never wrong, at most a few more segments).
//
// Ties: equal keys are taken from the run with the lower index first (the draw list's previous
// order: farther instance, then compiled emitter order), and within a run in the run's order. The
// result depends only on the keys: deterministic on every machine.
//
// Bound: a frame draws one batch per segment, so the segments are capped (max_segments). When the
// exact merge needs more, the farthest part is coarsened: a prefix of the merge is replaced by one
// segment per run holding that run's items of the prefix, in run order (the order before this
// merge), choosing the shortest prefix that brings the count to the cap. The near part, which
// covers the far one, stays exact. The result has at most max(max_segments, non-empty runs)
// segments; the items drawn out of the global order are counted (coarsened_items), never silent.
//
// Allocation: out and scratch grow to the largest merge seen and are reused.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace spindrift {

// A run: keys[first, first + count) of the caller's key array, ascending.
struct OrderRun {
    uint32_t first = 0;
    uint32_t count = 0;
};

// A stretch of one run's consecutive items: items [first, first + count) of run `run`, counted
// from the run's first item.
struct OrderSegment {
    uint32_t run = 0;
    uint32_t first = 0;
    uint32_t count = 0;
};

// Which runs may overlap on the screen, as a compressed table: run r's neighbours are
// runs[first[r] .. first[r + 1]). Empty first: every run is every other's neighbour.
struct OrderNeighbours {
    std::span<const uint32_t> first; // runs + 1 offsets into `runs`, or empty
    std::span<const uint32_t> runs;
};

struct OrderMergeResult {
    uint64_t exact_segments = 0;  // what the exact merge needed
    uint64_t coarsened_items = 0; // items drawn in their run's order in the coarsened prefix
};

struct OrderMergeScratch {
    std::vector<std::pair<uint32_t, uint32_t>> heap; // (key, run) of each run's next item
    std::vector<uint32_t> next;                      // per run: its next item
    std::vector<uint32_t> prefix;                    // per run: its items in the coarse prefix
};

// Merges `runs` (each ascending in keys; empty runs allowed) into `out` (cleared first), ordering
// the items of neighbouring runs (all runs when neighbours.first is empty). max_segments >= 1.
// Runs and keys must satisfy first + count <= keys.size(), neighbours index runs (asserted).
OrderMergeResult mergeSortedRuns(std::span<const uint32_t> keys, std::span<const OrderRun> runs,
                                 OrderNeighbours neighbours, uint32_t max_segments,
                                 OrderMergeScratch& scratch, std::vector<OrderSegment>& out);

} // namespace spindrift
