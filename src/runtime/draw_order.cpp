// The k-way merge of sorted runs (runtime/draw_order.h).
#include "runtime/draw_order.h"

#include <algorithm>
#include <cassert>
#include <functional>

namespace spindrift {

namespace {

using HeapItem = std::pair<uint32_t, uint32_t>; // (key, run): the lower run wins a tie

// The exact merge. Each step takes the run with the smallest (key, run) and keeps taking from it
// while its next item still precedes every other run's next item, so each segment is maximal and
// the heap is touched once per segment, not once per item.
void mergeExact(std::span<const uint32_t> keys, std::span<const OrderRun> runs,
                OrderMergeScratch& scratch, std::vector<OrderSegment>& out) {
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
        if (heap.empty()) {
            end = run.count;
        } else {
            const HeapItem& top = heap.front();
            while (end < run.count && HeapItem(keys[run.first + end], r) < top) ++end;
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
                                 uint32_t max_segments, OrderMergeScratch& scratch,
                                 std::vector<OrderSegment>& out) {
    assert(max_segments >= 1);
    out.clear();
    mergeExact(keys, runs, scratch, out);
    OrderMergeResult result;
    result.exact_segments = out.size();
    if (out.size() > max_segments)
        result.coarsened_items = coarsenFarPart(runs.size(), max_segments, scratch, out);
    return result;
}

} // namespace spindrift
