// What the GPU backend hands the renderer for drawing from the device (gpu/draw_output.h), and
// asynchronous statistics: one draw per emitter over all its draw-record chunks, sorted or not.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "gpu/gpu_parity.h"
#include "kernels/sort_key.h"
#include "render/billboard_params.h"
#include "render/device_records.h"
#include "render/renderer.h"
#include "vulkan/commands.h"

namespace spindrift::gpu::test {
namespace {

// A steady fountain of particles with random lifetimes, so the live count is well below the
// live bound and the alive list is shuffled by deaths.
EffectDesc fountainEffect() {
    return testEffect({.name = "fountain", .seed = 11, .capacity = 4096},
                      {sprayEmitter({.name = "spray",
                                     .capacity = 4096,
                                     .rate_per_s = 3000,
                                     .lifetime_s = {0.2f, 1.0f},
                                     .speed = {1.0f, 4.0f}})});
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

// A small emitter ahead of the fountain, so that under a small buffer limit the fountain's
// records start inside a chunk and straddle several.
EffectDesc leadAndFountainEffect() {
    EffectDesc fx = fountainEffect();
    EmitterDesc lead = fx.emitters[0];
    lead.name = "lead";
    lead.capacity = 300;
    lead.spawn.rate_per_s = 400;
    fx.emitters.insert(fx.emitters.begin(), lead);
    fx.capacity += lead.capacity;
    return fx;
}

constexpr uint64_t kChunkRecords = 1024; // draw records per chunk under kSmallBuffers
constexpr uint64_t kSmallBuffers = kChunkRecords * sizeof(DrawRecord);

// Emitter e's live records and its sorted order (max_records entries), read back.
struct DeviceSorted {
    std::vector<DrawRecord> records;
    std::vector<uint32_t> order;
};

DeviceSorted readSorted(GpuEffect& fx, uint32_t emitter) {
    DeviceSorted out;
    std::vector<DrawRecord> all;
    std::vector<Diagnostic> d;
    EXPECT_TRUE(readBackDrawRecordsForTest(fx, all, d)) << joinedDiagnostics(d);
    uint64_t first = 0;
    for (uint32_t e = 0; e < emitter; ++e) first += fx.stats[e].live;
    out.records.assign(all.begin() + static_cast<std::ptrdiff_t>(first),
                       all.begin() + static_cast<std::ptrdiff_t>(first + fx.stats[emitter].live));
    const uint32_t max_records = drawSource(fx, emitter).max_records;
    const std::vector<unsigned char> bytes =
        readBuffer(fx, fx.sorting.order[emitter].get(), uint64_t{max_records} * sizeof(uint32_t));
    out.order.resize(max_records);
    std::memcpy(out.order.data(), bytes.data(), std::min(bytes.size(), out.order.size() * 4));
    return out;
}

// The device-sorted order of the live records is the order the CPU sort gives the same records:
// a stable ascending sort of sdDrawRecordSortKey (ties in alive-list order), live records only,
// whether an emitter's records lie in one draw-record chunk or straddle several (the order then
// indexes the emitter's records over all its chunks).
class GpuDrawOutputSort : public ::testing::TestWithParam<uint64_t> {};

TEST_P(GpuDrawOutputSort, SortsTheLiveRecordsBackToFrontOnTheDevice) {
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(compileOrFail(leadAndFountainEffect()), testGpuConfig(GetParam()), d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 40; ++i) advanceFrame(*fx, dt);
    GpuDrawRequest request;
    request.eye = vec3(0.5f, 1.5f, 6.0f);
    request.sort_modes = {kSortBackToFront, kSortBackToFront};
    ASSERT_TRUE(submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    const bool chunked = GetParam() == kSmallBuffers;
    if (chunked) {
        ASSERT_GE(fx->layout.chunk_records.size(), 5u);
        EXPECT_GT(fx->stats[1].live, kChunkRecords) << "the fountain straddles chunks";
    } else {
        ASSERT_EQ(fx->layout.chunk_records.size(), 1u);
    }
    for (uint32_t e = 0; e < 2; ++e) {
        const uint32_t live = static_cast<uint32_t>(fx->stats[e].live);
        const GpuDrawSource source = drawSource(*fx, e);
        ASSERT_GT(live, 100u);
        ASSERT_LT(live, source.max_records) << "the test wants records past the live count";
        ASSERT_NE(source.order, 0u);
        const DeviceSorted sorted = readSorted(*fx, e);
        ASSERT_EQ(sorted.records.size(), live);

        std::vector<uint32_t> expected(live);
        std::iota(expected.begin(), expected.end(), 0u);
        std::stable_sort(expected.begin(), expected.end(), [&](uint32_t a, uint32_t b) {
            return sdDrawRecordSortKey(sorted.records[a], kSortBackToFront, request.eye) <
                   sdDrawRecordSortKey(sorted.records[b], kSortBackToFront, request.eye);
        });
        for (uint32_t i = 0; i < live; ++i) {
            ASSERT_EQ(sorted.order[i], expected[i]) << "emitter " << e << " position " << i;
        }
        // Past the live count: the indices of the records that are not live, in order.
        for (uint32_t i = live; i < source.max_records; ++i) EXPECT_EQ(sorted.order[i], i);
    }
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

INSTANTIATE_TEST_SUITE_P(OneChunkAndSeveral, GpuDrawOutputSort,
                         ::testing::Values(kGpuMaxBufferBytes, kSmallBuffers));

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

// An emitter whose records straddle draw-record chunks is one draw source: the table of its
// chunks from the one holding its first record, its index there, the chunk size, its live count
// and its whole live bound; sorted or not.
TEST(GpuDrawOutput, RecordsInSeveralChunksAreOneDrawSource) {
    std::vector<Diagnostic> d;
    auto fx =
        createGpuEffect(compileOrFail(leadAndFountainEffect()), testGpuConfig(kSmallBuffers), d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 40; ++i) advanceFrame(*fx, dt);
    GpuDrawRequest request;
    request.sort_modes = {kSortNone, kSortBackToFront};
    ASSERT_TRUE(submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    ASSERT_GT(liveBoundOf(*fx, 1), kChunkRecords);
    for (uint32_t e = 0; e < 2; ++e) {
        const GpuDrawSource s = drawSource(*fx, e);
        const uint64_t first = fx->layout.regions[e].first_draw_record;
        EXPECT_EQ(s.records.address,
                  fx->buffers.draw_chunk_table + first / kChunkRecords * sizeof(uint64_t));
        EXPECT_EQ(s.records.chunk_records, kChunkRecords);
        EXPECT_EQ(s.records.first_in_chunk, first % kChunkRecords);
        EXPECT_EQ(s.max_records, liveBoundOf(*fx, e));
        EXPECT_NE(s.count, 0u);
        EXPECT_EQ(s.order != 0, e == 1) << "sorted only when asked";
    }
    EXPECT_EQ(fx->layout.regions[1].first_draw_record, 300u) << "the fountain starts mid-chunk";
    EXPECT_EQ(drawSource(*fx, 2).max_records, 0u) << "no emitter past the last";
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

// Renders the fountain (alpha-blended, so the draw order shows) simulated under
// max_buffer_bytes and drawn from the device with the sort `mode`.
Image renderFountain(uint64_t max_buffer_bytes, uint32_t mode) {
    std::vector<Diagnostic> d;
    render::RendererConfig renderer_config;
    renderer_config.width = 96;
    renderer_config.height = 64;
    renderer_config.validation = true;
    render::RendererPtr renderer = render::createRenderer(renderer_config, d);
    EXPECT_NE(renderer, nullptr) << joinedDiagnostics(d);
    if (!renderer) return {};
    EffectDesc desc = leadAndFountainEffect();
    for (EmitterDesc& e : desc.emitters) {
        e.render.blend = BlendMode::alpha;
        e.init.color.mode = ColorMode::random_between;
        e.init.color.a = {1, 0.3f, 0.1f, 0.6f};
        e.init.color.b = {0.1f, 0.4f, 1, 0.6f};
        e.init.size = {0.2f, 0.4f};
    }
    GpuConfig config = testGpuConfig(max_buffer_bytes);
    config.shared_device = render::rendererContext(*renderer);
    auto fx = createGpuEffect(compileOrFail(desc), config, d);
    EXPECT_NE(fx, nullptr) << joinedDiagnostics(d);
    if (!fx) return {};
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 40; ++i) advanceFrame(*fx, dt);
    render::FrameView view;
    view.camera = {{0.5f, 1.5f, 6.0f}, {0, 0.5f, 0}, {0, 1, 0}};
    GpuDrawRequest request;
    request.eye = vec3(0.5f, 1.5f, 6.0f);
    request.sort_modes = {mode, mode};
    EXPECT_TRUE(submitDrawOutput(*fx, request, d)) << joinedDiagnostics(d);
    std::vector<render::DrawBatch> batches;
    for (uint32_t e = 0; e < 2; ++e) {
        render::BillboardBatch batch;
        batch.params = render::billboardParams(fx->effect->emitters[e], fx->world_from_effect);
        batch.device = render::deviceRecords(drawSource(*fx, e));
        batches.push_back(batch);
    }
    Image image;
    render::FrameStats stats;
    EXPECT_TRUE(render::renderFrame(*renderer, view, batches, image, stats, d))
        << joinedDiagnostics(d);
    EXPECT_EQ(stats.device_batches, 2u) << "one draw per emitter, chunked or not";
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
    EXPECT_TRUE(render::validationMessages(*renderer).empty())
        << joined(render::validationMessages(*renderer));
    return image;
}

size_t channelsDiffering(const Image& a, const Image& b) {
    size_t n = 0;
    for (size_t i = 0; i < std::min(a.rgba8.size(), b.rgba8.size()); ++i) {
        n += a.rgba8[i] != b.rgba8[i];
    }
    return n;
}

// A sorted emitter whose records straddle draw-record chunks is drawn in one back-to-front draw:
// the image is the one-chunk image, and the order visibly matters (the unsorted draw differs).
TEST(GpuDrawOutput, ASortedEmitterOverSeveralChunksRendersAsInOneChunk) {
    const Image one_chunk = renderFountain(kGpuMaxBufferBytes, kSortBackToFront);
    const Image chunked = renderFountain(kSmallBuffers, kSortBackToFront);
    const Image unsorted = renderFountain(kSmallBuffers, kSortNone);
    ASSERT_FALSE(one_chunk.rgba8.empty());
    ASSERT_EQ(chunked.rgba8.size(), one_chunk.rgba8.size());
    ASSERT_EQ(unsorted.rgba8.size(), one_chunk.rgba8.size());
    EXPECT_EQ(channelsDiffering(chunked, one_chunk), 0u);
    EXPECT_GT(channelsDiffering(unsorted, one_chunk), 100u) << "the order shows in the image";
}

} // namespace
} // namespace spindrift::gpu::test
