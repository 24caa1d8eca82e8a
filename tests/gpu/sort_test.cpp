// The GPU radix sort on lavapipe (or any device), validation on: results must equal
// std::stable_sort of (key, payload) pairs, and the key pass + sort must give the CPU sort's
// draw order. Both ranking paths run (subgroup ballot where the device has it, and the portable
// one), each with both scans (chained, reduce-then-scan) and with the chained scan's fallback
// forced (every tile counts its predecessor's keys itself, and no spins: any unpublished word
// is counted too); every test fails on any validation message.
#include "gpu/sort/gpu_radix_sort.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu/sort/radix_sort_shared.h"
#include "gpu/sort/sort_context.h"
#include "gpu/sort/sort_keys_pass.h"
#include "gpu/subgroup_support.h"
#include "kernels/sort_key.h"
#include "render/particle_sort.h"

namespace spindrift::gpu {
namespace {

constexpr uint32_t kMaxCount = 1u << 20;

std::string errors(const std::vector<Diagnostic>& d) {
    std::string s;
    for (const Diagnostic& x : d) s += formatDiagnostic(x) + "\n";
    return s;
}

// A ranking path and a scan: the sort's configuration a test runs with.
enum class Variant {
    subgroup_chained,
    portable_chained,
    subgroup_reduce_then_scan,
    portable_reduce_then_scan,
    subgroup_fallback, // chained scan, fallback forced
    portable_fallback,
};
constexpr Variant kVariants[] = {
    Variant::subgroup_chained,          Variant::portable_chained,
    Variant::subgroup_reduce_then_scan, Variant::portable_reduce_then_scan,
    Variant::subgroup_fallback,         Variant::portable_fallback};
constexpr size_t kVariantCount = std::size(kVariants);

bool portable(Variant v) {
    return v == Variant::portable_chained || v == Variant::portable_reduce_then_scan ||
           v == Variant::portable_fallback;
}
bool forcedFallback(Variant v) {
    return v == Variant::subgroup_fallback || v == Variant::portable_fallback;
}
bool reduceThenScan(Variant v) {
    return v == Variant::subgroup_reduce_then_scan || v == Variant::portable_reduce_then_scan;
}

std::string variantName(Variant v) {
    const char* names[] = {"SubgroupChained",        "PortableChained",  "SubgroupReduceThenScan",
                           "PortableReduceThenScan", "SubgroupFallback", "PortableFallback"};
    return names[static_cast<size_t>(v)];
}

// One device for the whole process, and one sort per variant made when a test first asks for
// it: each test runs in a process of its own (ctest), and compiling every variant's pipelines in
// each was most of the suite's time (lavapipe, more so under the sanitizers).
struct Shared {
    SortContext context;
    std::optional<GpuRadixSort> sorts[kVariantCount]; // subgroup ones absent without ballot
    bool made[kVariantCount] = {};
    std::optional<GpuSortKeyPass> keys;
    std::string error;
};

Shared& shared() {
    static Shared s = [] {
        Shared r;
        std::vector<Diagnostic> diagnostics;
        if (!openSortContext(true, "", r.context, diagnostics)) r.error = errors(diagnostics);
        return r;
    }();
    return s;
}

// The variant's sort (empty for a subgroup variant on a device without ballot), made the first
// time; a failure to make it is in shared().error.
std::optional<GpuRadixSort>& sortFor(Variant v) {
    Shared& s = shared();
    const auto i = static_cast<size_t>(v);
    if (s.made[i] || !s.error.empty()) return s.sorts[i];
    s.made[i] = true;
    GpuRadixSortConfig config;
    config.max_count = kMaxCount;
    config.force_portable_ranking = portable(v);
    config.scan = reduceThenScan(v) ? GpuSortScan::reduce_then_scan : GpuSortScan::chained;
    if (forcedFallback(v)) {
        config.force_look_back_fallback = true;
        config.look_back_spins = 0;
    }
    std::vector<Diagnostic> diagnostics;
    std::optional<GpuRadixSort>& sort = s.sorts[i];
    sort = createGpuRadixSort(*s.context.device, config, diagnostics);
    if (!sort) s.error = errors(diagnostics);
    if (sort && !portable(v) && !sort->subgroup_ranking) sort.reset();
    return sort;
}

// The key pass, made the first time; null when it could not be (shared().error says why).
const GpuSortKeyPass* keyPass() {
    Shared& s = shared();
    if (!s.keys && s.error.empty()) {
        std::vector<Diagnostic> diagnostics;
        s.keys = createGpuSortKeyPass(*s.context.device, diagnostics);
        if (!s.keys) s.error = errors(diagnostics);
    }
    return s.keys ? &*s.keys : nullptr;
}

// The look-back fallbacks the last sort with `sort` ran (its counter word, read back).
uint32_t lastSortFallbacks(const GpuRadixSort& sort) {
    Shared& s = shared();
    std::vector<Diagnostic> diagnostics;
    vk::Buffer back =
        vk::createBuffer(*s.context.device, sizeof(uint32_t), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "fallbacks", diagnostics);
    EXPECT_TRUE(back) << errors(diagnostics);
    if (!back) return 0;
    const bool ran = s.context.runner->run(
        "read fallbacks",
        [&](VkCommandBuffer cmd) {
            VkBufferCopy region{kSortFallbackWord * sizeof(uint32_t), 0, sizeof(uint32_t)};
            vkCmdCopyBuffer(cmd, sort.digit_counts.get(), back.get(), 1, &region);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        },
        diagnostics);
    EXPECT_TRUE(ran) << errors(diagnostics);
    uint32_t fallbacks = 0;
    std::memcpy(&fallbacks, back.mapped, sizeof fallbacks);
    return fallbacks;
}

class GpuSortTest : public ::testing::TestWithParam<Variant> {
protected:
    void SetUp() override {
        Shared& s = shared();
        ASSERT_TRUE(s.error.empty()) << s.error;
        const bool made = sortFor(GetParam()).has_value();
        ASSERT_TRUE(s.error.empty()) << s.error;
        if (!made) GTEST_SKIP() << "the device has no subgroup-ballot ranking path";
        messages_before_ = s.context.instance->messages().messages().size();
    }
    void TearDown() override {
        Shared& s = shared();
        if (!s.context.instance) return;
        const std::vector<std::string>& m = s.context.instance->messages().messages();
        std::string text;
        for (size_t i = messages_before_; i < m.size(); ++i) text += m[i] + "\n";
        EXPECT_TRUE(text.empty()) << "validation messages:\n" << text;
    }
    const GpuRadixSort& sort() const { return *sortFor(GetParam()); }

