// What the GPU backend hands the renderer for drawing from the device (gpu/draw_output.h), and
// asynchronous statistics.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "gpu/gpu_parity.h"
#include "kernels/sort_key.h"
#include "vulkan/commands.h"

namespace spindrift::gpu::test {
namespace {

// A steady fountain of particles with random lifetimes, so the live count is well below the
// live bound and the alive list is shuffled by deaths.
EffectDesc fountainEffect() {
    EffectDesc fx;
    fx.name = "fountain";
    fx.seed = 11;
    fx.capacity = 4096;
    EmitterDesc e;
    e.name = "spray";
    e.capacity = 4096;
    e.spawn.rate_per_s = 3000;
    e.init.lifetime_s = {0.2f, 1.0f};
    e.init.speed = {1.0f, 4.0f};
    fx.emitters.push_back(e);
    return fx;
}

// Copies `bytes` of a device-local buffer to the host.
std::vector<unsigned char> readBuffer(GpuEffect& fx, VkBuffer buffer, uint64_t bytes) {
    std::vector<Diagnostic> d;
    vk::Buffer staging = vk::createBuffer(*fx.gpu->device, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                          vk::MemoryUse::readback, "test readback", d);
    EXPECT_TRUE(staging) << joinedDiagnostics(d);
    if (!staging) return {};
    const bool ok = fx.gpu->runner->run(
        "test readback",
        [&](VkCommandBuffer cmd) {
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                              VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferCopy region{0, 0, bytes};
            vkCmdCopyBuffer(cmd, buffer, staging.get(), 1, &region);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        },
        d);
    EXPECT_TRUE(ok) << joinedDiagnostics(d);
    const auto* p = static_cast<const unsigned char*>(staging.mapped);
    return std::vector<unsigned char>(p, p + bytes);
}

// The device-sorted order of the live records is the order the CPU sort gives the same records:
// a stable ascending sort of sdDrawRecordSortKey (ties in alive-list order), live records only.
TEST(GpuDrawOutput, SortsTheLiveRecordsBackToFrontOnTheDevice) {
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(compileOrFail(fountainEffect()), testGpuConfig(), d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 40; ++i) advanceFrame(*fx, dt);
    GpuDrawRequest request;
    request.eye = vec3(0.5f, 1.5f, 6.0f);
    request.sort_modes = {kSortBackToFront};
    ASSERT_TRUE(submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    const uint32_t live = static_cast<uint32_t>(liveCount(*fx));
    const GpuDrawSource source = drawSource(*fx, 0);
    ASSERT_GT(live, 100u);
    ASSERT_LT(live, source.max_records) << "the test wants records past the live count";
    ASSERT_NE(source.order, 0u);

    const std::vector<unsigned char> record_bytes = readBuffer(
        *fx, fx->buffers.draw_record_chunks[0].get(), uint64_t{live} * sizeof(DrawRecord));
    const std::vector<unsigned char> order_bytes = readBuffer(
        *fx, fx->sorting.order[0].get(), uint64_t{source.max_records} * sizeof(uint32_t));
    ASSERT_EQ(record_bytes.size(), size_t{live} * sizeof(DrawRecord));
    std::vector<DrawRecord> records(live);
    std::memcpy(records.data(), record_bytes.data(), record_bytes.size());
    std::vector<uint32_t> order(source.max_records);
    std::memcpy(order.data(), order_bytes.data(), order_bytes.size());

    std::vector<uint32_t> expected(live);
    std::iota(expected.begin(), expected.end(), 0u);
    std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) {
        return sdDrawRecordSortKey(records[a], kSortBackToFront, request.eye) <
               sdDrawRecordSortKey(records[b], kSortBackToFront, request.eye);
    });
    for (uint32_t i = 0; i < live; ++i) ASSERT_EQ(order[i], expected[i]) << "position " << i;
    // Past the live count: the indices of the records that are not live, in order.
    for (uint32_t i = live; i < source.max_records; ++i) EXPECT_EQ(order[i], i);
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

// With asynchronous statistics advanceFrame does not wait; the statistics trail the submissions
// and, once waited for, are exactly the synchronous instance's.
TEST(GpuDrawOutput, AsynchronousStatisticsCatchUpWithTheSynchronousOnes) {
    auto effect = compileOrFail(fountainEffect());
    std::vector<Diagnostic> d;
    GpuConfig async_config = testGpuConfig();
    async_config.async_statistics = true;
    auto sync_fx = createGpuEffect(effect, testGpuConfig(), d);
    auto async_fx = createGpuEffect(effect, async_config, d);
    ASSERT_NE(sync_fx, nullptr) << joinedDiagnostics(d);
    ASSERT_NE(async_fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(effect->effect.fixed_timestep_s);
    for (int i = 0; i < 30; ++i) {
        advanceFrame(*sync_fx, dt);
        advanceFrame(*async_fx, dt);
        EXPECT_EQ(sync_fx->stats_sequence, sync_fx->last_sequence) << "waited every frame";
        EXPECT_LE(async_fx->stats_sequence, async_fx->last_sequence);
        // Never more than the ring behind.
        EXPECT_GE(async_fx->stats_sequence + kGpuSubmissionsInFlight, async_fx->last_sequence);
    }
    ASSERT_TRUE(waitForStatistics(*async_fx)) << joinedDiagnostics(async_fx->errors);
    EXPECT_EQ(async_fx->stats_sequence, async_fx->last_sequence);
    EXPECT_EQ(liveCount(*async_fx), liveCount(*sync_fx));
    EXPECT_EQ(async_fx->stats[0].births, sync_fx->stats[0].births);
    EXPECT_EQ(async_fx->stats[0].deaths, sync_fx->stats[0].deaths);
    EXPECT_GT(async_fx->stats[0].deaths, 0u);
    EXPECT_TRUE(validationMessages(*async_fx).empty()) << joined(validationMessages(*async_fx));
}

} // namespace
} // namespace spindrift::gpu::test

namespace spindrift::gpu::test {
namespace {

// Records that straddle draw-record chunks come as pieces: contiguous, each after the `skip`
// records before it, none past the live bound; such an emitter is left unsorted (its order
// would index two buffers).
TEST(GpuDrawOutput, RecordsInSeveralChunksComeAsContiguousPieces) {
    std::vector<Diagnostic> d;
    GpuConfig config = testGpuConfig();
    config.max_buffer_bytes = 64 * 1024; // 1024 draw records per chunk
    auto fx = createGpuEffect(compileOrFail(fountainEffect()), config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 40; ++i) advanceFrame(*fx, dt);
    GpuDrawRequest request;
    request.sort_modes = {kSortBackToFront};
    ASSERT_TRUE(submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    const uint32_t pieces = drawSourceCount(*fx, 0);
    ASSERT_GE(pieces, 4u);
    const uint32_t bound = liveBoundOf(*fx, 0);
    ASSERT_GT(bound, 1024u);
    for (uint32_t k = 0; k < pieces; ++k) {
        const GpuDrawSource s = drawSource(*fx, 0, k);
        EXPECT_EQ(s.skip, k * 1024u) << "piece " << k;
        EXPECT_EQ(s.max_records, s.skip < bound ? std::min(1024u, bound - s.skip) : 0u);
        EXPECT_EQ(s.order, 0u) << "unsorted across chunks";
        EXPECT_NE(s.records, 0u);
    }
    EXPECT_EQ(pieces, (fx->layout.regions[0].capacity + 1023) / 1024);
    EXPECT_EQ(drawSource(*fx, 0, pieces).records, 0u) << "no piece past the last";
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

} // namespace
} // namespace spindrift::gpu::test
