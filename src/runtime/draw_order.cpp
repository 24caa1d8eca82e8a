// The k-way merge of sorted runs (runtime/draw_order.h).
#include "runtime/draw_order.h"

#include <algorithm>
#include <cassert>
#include <functional>

namespace spindrift {

namespace {

using HeapItem = std::pair<uint32_t, uint32_t>; // (key, run): the lower run wins a tie

// The most neighbours scanned for a run's bound; past it the heap's top bounds it.
constexpr uint32_t kMaxNeighbourScan = 16;

// The smallest (key, run) of the next items of run r's neighbours, into bound; false when every
// neighbour is used up.
bool neighbourBound(std::span<const uint32_t> keys, std::span<const OrderRun> runs,
                    const OrderNeighbours& neighbours, const std::vector<uint32_t>& next,
                    uint32_t r, HeapItem& bound) {
    bool any = false;
    for (uint32_t i = neighbours.first[r]; i < neighbours.first[r + 1]; ++i) {
        const uint32_t s = neighbours.runs[i];
        assert(s < runs.size());
        if (s == r || next[s] >= runs[s].count) continue;
        const HeapItem item(keys[runs[s].first + next[s]], s);
        if (!any || item < bound) bound = item;
        any = true;
    }
    return any;
}

// The exact merge. Each step takes the run with the smallest (key, run) and keeps taking from it
// while its next item still precedes every other run's next item (every neighbour's, when the
// caller names neighbours), so the heap is touched once per segment, not once per item. Taking
// the smallest first keeps every neighbour pair in order: when an item is taken, each neighbour's
// items before it have been taken already.
void mergeExact(std::span<const uint32_t> keys, std::span<const OrderRun> runs,
                const OrderNeighbours& neighbours, OrderMergeScratch& scratch,
                std::vector<OrderSegment>& out) {
    assert(neighbours.first.empty() || neighbours.first.size() == runs.size() + 1);
    std::vector<HeapItem>& heap = scratch.heap;
    heap.clear();
    scratch.next.assign(runs.size(), 0);
    for (uint32_t r = 0; r < runs.size(); ++r) {
        assert(runs[r].first <= keys.size() && runs[r].count <= keys.size() - runs[r].first);
        if (runs[r].count > 0) heap.emplace_back(keys[runs[r].first], r);
    }
    const std::greater<HeapItem> after;
    std::make_heap(heap.begin(), heap.end(), after);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), after);
        const uint32_t r = heap.back().second;
        heap.pop_back();
        const OrderRun& run = runs[r];
        const uint32_t start = scratch.next[r];
        uint32_t end = start + 1;
        HeapItem bound;
        bool bounded = false;
        // A run with many neighbours is bounded by every run's next item (the heap's smallest,
        // never after a neighbour's): a few more segments, but no scan of a long list per
        // segment.
        const bool scan = !neighbours.first.empty() &&
                          neighbours.first[r + 1] - neighbours.first[r] <= kMaxNeighbourScan;
        if (!scan) {
            bounded = !heap.empty();
            if (bounded) bound = heap.front();
        } else {
            bounded = neighbourBound(keys, runs, neighbours, scratch.next, r, bound);
        }
        if (!bounded) {
            end = run.count;
        } else {
            while (end < run.count && HeapItem(keys[run.first + end], r) < bound) ++end;
        }
        out.push_back({r, start, end - start});
        scratch.next[r] = end;
        if (end < run.count) {
            heap.emplace_back(keys[run.first + end], r);
            std::push_heap(heap.begin(), heap.end(), after);
        }
    }
}

// Replaces the shortest prefix of the merge whose replacement brings the count to max_segments
// with one segment per run (runs' items of the prefix, in run order). Replacing one more segment
// removes one and adds at most one (a run not yet in the prefix), so the count never grows as the
// prefix does and the first prefix that fits is the shortest. Returns the items of the prefix.
uint64_t coarsenFarPart(size_t runs, uint32_t max_segments, OrderMergeScratch& scratch,
                        std::vector<OrderSegment>& out) {
    std::vector<uint32_t>& prefix = scratch.prefix;
    prefix.assign(runs, 0);
    const size_t total = out.size();
    size_t taken = 0, distinct = 0;
    uint64_t items = 0;
    while (taken < total && distinct + (total - taken) > max_segments) {
        const OrderSegment& s = out[taken++];
        if (prefix[s.run] == 0) ++distinct;
        prefix[s.run] += s.count;
        items += s.count;
    }
    // distinct <= taken: the rest moves down (or stays), then the prefix is written before it.
    std::move(out.begin() + static_cast<std::ptrdiff_t>(taken), out.end(),
              out.begin() + static_cast<std::ptrdiff_t>(distinct));
    out.resize(distinct + (total - taken));
    size_t at = 0;
    for (uint32_t r = 0; r < runs; ++r) {
        if (prefix[r] > 0) out[at++] = {r, 0, prefix[r]};
    }
    // The last prefix segment and the first exact one may be one run's consecutive items: join
    // them, so every segment stays maximal.
    if (distinct > 0 && at < out.size() && out[at].run == out[at - 1].run) {
        out[at - 1].count += out[at].count;
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(at));
    }
    return items;
}

} // namespace

OrderMergeResult mergeSortedRuns(std::span<const uint32_t> keys, std::span<const OrderRun> runs,
                                 OrderNeighbours neighbours, uint32_t max_segments,
                                 OrderMergeScratch& scratch, std::vector<OrderSegment>& out) {
    assert(max_segments >= 1);
    out.clear();
    mergeExact(keys, runs, neighbours, scratch, out);
    OrderMergeResult result;
    result.exact_segments = out.size();
    if (out.size() > max_segments)
        result.coarsened_items = coarsenFarPart(runs.size(), max_segments, scratch, out);
    return result;
}

} // namespace spindrift