    // Sorts keys with payload = input index on the device and checks the result equals
    // std::stable_sort of the pairs by key.
    void expectStableSort(const std::vector<uint32_t>& keys) {
        std::vector<uint32_t> payloads(keys.size());
        std::iota(payloads.begin(), payloads.end(), 0u);
        std::vector<uint32_t> expected_order = payloads;
        std::stable_sort(expected_order.begin(), expected_order.end(),
                         [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });

        std::vector<uint32_t> gpu_keys = keys;
        std::vector<uint32_t> gpu_payloads = payloads;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(gpuSortAndWait(*shared().context.device, *shared().context.runner, sort(),
                                   gpu_keys, gpu_payloads, diagnostics))
            << errors(diagnostics);
        for (size_t i = 0; i < keys.size(); ++i) {
            ASSERT_EQ(gpu_payloads[i], expected_order[i]) << "at " << i << " of " << keys.size();
            ASSERT_EQ(gpu_keys[i], keys[expected_order[i]]) << "at " << i << " of " << keys.size();
        }
    }

private:
    size_t messages_before_ = 0;
};

std::vector<uint32_t> randomKeys(size_t n, uint32_t seed, uint32_t mask = 0xffffffffu) {
    std::mt19937 rng(seed);
    std::vector<uint32_t> keys(n);
    for (uint32_t& k : keys) k = static_cast<uint32_t>(rng()) & mask;
    return keys;
}

TEST_P(GpuSortTest, SortsRandomKeysOfEveryAwkwardCount) {
    for (size_t n : {0u, 1u, 2u, 7u, 255u, 256u, 1000u, 4095u, 4096u, 4097u, 65537u}) {
        SCOPED_TRACE(n);
        expectStableSort(randomKeys(n, static_cast<uint32_t>(n) + 1u));
    }
}

TEST_P(GpuSortTest, SortsCountsAroundTileBoundaries) {
    // kSortTileKeys = 4096: partial last tiles of one key, full last tiles, 17 whole tiles.
    for (size_t n : {8191u, 8192u, 8193u, 3u * 4096u - 1u, 3u * 4096u + 1u, 17u * 4096u}) {
        SCOPED_TRACE(n);
        expectStableSort(randomKeys(n, static_cast<uint32_t>(n) * 3u));
    }
}

TEST_P(GpuSortTest, SortsKeysThatDifferOnlyInTheTopDigit) {
    // Passes 0-2 copy, pass 3 sorts.
    std::vector<uint32_t> keys = randomKeys(50000, 13u, 0xff000000u);
    for (uint32_t& k : keys) k |= 0x00a5c3e1u;
    expectStableSort(keys);
    // Only two values of the top digit: long runs of ties across many tiles.
    keys = randomKeys(50000, 14u, 0x80000000u);
    expectStableSort(keys);
}

// Keys and their input indices (the payloads) in host-visible buffers a sort reads at their
// device addresses and sorts in place.
struct HostPairs {
    std::vector<uint32_t> keys;
    vk::Buffer key_buffer;
    vk::Buffer payload_buffer;
};

HostPairs hostPairs(std::vector<uint32_t> keys, std::vector<Diagnostic>& diagnostics) {
    HostPairs p;
    const vk::Device& device = *shared().context.device;
    const VkDeviceSize bytes = keys.size() * sizeof(uint32_t);
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    p.key_buffer =
        vk::createBuffer(device, bytes, usage, vk::MemoryUse::readback, "keys", diagnostics);
    p.payload_buffer =
        vk::createBuffer(device, bytes, usage, vk::MemoryUse::readback, "payloads", diagnostics);
    if (!p.key_buffer || !p.payload_buffer) return p;
    std::vector<uint32_t> indices(keys.size());
    std::iota(indices.begin(), indices.end(), 0u);
    std::memcpy(p.key_buffer.mapped, keys.data(), bytes);
    std::memcpy(p.payload_buffer.mapped, indices.data(), bytes);
    p.keys = std::move(keys);
    return p;
}

// Records `sorts` into one submission, then makes their writes visible to the host, and waits.
bool runSorts(const char* what, const std::function<bool(VkCommandBuffer)>& sorts,
              std::vector<Diagnostic>& diagnostics) {
    bool recorded = false;
    const bool ran = shared().context.runner->run(
        what,
        [&](VkCommandBuffer cmd) {
            recorded = sorts(cmd);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                              VK_ACCESS_2_HOST_READ_BIT);
        },
        diagnostics);
    return ran && recorded;
}

// The pairs are std::stable_sort of (key & mask, input index).
void expectSortedBy(const HostPairs& p, uint32_t mask, const std::string& label) {
    std::vector<uint32_t> order(p.keys.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return (p.keys[a] & mask) < (p.keys[b] & mask);
    });
    const auto* gpu_keys = static_cast<const uint32_t*>(p.key_buffer.mapped);
    const auto* gpu_payloads = static_cast<const uint32_t*>(p.payload_buffer.mapped);
    for (size_t i = 0; i < order.size(); ++i) {
        ASSERT_EQ(gpu_payloads[i], order[i]) << label << " at " << i;
        ASSERT_EQ(gpu_keys[i], p.keys[order[i]]) << label << " at " << i;
    }
}

