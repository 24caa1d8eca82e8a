// The merge of sorted runs behind the view's one back-to-front order (runtime/draw_order.h):
// exact interleaving, ties, empty and single runs, maximal segments, and the segment cap.
#include "runtime/draw_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace spindrift {
namespace {

// Runs given as key lists, laid out one after another in one key array.
struct Runs {
    std::vector<uint32_t> keys;
    std::vector<OrderRun> runs;
    explicit Runs(const std::vector<std::vector<uint32_t>>& lists) {
        for (const auto& l : lists) {
            runs.push_back({static_cast<uint32_t>(keys.size()), static_cast<uint32_t>(l.size())});
            keys.insert(keys.end(), l.begin(), l.end());
        }
    }
};

// The (run, item) sequence the segments draw.
std::vector<std::pair<uint32_t, uint32_t>> expand(const std::vector<OrderSegment>& segments) {
    std::vector<std::pair<uint32_t, uint32_t>> items;
    for (const OrderSegment& s : segments)
        for (uint32_t i = 0; i < s.count; ++i) items.emplace_back(s.run, s.first + i);
    return items;
}

std::vector<OrderSegment> merge(const Runs& r, uint32_t cap = 4096,
                                OrderMergeResult* result = nullptr) {
    OrderMergeScratch scratch;
    std::vector<OrderSegment> out;
    const OrderMergeResult m = mergeSortedRuns(r.keys, r.runs, {}, cap, scratch, out);
    if (result != nullptr) *result = m;
    return out;
}

bool same(const OrderSegment& a, const OrderSegment& b) {
    return a.run == b.run && a.first == b.first && a.count == b.count;
}

TEST(DrawOrderMerge, InterleavesTwoRunsIntoMaximalSegments) {
    const Runs r({{1, 2, 5, 6, 9}, {3, 4, 7, 8}});
    const std::vector<OrderSegment> s = merge(r);
    const std::vector<OrderSegment> expected = {
        {0, 0, 2}, {1, 0, 2}, {0, 2, 2}, {1, 2, 2}, {0, 4, 1}};
    ASSERT_EQ(s.size(), expected.size());
    for (size_t i = 0; i < s.size(); ++i) EXPECT_TRUE(same(s[i], expected[i])) << i;
}

TEST(DrawOrderMerge, EqualKeysGoToTheLowerRunFirstAndKeepRunOrder) {
    // Every key equal: the whole of run 0, then run 1, then run 2, each in its own order.
    const Runs r({{7, 7, 7}, {7, 7}, {7}});
    const std::vector<OrderSegment> s = merge(r);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_TRUE(same(s[0], {0, 0, 3}));
    EXPECT_TRUE(same(s[1], {1, 0, 2}));
    EXPECT_TRUE(same(s[2], {2, 0, 1}));
    // A tie between a later run's item and an earlier run's next item: the earlier run first.
    const Runs t({{2, 4}, {1, 4, 4}});
    const auto items = expand(merge(t));
    const std::vector<std::pair<uint32_t, uint32_t>> want = {
        {1, 0}, {0, 0}, {0, 1}, {1, 1}, {1, 2}};
    EXPECT_EQ(items, want);
}

TEST(DrawOrderMerge, SkipsEmptyRunsAndKeepsOneRunWhole) {
    EXPECT_TRUE(merge(Runs({})).empty());
    EXPECT_TRUE(merge(Runs({{}, {}})).empty());
    const std::vector<OrderSegment> one = merge(Runs({{}, {3, 1, 2}, {}}));
    // One non-empty run is one segment, whatever its keys (it is drawn as it is).
    ASSERT_EQ(one.size(), 1u);
    EXPECT_TRUE(same(one[0], {1, 0, 3}));
}

TEST(DrawOrderMerge, MatchesAStableSortOfAllItems) {
    // Pseudo-random runs, each sorted: the merge is the stable sort by (key, run, item).
    uint32_t state = 12345;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    std::vector<std::vector<uint32_t>> lists(6);
    for (auto& l : lists) {
        l.resize(next() % 40);
        for (uint32_t& k : l) k = next() % 16; // many ties
        std::sort(l.begin(), l.end());
    }
    const Runs r(lists);
    OrderMergeResult m;
    const std::vector<OrderSegment> s = merge(r, 4096, &m);
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> all;
    for (uint32_t run = 0; run < lists.size(); ++run)
        for (uint32_t i = 0; i < lists[run].size(); ++i) all.emplace_back(lists[run][i], run, i);
    std::sort(all.begin(), all.end());
    const auto items = expand(s);
    ASSERT_EQ(items.size(), all.size());
    for (size_t i = 0; i < items.size(); ++i) {
        EXPECT_EQ(items[i].first, std::get<1>(all[i])) << i;
        EXPECT_EQ(items[i].second, std::get<2>(all[i])) << i;
    }
    for (size_t i = 1; i < s.size(); ++i) EXPECT_NE(s[i].run, s[i - 1].run) << "not maximal";
    EXPECT_EQ(m.exact_segments, s.size());
    EXPECT_EQ(m.coarsened_items, 0u);
}

TEST(DrawOrderMerge, PastTheCapCoarsensTheFarPartAndCountsIt) {
    // Two perfectly alternating runs of 10: the exact merge needs 20 segments.
    std::vector<uint32_t> a, b;
    for (uint32_t i = 0; i < 10; ++i) {
        a.push_back(2 * i);
        b.push_back(2 * i + 1);
    }
    const Runs r({a, b});
    OrderMergeResult m;
    const std::vector<OrderSegment> s = merge(r, 6, &m);
    EXPECT_EQ(m.exact_segments, 20u);
    ASSERT_EQ(s.size(), 6u);
    // The far prefix drawn per run (run 0's part, then run 1's), the near part exact: the last
    // four exact segments are items 8 and 9 of each run, alternating.
    EXPECT_TRUE(same(s[0], {0, 0, 8}));
    EXPECT_TRUE(same(s[1], {1, 0, 8}));
    EXPECT_TRUE(same(s[2], {0, 8, 1}));
    EXPECT_TRUE(same(s[3], {1, 8, 1}));
    EXPECT_TRUE(same(s[4], {0, 9, 1}));
    EXPECT_TRUE(same(s[5], {1, 9, 1}));
    EXPECT_EQ(m.coarsened_items, 16u);
    // Every item drawn exactly once.
    auto items = expand(s);
    std::sort(items.begin(), items.end());
    EXPECT_EQ(std::unique(items.begin(), items.end()), items.end());
    EXPECT_EQ(items.size(), 20u);
}

TEST(DrawOrderMerge, ACapBelowTheRunCountDrawsEachRunWhole) {
    const Runs r({{0, 3}, {1, 4}, {2, 5}});
    OrderMergeResult m;
    const std::vector<OrderSegment> s = merge(r, 1, &m);
    // Never fewer segments than non-empty runs: each run in its own order, in run order.
    ASSERT_EQ(s.size(), 3u);
    for (uint32_t i = 0; i < 3; ++i) EXPECT_TRUE(same(s[i], {i, 0, 2})) << i;
    EXPECT_EQ(m.exact_segments, 6u);
    EXPECT_EQ(m.coarsened_items, 6u);
}

TEST(DrawOrderMerge, JoinsTheCoarsePartToTheExactPartOfTheSameRun) {
    // Exact: (0: 0..1) (1: 0) (0: 2) (1: 1..2) (0: 3): five segments; cap 4.
    const Runs r({{0, 1, 3, 6}, {2, 4, 5}});
    OrderMergeResult m;
    const std::vector<OrderSegment> s = merge(r, 4, &m);
    EXPECT_EQ(m.exact_segments, 5u);
    ASSERT_LE(s.size(), 4u);
    for (size_t i = 1; i < s.size(); ++i) EXPECT_NE(s[i].run, s[i - 1].run) << "not maximal";
    auto items = expand(s);
    EXPECT_EQ(items.size(), 7u);
    std::sort(items.begin(), items.end());
    EXPECT_EQ(std::unique(items.begin(), items.end()), items.end());
}

// Neighbour table from (a, b) pairs, both ways.
struct Table {
    std::vector<uint32_t> first, runs;
    Table(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
        std::vector<std::vector<uint32_t>> adj(n);
        for (const auto& [a, b] : pairs) {
            adj[a].push_back(b);
            adj[b].push_back(a);
        }
        first.push_back(0);
        for (const auto& l : adj) {
            runs.insert(runs.end(), l.begin(), l.end());
            first.push_back(static_cast<uint32_t>(runs.size()));
        }
    }
    OrderNeighbours view() const { return {first, runs}; }
};

TEST(DrawOrderMerge, RunsThatAreNotNeighboursAreNotCutIntoStretches) {
    // Two interleaved runs that cannot overlap on the screen: each drawn whole, the run whose
    // first key is smallest first.
    const Runs r({{1, 3, 5, 7}, {2, 4, 6, 8}});
    OrderMergeScratch scratch;
    std::vector<OrderSegment> out;
    const Table none(2, {});
    const OrderMergeResult m = mergeSortedRuns(r.keys, r.runs, none.view(), 4096, scratch, out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_TRUE(same(out[0], {0, 0, 4}));
    EXPECT_TRUE(same(out[1], {1, 0, 4}));
    EXPECT_EQ(m.exact_segments, 2u);
    // As neighbours they interleave item by item.
    const Table both(2, {{0, 1}});
    mergeSortedRuns(r.keys, r.runs, both.view(), 4096, scratch, out);
    EXPECT_EQ(out.size(), 8u);
}

TEST(DrawOrderMerge, NeighboursKeepTheirOrderWhateverTheOthersDo) {
    // A chain: 0 - 1 - 2 (0 and 2 not neighbours), plus 3 alone; random interleaved keys.
    uint32_t state = 99;
    auto next = [&] { return state = state * 1664525u + 1013904223u; };
    std::vector<std::vector<uint32_t>> lists(4);
    for (auto& l : lists) {
        l.resize(30);
        for (uint32_t& k : l) k = next() % 50;
        std::sort(l.begin(), l.end());
    }
    const Runs r(lists);
    const Table t(4, {{0, 1}, {1, 2}});
    OrderMergeScratch scratch;
    std::vector<OrderSegment> out;
    const OrderMergeResult m = mergeSortedRuns(r.keys, r.runs, t.view(), 4096, scratch, out);
    const auto items = expand(out);
    ASSERT_EQ(items.size(), 120u);
    // Position of each item in the drawn order.
    std::vector<std::vector<size_t>> at(4, std::vector<size_t>(30));
    for (size_t i = 0; i < items.size(); ++i) at[items[i].first][items[i].second] = i;
    auto ordered = [&](uint32_t a, uint32_t b) {
        for (uint32_t i = 0; i < 30; ++i) {
            for (uint32_t j = 0; j < 30; ++j) {
                const auto ka = std::make_pair(lists[a][i], a), kb = std::make_pair(lists[b][j], b);
                if ((ka < kb) != (at[a][i] < at[b][j])) return false;
            }
        }
        return true;
    };
    EXPECT_TRUE(ordered(0, 1));
    EXPECT_TRUE(ordered(1, 2));
    for (uint32_t run = 0; run < 4; ++run)
        for (uint32_t i = 1; i < 30; ++i) EXPECT_LT(at[run][i - 1], at[run][i]);
    // Fewer stretches than the total order needs: run 3 is drawn whole.
    size_t of_three = 0;
    for (const OrderSegment& s : out) of_three += s.run == 3;
    EXPECT_EQ(of_three, 1u);
    EXPECT_EQ(m.exact_segments, out.size());
}

TEST(DrawOrderMerge, AWarmScratchAndOutputAreReused) {
    const Runs r({{1, 3, 5}, {2, 4, 6}});
    OrderMergeScratch scratch;
    std::vector<OrderSegment> out;
    mergeSortedRuns(r.keys, r.runs, {}, 4096, scratch, out);
    const auto* data = out.data();
    const size_t capacity = out.capacity();
    mergeSortedRuns(r.keys, r.runs, {}, 4096, scratch, out);
    EXPECT_EQ(out.data(), data);
    EXPECT_EQ(out.capacity(), capacity);
    EXPECT_EQ(out.size(), 6u);
}

} // namespace
} // namespace spindrift
