// The draw order of an emitter's particles: both sort paths (insertion below the threshold,
// radix at or above) against std::stable_sort on the float keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "render/particle_sort.h"

namespace spindrift::render {
namespace {

DrawRecord recordAt(float x, float y, float z, float age) {
    DrawRecord r{};
    r.position_size = vec4(x, y, z, 1);
    r.normalized_age = age;
    return r;
}

// Random records; with coarse set, positions and ages come from a few values so ties abound.
std::vector<DrawRecord> randomRecords(size_t n, uint32_t seed, bool coarse) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> position(-50, 50);
    std::uniform_real_distribution<float> age(0, 1);
    std::uniform_int_distribution<int> few(-3, 3);
    std::vector<DrawRecord> records(n);
    for (DrawRecord& r : records) {
        r = coarse ? recordAt(float(few(rng)), float(few(rng)), 0, float(few(rng) + 3) / 6)
                   : recordAt(position(rng), position(rng), position(rng), age(rng));
    }
    return records;
}

// The reference: std::stable_sort of indices by the float key the mode names.
std::vector<uint32_t> referenceOrder(const std::vector<DrawRecord>& records, uint32_t mode,
                                     vec3 eye) {
    std::vector<uint32_t> order(records.size());
    std::iota(order.begin(), order.end(), 0u);
    auto distance = [&](uint32_t i) {
        const vec3 p(records[i].position_size);
        return dot(p - eye, p - eye);
    };
    auto age = [&](uint32_t i) { return records[i].normalized_age; };
    switch (mode) {
    case kSortBackToFront:
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return distance(a) > distance(b); });
        break;
    case kSortFrontToBack:
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return distance(a) < distance(b); });
        break;
    case kSortOldestFirst:
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return age(a) > age(b); });
        break;
    case kSortNewestFirst:
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return age(a) < age(b); });
        break;
    default:
        break;
    }
    return order;
}

std::vector<uint32_t> drawOrder(const std::vector<DrawRecord>& records, uint32_t mode, vec3 eye,
                                SortScratch& scratch) {
    std::vector<uint32_t> order(records.size());
    particleDrawOrder(records, mode, eye, scratch, order);
    return order;
}

TEST(ParticleSort, FloatKeysKeepTheFloatOrderAndMergeSignedZeros) {
    const float values[] = {-std::numeric_limits<float>::infinity(),
                            -3e38f,
                            -1.5f,
                            -std::numeric_limits<float>::denorm_min(),
                            0.0f,
                            std::numeric_limits<float>::denorm_min(),
                            1e-20f,
                            1.0f,
                            2.5e30f,
                            std::numeric_limits<float>::infinity()};
    for (size_t i = 1; i < std::size(values); ++i)
        EXPECT_LT(orderedFloatKey(values[i - 1]), orderedFloatKey(values[i])) << values[i];
    EXPECT_EQ(orderedFloatKey(-0.0f), orderedFloatKey(0.0f));
}

TEST(ParticleSort, BothPathsMatchStableSortAroundTheThreshold) {
    const vec3 eye(3, 10, -7);
    SortScratch scratch;
    const size_t sizes[] = {
        0,    1,   2, 17, kRadixSortThreshold - 1, kRadixSortThreshold, kRadixSortThreshold + 1,
        1000, 5000};
    for (const size_t n : sizes) {
        for (const bool coarse : {false, true}) {
            const auto records = randomRecords(n, static_cast<uint32_t>(n * 2 + coarse), coarse);
            for (uint32_t mode = 0; mode < kSortCount; ++mode) {
                EXPECT_EQ(drawOrder(records, mode, eye, scratch),
                          referenceOrder(records, mode, eye))
                    << "n " << n << " mode " << mode << " coarse " << coarse;
            }
        }
    }
}

TEST(ParticleSort, TiesKeepTheInputOrderOnBothPaths) {
    SortScratch scratch;
    for (const size_t n : {size_t(100), size_t(600)}) {
        // Every record exactly 4 m from the eye (on the four axis points) and of the same age.
        std::vector<DrawRecord> records;
        for (size_t i = 0; i < n; ++i) {
            const float s = (i % 2 == 0) ? 4.0f : -4.0f;
            records.push_back((i % 4 < 2) ? recordAt(s, 0, 0, 0.5f) : recordAt(0, 0, s, 0.5f));
        }
        for (uint32_t mode = 0; mode < kSortCount; ++mode) {
            const auto order = drawOrder(records, mode, vec3(0), scratch);
            for (size_t i = 0; i < n; ++i) ASSERT_EQ(order[i], i) << "mode " << mode << " n " << n;
        }
    }
}