TEST_P(GpuSortTest, SortsTwiceInOneSubmission) {
    // The second sort reuses the scratch (histogram, tile counts) the first one left.
    std::vector<Diagnostic> diagnostics;
    const HostPairs first = hostPairs(randomKeys(30000, 21u), diagnostics);
    const HostPairs second = hostPairs(randomKeys(30000, 22u, 0x00ffff00u), diagnostics);
    ASSERT_TRUE(first.key_buffer && second.key_buffer) << errors(diagnostics);
    const auto n = static_cast<uint32_t>(first.keys.size());
    ASSERT_TRUE(runSorts(
        "two sorts",
        [&](VkCommandBuffer cmd) {
            return recordGpuRadixSort(cmd, sort(), first.key_buffer.address,
                                      first.payload_buffer.address, n, diagnostics) &&
                   recordGpuRadixSort(cmd, sort(), second.key_buffer.address,
                                      second.payload_buffer.address, n, diagnostics);
        },
        diagnostics))
        << errors(diagnostics);
    expectSortedBy(first, 0xffffffffu, "sort 0");
    expectSortedBy(second, 0xffffffffu, "sort 1");
}

// A sort cut after its second pass (GpuSortTimestamps::phase_count 7: the histogram and two
// passes of upsweep, scan and downsweep; what the benchmark's cut profile times) leaves the pairs
// in the caller's buffers stably sorted by the low 16 bits alone: each phase ran as in the full
// sort, and none after the cut.
TEST_P(GpuSortTest, ACutSortRunsOnlyItsFirstPhases) {
    std::vector<Diagnostic> diagnostics;
    const HostPairs pairs = hostPairs(randomKeys(20000, 31u), diagnostics);
    ASSERT_TRUE(pairs.key_buffer) << errors(diagnostics);
    GpuSortTimestamps cut;
    cut.phase_count = 7;
    ASSERT_TRUE(runSorts(
        "cut sort",
        [&](VkCommandBuffer cmd) {
            return recordGpuRadixSort(cmd, sort(), pairs.key_buffer.address,
                                      pairs.payload_buffer.address,
                                      static_cast<uint32_t>(pairs.keys.size()), diagnostics, cut);
        },
        diagnostics))
        << errors(diagnostics);
    expectSortedBy(pairs, 0xffffu, "cut sort");
}

TEST_P(GpuSortTest, SortsAMillionRandomKeys) {
    expectStableSort(randomKeys(kMaxCount, 7u));
}

TEST_P(GpuSortTest, KeepsInputOrderOfEqualKeys) {
    // Few distinct keys: long runs of ties in every tile and every ranking group.
    expectStableSort(randomKeys(100000, 3u, 0x0300000fu));
    expectStableSort(std::vector<uint32_t>(20000, 0xdeadbeefu)); // every pass trivial
}

TEST_P(GpuSortTest, SortsSortedAndReversedInput) {
    std::vector<uint32_t> keys(70000);
    for (size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<uint32_t>(i * 2654435761u >> 7);
    std::sort(keys.begin(), keys.end());
    expectStableSort(keys);
    std::reverse(keys.begin(), keys.end());
    expectStableSort(keys);
}

TEST_P(GpuSortTest, SkipsPassesWhoseDigitIsConstant) {
    // Only the second byte varies: passes 0, 2 and 3 copy, pass 1 sorts.
    std::vector<uint32_t> keys = randomKeys(30000, 11u, 0x0000ff00u);
    for (uint32_t& k : keys) k |= 0x12340056u;
    expectStableSort(keys);
}

TEST_P(GpuSortTest, RejectsMoreKeysThanTheScratchHolds) {
    std::vector<uint32_t> keys(kMaxCount + 1u), payloads(kMaxCount + 1u);
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(gpuSortAndWait(*shared().context.device, *shared().context.runner, sort(), keys,
                                payloads, diagnostics));
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_NE(diagnostics.back().message.find("1048576"), std::string::npos) << errors(diagnostics);
}

TEST_P(GpuSortTest, CountsLookBackFallbacksOnlyWhereTheChainedScanRuns) {
    // 17 tiles of random keys: every pass sorts, so with the fallback forced each of tiles 1..16
    // counts its predecessor at least once per pass; reduce-then-scan never looks back.
    expectStableSort(randomKeys(17u * 4096u, 31u));
    const uint32_t fallbacks = lastSortFallbacks(sort());
    if (forcedFallback(GetParam())) {
        EXPECT_GE(fallbacks, 4u * 16u);
    }
    if (reduceThenScan(GetParam())) {
        EXPECT_EQ(fallbacks, 0u);
    }
    EXPECT_EQ(sort().chained_scan, !reduceThenScan(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Sort, GpuSortTest, ::testing::ValuesIn(kVariants),
                         [](const ::testing::TestParamInfo<Variant>& param_info) {
                             return variantName(param_info.param);
                         });

// The subgroup variants skip on a device without the subgroup path; lavapipe (CI) has ballot,
// shuffle and arithmetic, so there they must run, or the subgroup scans and ranking go untested.
TEST(GpuSortCreate, PicksTheSubgroupPathWhereTheDeviceHasIt) {
    Shared& s = shared();
    ASSERT_TRUE(s.error.empty()) << s.error;
    const SubgroupSupport support = querySubgroups(s.context.device->physical());
    const bool fits = support.ballot && support.arithmetic && support.size >= 8 &&
                      support.size <= 128 && (support.size & (support.size - 1)) == 0;
    EXPECT_EQ(sortFor(Variant::subgroup_chained).has_value(), fits);
    if (s.context.physical.name.find("llvmpipe") != std::string::npos) {
        EXPECT_TRUE(fits);
    }
}

TEST(GpuSortCreate, RejectsTooManyLookBackSpins) {
    Shared& s = shared();
    ASSERT_TRUE(s.error.empty()) << s.error;
    std::vector<Diagnostic> diagnostics;
    GpuRadixSortConfig config;
    config.max_count = 1000;
    config.look_back_spins = kGpuSortLookBackSpinsMax + 1u;
    EXPECT_FALSE(createGpuRadixSort(*s.context.device, config, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("look_back_spins"), std::string::npos)
        << errors(diagnostics);
}

TEST(GpuSortCreate, RejectsAZeroOrHugeMaximum) {
    Shared& s = shared();
    ASSERT_TRUE(s.error.empty()) << s.error;
    for (uint32_t max_count : {0u, kGpuSortMaxCount + 1u}) {
        std::vector<Diagnostic> diagnostics;
        GpuRadixSortConfig config;
        config.max_count = max_count;
        EXPECT_FALSE(createGpuRadixSort(*s.context.device, config, diagnostics));
        ASSERT_EQ(diagnostics.size(), 1u);
        EXPECT_NE(diagnostics[0].message.find("max_count"), std::string::npos)
            << errors(diagnostics);
    }
}

// Records through a device buffer: the GPU key pass + sort against the CPU sort's order.
std::vector<DrawRecord> drawRecords(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> coord(-20.0f, 20.0f);
    std::vector<DrawRecord> records(n);
    for (size_t i = 0; i < n; ++i) {
        // Every fourth record repeats an earlier position and age: ties the order must keep.
        if (i % 4 == 3) {
            records[i] = records[i / 2];
            records[i].key = static_cast<uint32_t>(i);
            continue;
        }
        vec3 p(coord(rng), coord(rng), coord(rng));
        if (i % 7 == 0) p = vec3(0.0f); // equal distances, and -0/+0 coordinates below
        if (i % 14 == 7) p = vec3(-0.0f, 0.0f, -0.0f);
        records[i] = sdDrawRecord(p, 1.0f, vec4(1.0f), vec3(0.0f), 0.0f,
                                  static_cast<float>(rng() % 1000) / 999.0f, 0.0f, 0u,
                                  static_cast<uint32_t>(i));
    }
    return records;
}

std::vector<uint32_t> gpuDrawOrder(const std::vector<DrawRecord>& records, uint32_t sort_mode,
                                   vec3 eye, const GpuRadixSort& sort) {
    Shared& s = shared();
    const GpuSortKeyPass* pass = keyPass();
    EXPECT_NE(pass, nullptr) << s.error;
    if (pass == nullptr) return {};
    const vk::Device& device = *s.context.device;
    const uint32_t n = static_cast<uint32_t>(records.size());
    const VkDeviceSize record_bytes = records.size() * sizeof(DrawRecord);
    const VkDeviceSize bytes = VkDeviceSize{n} * sizeof(uint32_t);
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    std::vector<Diagnostic> diagnostics;
    vk::Buffer device_records = vk::createBuffer(device, record_bytes, usage, vk::MemoryUse::upload,
                                                 "records", diagnostics);
    vk::Buffer keys =
        vk::createBuffer(device, bytes, usage, vk::MemoryUse::readback, "keys", diagnostics);
    vk::Buffer order =
        vk::createBuffer(device, bytes, usage, vk::MemoryUse::readback, "order", diagnostics);
    EXPECT_TRUE(device_records && keys && order) << errors(diagnostics);
    if (!device_records || !keys || !order) return {};
    std::memcpy(device_records.mapped, records.data(), record_bytes);
    bool recorded = false;
    bool ran = s.context.runner->run(
        "key pass + sort",
        [&](VkCommandBuffer cmd) {
            recordSortKeys(cmd, *pass, {device_records.address}, n, sort_mode, eye, keys.address,
                           order.address);
            recorded = recordGpuRadixSort(cmd, sort, keys.address, order.address, n, diagnostics);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                              VK_ACCESS_2_HOST_READ_BIT);
        },
        diagnostics);
    EXPECT_TRUE(ran && recorded) << errors(diagnostics);
    std::vector<uint32_t> result(n);
    std::memcpy(result.data(), order.mapped, bytes);
    return result;
}

TEST_P(GpuSortTest, DrawsRecordsInTheCpuSortsOrder) {
    const vec3 eye(1.5f, -2.0f, 30.0f);
    for (size_t n : {100u, 5000u}) { // both sides of the CPU's insertion/radix threshold
        const std::vector<DrawRecord> records = drawRecords(n, 5u + static_cast<uint32_t>(n));
        for (uint32_t mode :
             {kSortNone, kSortBackToFront, kSortFrontToBack, kSortOldestFirst, kSortNewestFirst}) {
            SCOPED_TRACE("n " + std::to_string(n) + " mode " + std::to_string(mode));
            std::vector<uint32_t> cpu(n);
            render::SortScratch scratch;
            render::particleDrawOrder(records, mode, eye, scratch, cpu);
            EXPECT_EQ(gpuDrawOrder(records, mode, eye, sort()), cpu);
        }
    }
}

TEST(GpuSortKeys, MatchTheCpuKernelBitForBit) {
    Shared& s = shared();
    ASSERT_TRUE(s.error.empty()) << s.error;
    // Keys read back from the key pass alone (a sort of count 0 would not touch them): the
    // mode's key of every record, exactly as the C++ kernel computes it.
    const std::vector<DrawRecord> records = drawRecords(3000, 17u);
    const vec3 eye(-3.0f, 0.25f, 12.0f);
    const vk::Device& device = *s.context.device;
    const VkBufferUsageFlags usage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    std::vector<Diagnostic> diagnostics;
    vk::Buffer device_records = vk::createBuffer(device, records.size() * sizeof(DrawRecord), usage,
                                                 vk::MemoryUse::upload, "records", diagnostics);
    vk::Buffer keys = vk::createBuffer(device, records.size() * 4, usage, vk::MemoryUse::readback,
                                       "keys", diagnostics);
    vk::Buffer payloads = vk::createBuffer(device, records.size() * 4, usage,
                                           vk::MemoryUse::readback, "payloads", diagnostics);
    ASSERT_TRUE(device_records && keys && payloads) << errors(diagnostics);
    const GpuSortKeyPass* pass = keyPass();
    ASSERT_NE(pass, nullptr) << s.error;
    std::memcpy(device_records.mapped, records.data(), records.size() * sizeof(DrawRecord));
    for (uint32_t mode : {kSortBackToFront, kSortFrontToBack, kSortOldestFirst, kSortNewestFirst}) {
        ASSERT_TRUE(s.context.runner->run(
            "key pass",
            [&](VkCommandBuffer cmd) {
                recordSortKeys(cmd, *pass, {device_records.address},
                               static_cast<uint32_t>(records.size()), mode, eye, keys.address,
                               payloads.address);
                vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                  VK_ACCESS_2_HOST_READ_BIT);
            },
            diagnostics))
            << errors(diagnostics);
        const uint32_t* gpu_keys = static_cast<const uint32_t*>(keys.mapped);
        const uint32_t* gpu_payloads = static_cast<const uint32_t*>(payloads.mapped);
        for (size_t i = 0; i < records.size(); ++i) {
            ASSERT_EQ(gpu_keys[i], sdDrawRecordSortKey(records[i], mode, eye))
                << "record " << i << " mode " << mode;
            ASSERT_EQ(gpu_payloads[i], i);
        }
    }
    std::string text;
    for (const std::string& m : s.context.instance->messages().messages()) text += m + "\n";
    EXPECT_TRUE(text.empty()) << text;
}

} // namespace
} // namespace spindrift::gpu