TEST(ParticleSort, SortsBackToFrontWithNegativeAndPositiveCoordinates) {
    SortScratch scratch;
    for (const size_t n : {size_t(9), size_t(300)}) {
        std::vector<DrawRecord> records;
        for (size_t i = 0; i < n; ++i) {
            // Alternating sides of the eye, distances |i - n/2| + 1 scrambled.
            const float d = float((i * 7) % n) + 1;
            records.push_back(recordAt(i % 2 ? -d : d, -2, 0, 0));
        }
        std::vector<DrawRecord> sorted = records;
        sortDrawRecords(sorted, kSortBackToFront, vec3(0, -2, 0), scratch);
        for (size_t i = 1; i < n; ++i) {
            EXPECT_GE(std::fabs(sorted[i - 1].position_size.x),
                      std::fabs(sorted[i].position_size.x))
                << i;
        }
        // A permutation: nothing lost or duplicated.
        std::vector<float> before, after;
        for (size_t i = 0; i < n; ++i) {
            before.push_back(records[i].position_size.x);
            after.push_back(sorted[i].position_size.x);
        }
        std::sort(before.begin(), before.end());
        std::sort(after.begin(), after.end());
        EXPECT_EQ(before, after);
    }
}

TEST(ParticleSort, AgeModesPutOldestOrNewestFirst) {
    SortScratch scratch;
    std::vector<DrawRecord> records = {recordAt(0, 0, 0, 0.2f), recordAt(1, 0, 0, 0.9f),
                                       recordAt(2, 0, 0, 0.0f), recordAt(3, 0, 0, 0.5f)};
    std::vector<DrawRecord> oldest = records;
    sortDrawRecords(oldest, kSortOldestFirst, vec3(0), scratch);
    EXPECT_EQ(oldest[0].normalized_age, 0.9f);
    EXPECT_EQ(oldest[3].normalized_age, 0.0f);
    std::vector<DrawRecord> newest = records;
    sortDrawRecords(newest, kSortNewestFirst, vec3(0), scratch);
    EXPECT_EQ(newest[0].normalized_age, 0.0f);
    EXPECT_EQ(newest[3].normalized_age, 0.9f);
}

TEST(ParticleSort, NoneAndUnknownModesKeepTheOrder) {
    SortScratch scratch;
    const auto records = randomRecords(400, 5, false);
    for (const uint32_t mode : {kSortNone, kSortCount, 99u}) {
        std::vector<DrawRecord> copy = records;
        sortDrawRecords(copy, mode, vec3(1, 2, 3), scratch);
        for (size_t i = 0; i < copy.size(); ++i)
            ASSERT_EQ(copy[i].position_size, records[i].position_size);
    }
}

TEST(ParticleSort, NaNKeysGetAFixedPlaceOnBothPaths) {
    // Not something a backend produces; the promise is only determinism and agreement.
    SortScratch scratch;
    for (const size_t n : {size_t(50), size_t(500)}) {
        auto records = randomRecords(n, 11, false);
        for (size_t i = 0; i < n; i += 7)
            records[i].normalized_age = std::numeric_limits<float>::quiet_NaN();
        const auto first = drawOrder(records, kSortNewestFirst, vec3(0), scratch);
        const auto second = drawOrder(records, kSortNewestFirst, vec3(0), scratch);
        EXPECT_EQ(first, second);
        // Positive quiet NaNs sort after +infinity: last for newest-first.
        const size_t nans = (n + 6) / 7;
        for (size_t i = n - nans; i < n; ++i) EXPECT_EQ(first[i] % 7, 0u) << i;
    }
}

TEST(ParticleSort, ScratchStopsGrowingOnceWarm) {
    SortScratch scratch;
    auto records = randomRecords(2000, 3, false);
    sortDrawRecords(records, kSortBackToFront, vec3(0), scratch);
    const uint32_t* keys = scratch.keys.data();
    const DrawRecord* copy = scratch.records.data();
    for (int i = 0; i < 3; ++i) {
        auto again = randomRecords(1500 + 100 * size_t(i), 4 + uint32_t(i), false);
        sortDrawRecords(again, kSortFrontToBack, vec3(1), scratch);
    }
    EXPECT_EQ(scratch.keys.data(), keys);
    EXPECT_EQ(scratch.records.data(), copy);
}

} // namespace
} // namespace spindrift::render
