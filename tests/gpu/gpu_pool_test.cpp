// The GPU pool's layout on a device (docs/gpu-backend.md, "The pool"): parity with the CPU when
// the buffer limit is forced down to a few KiB, so every emitter's columns spread over many pool
// buffers and its draw records over many chunks, straddling chunk boundaries; the same with the
// portable (shared-memory) compaction; refusals past the memory limit. Lavapipe, validation on.
#include "gpu/gpu_parity.h"
#include "vulkan/commands.h"

#include <cstdio>

namespace spindrift::gpu::test {
namespace {

constexpr uint32_t kSteps = 90;

// Two emitters with short, varied lives and steady rates, so particles die every step and the
// alive and free lists churn; a burst fills the first emitter to its capacity (drop_new).
EffectDesc churnEffect() {
    std::vector<EmitterDesc> emitters;
    for (uint32_t k = 0; k < 2; ++k) {
        EmitterDesc e =
            sprayEmitter({.name = k == 0 ? "fast" : "slow",
                          .capacity = k == 0 ? 300u : 200u,
                          .rate_per_s = k == 0 ? 900.0f : 250.0f,
                          .burst_time_s = 0.2f,
                          .burst_count = k == 0 ? CountRange{150, 150} : CountRange{},
                          .sphere_radius = 0.5f,
                          .lifetime_s = k == 0 ? FloatRange{0.05f, 0.5f} : FloatRange{0.2f, 1.0f},
                          .speed = {0.5f, 3},
                          .size = {0.05f, 0.2f}});
        e.update.push_back(UpdateModule{true, GravityModule{}});
        e.update.push_back(UpdateModule{true, DragModule{1}});
        emitters.push_back(e);
    }
    return testEffect({.name = "churn", .seed = 19, .duration_s = 3, .capacity = 600}, emitters);
}

// The first `count` entries of the alive list emitter e's next step reads; empty on failure.
std::vector<uint32_t> readAliveList(const GpuEffect& fx, uint32_t e, uint32_t count,
                                    std::vector<Diagnostic>& d) {
    const ColumnPlace& c = fx.layout.regions[e].columns[kGpuColumnAlive0 + fx.list_in];
    vk::Buffer staging =
        vk::createBuffer(*fx.gpu->device, uint64_t{count} * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         vk::MemoryUse::readback, "test readback", d);
    if (!staging) return {};
    const bool ok = fx.gpu->runner->run(
        "test readback",
        [&](VkCommandBuffer cmd) {
            VkBufferCopy region{c.offset_bytes, 0, uint64_t{count} * 4};
            vkCmdCopyBuffer(cmd, fx.buffers.pool[c.buffer].get(), staging.get(), 1, &region);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        },
        d);
    if (!ok) return {};
    const auto* slots = static_cast<const uint32_t*>(staging.mapped);
    return std::vector<uint32_t>(slots, slots + count);
}

// The effect under `config` really splits: several pool buffers and draw-record chunks, each
// within the limit.
void expectSplit(std::shared_ptr<const CompiledEffect> effect, const GpuConfig& config) {
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(std::move(effect), config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    EXPECT_GT(fx->buffers.pool.size(), 4u);
    EXPECT_GT(fx->buffers.draw_record_chunks.size(), 2u);
    for (const vk::Buffer& b : fx->buffers.pool) EXPECT_LE(b.size, config.max_buffer_bytes);
    for (const vk::Buffer& b : fx->buffers.draw_record_chunks) {
        EXPECT_LE(b.size, config.max_buffer_bytes);
    }
    std::printf("  %zu pool buffers, %zu draw-record chunks, %s compaction\n",
                fx->buffers.pool.size(), fx->buffers.draw_record_chunks.size(),
                fx->gpu->passes->variant.subgroup_append ? "subgroup" : "portable");
}

void expectPoolParity(std::shared_ptr<const CompiledEffect> effect, const GpuConfig& config) {
    EXPECT_GT(gpu::test::expectParity(std::move(effect), kSteps, false, config).particles, 0u);
}

TEST(GpuPool, MatchesTheCpuWithColumnsAndDrawRecordsSplitOverManyBuffers) {
    // Columns of 1280 and 1024 bytes, three a buffer at most; 62 draw records a chunk, so the
    // emitters' records straddle chunks at odd places.
    const GpuConfig config = testGpuConfig(4000);
    const auto effect = compileOrFail(churnEffect());
    expectSplit(effect, config);
    expectPoolParity(effect, config);
}

TEST(GpuPool, MatchesTheCpuOnASampleSplitOverManyBuffers) {
    const GpuConfig config = testGpuConfig(1000); // campfire: columns of 512 and 256 bytes
    expectSplit(loadSample("campfire.json"), config);
    expectPoolParity(loadSample("campfire.json"), config);
}

TEST(GpuPool, MatchesTheCpuWithThePortableCompaction) {
    GpuConfig config = testGpuConfig();
    config.force_portable_append = true;
    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(compileOrFail(churnEffect()), config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    EXPECT_FALSE(fx->gpu->passes->variant.subgroup_append);
    expectPoolParity(compileOrFail(churnEffect()), config);
    config.max_buffer_bytes = 4000;
    expectPoolParity(compileOrFail(churnEffect()), config);
}

// The staged compaction (gpu_compact.glsl) flushing many times within one dispatch: one
// workgroup updates every particle, so each invocation loops ~40 times and each subgroup flushes
// its staged survivors and deaths every ~15 iterations (lavapipe's subgroups of 8 and the H200's
// of 32 alike), under steady churn; the lists it writes must still give the CPU's counts and
// state, and the list read back must hold each live slot once.
TEST(GpuPool, MatchesTheCpuWhenTheCompactionFlushesManyTimesInOneDispatch) {
    EmitterDesc e = sprayEmitter({.name = "busy",
                                  .capacity = 3000u,
                                  .rate_per_s = 9000.0f,
                                  .burst_time_s = 0.0f,
                                  .burst_count = CountRange{2500, 2500},
                                  .sphere_radius = 0.5f,
                                  .lifetime_s = FloatRange{0.05f, 0.6f},
                                  .speed = {0.5f, 3},
                                  .size = {0.05f, 0.2f}});
    e.update.push_back(UpdateModule{true, GravityModule{}});
    const auto effect =
        compileOrFail(testEffect({.name = "flushes", .seed = 7, .duration_s = 3, .capacity = 3000},
                                 std::vector<EmitterDesc>{e}));
    GpuConfig config = testGpuConfig();
    config.update_max_workgroups = 1;
    expectPoolParity(effect, config);

    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(effect, config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    ASSERT_TRUE(fx->gpu->passes->variant.subgroup_append)
        << "lavapipe and the H200 both stage per subgroup";
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 20; ++i) advanceFrame(*fx, dt);
    const auto live = static_cast<uint32_t>(fx->stats[0].live);
    ASSERT_GT(live, 64u * 30u) << "enough particles for many iterations per invocation";
    const std::vector<uint32_t> list = readAliveList(*fx, 0, live, d);
    ASSERT_EQ(list.size(), live) << joinedDiagnostics(d);
    std::vector<uint32_t> sorted = list;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end())
        << "a slot listed twice";
    EXPECT_LT(sorted.back(), 3000u);
}

// The ordered compaction (gpu_ordered_compact.comp) over many chunks of kGpuOrderedChunk
// entries: a stable_order emitter dying all through its list, and a full replace_oldest emitter
// whose burst replaces thousands of its oldest particles in one step, so the replaced run, the
// dead and the kept survivors all cross chunk boundaries. The same with one workgroup looping
// over every chunk. Counts, state and draw order must match the CPU.
std::shared_ptr<const CompiledEffect> orderedEffect() {
    EmitterDesc stable = sprayEmitter({.name = "stable",
                                       .capacity = 6000u,
                                       .rate_per_s = 9000.0f,
                                       .burst_time_s = 0.3f,
                                       .burst_count = CountRange{2500, 2500},
                                       .sphere_radius = 0.5f,
                                       .lifetime_s = FloatRange{0.05f, 0.6f},
                                       .speed = {0.5f, 3},
                                       .size = {0.05f, 0.2f}});
    stable.render.stable_order = true;
    EmitterDesc oldest = sprayEmitter({.name = "oldest",
                                       .capacity = 5000u,
                                       .rate_per_s = 9000.0f,
                                       .burst_time_s = 0.75f,
                                       .burst_count = CountRange{3000, 3000},
                                       .sphere_radius = 0.5f,
                                       .lifetime_s = FloatRange{0.3f, 2.0f},
                                       .speed = {0.5f, 3},
                                       .size = {0.05f, 0.2f}});
    oldest.overflow = OverflowPolicy::replace_oldest;
    for (EmitterDesc* e : {&stable, &oldest})
        e->update.push_back(UpdateModule{true, DragModule{1}});
    return compileOrFail(
        testEffect({.name = "ordered", .seed = 23, .duration_s = 3, .capacity = 11000},
                   std::vector<EmitterDesc>{stable, oldest}));
}

TEST(GpuPool, TheOrderedCompactionMatchesTheCpuAcrossManyChunks) {
    const auto effect = orderedEffect();
    GpuConfig config = testGpuConfig();
    for (const bool relocate : {true, false}) {
        for (const uint32_t groups : {kGpuMaxWorkgroups, 1u}) {
            SCOPED_TRACE(testing::Message() << "relocate " << relocate << ", groups " << groups);
            config.relocate_birth_order = relocate;
            config.ordered_max_workgroups = groups;
            const ParityResult r = gpu::test::expectParity(effect, kSteps, false, config);
            EXPECT_GT(r.replaced, 3000u) << "the burst replaced particles of several chunks";
            ASSERT_EQ(r.per_emitter.size(), 2u);
            EXPECT_GT(r.per_emitter[0], 2u * kGpuOrderedChunk);
            EXPECT_EQ(r.per_emitter[1], 5000u);
            EXPECT_EQ(r.in_order, r.per_emitter[0]) << "the stable emitter compared in draw order";
        }
    }
}

// Relocation (birth_order.h): after steps of out-of-order deaths, replacements and births, the
// list the next step reads names slots 0, 1, 2, ... (slot order is birth order). Without
// relocation the same steps scatter the slots, which is what relocation is for.
TEST(GpuPool, BirthOrderEmittersThatRelocateKeepTheirSlotsInBirthOrder) {
    const auto effect = orderedEffect();
    for (const bool relocate : {true, false}) {
        SCOPED_TRACE(relocate);
        GpuConfig config = testGpuConfig();
        config.relocate_birth_order = relocate;
        std::vector<Diagnostic> d;
        auto fx = createGpuEffect(effect, config, d);
        ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
        const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
        for (int i = 0; i < 60; ++i) advanceFrame(*fx, dt); // past the burst that replaces
        for (uint32_t e = 0; e < 2; ++e) {
            EXPECT_EQ(fx->layout.regions[e].relocates, relocate);
            const auto live = static_cast<uint32_t>(fx->stats[e].live);
            ASSERT_GT(live, 2u * kGpuOrderedChunk);
            const std::vector<uint32_t> slots = readAliveList(*fx, e, live, d);
            ASSERT_EQ(slots.size(), live) << joinedDiagnostics(d);
            uint32_t in_place = 0;
            for (uint32_t i = 0; i < live; ++i) in_place += slots[i] == i ? 1u : 0u;
            if (relocate) {
                EXPECT_EQ(in_place, live) << "emitter " << e;
            } else {
                EXPECT_LT(in_place, live / 2) << "emitter " << e;
            }
        }
    }
}

// Alive lists sorted by slot after steps with births (alive_list_order.h): the churning effect
// and the campfire still match the CPU with every emitter's list sorted, and the list the next
// step reads is ascending over the live count.
TEST(GpuPool, AliveListsSortedBySlotUnderChurnKeepParity) {
    GpuConfig config = testGpuConfig();
    config.min_sorted_list = 0;
    expectPoolParity(compileOrFail(churnEffect()), config);
    expectPoolParity(loadSample("campfire.json"), config);

    std::vector<Diagnostic> d;
    auto fx = createGpuEffect(compileOrFail(churnEffect()), config, d);
    ASSERT_NE(fx, nullptr) << joinedDiagnostics(d);
    ASSERT_TRUE(fx->list_sort.has_value());
    const double dt = static_cast<double>(fx->effect->effect.fixed_timestep_s);
    for (int i = 0; i < 45; ++i) advanceFrame(*fx, dt);
    for (uint32_t e = 0; e < 2; ++e) {
        const uint32_t live = static_cast<uint32_t>(fx->stats[e].live);
        ASSERT_GT(live, 10u);
        const std::vector<uint32_t> slots = readAliveList(*fx, e, live, d);
        ASSERT_EQ(slots.size(), live) << joinedDiagnostics(d);
        for (uint32_t i = 1; i < live; ++i) {
            ASSERT_LT(slots[i - 1], slots[i]) << "emitter " << e << " entry " << i;
        }
        EXPECT_LT(slots[live - 1], fx->layout.regions[e].capacity);
    }
    EXPECT_TRUE(validationMessages(*fx).empty()) << joined(validationMessages(*fx));
}

TEST(GpuPool, RefusesAnEffectPastTheMemoryLimitNamingTheEmitter) {
    GpuConfig config = testGpuConfig();
    config.max_pool_bytes = 50000; // "fast" alone needs 23 x 1280 + 300 x 64 = 48640 bytes
    std::vector<Diagnostic> d;
    EXPECT_EQ(createGpuEffect(compileOrFail(churnEffect()), config, d), nullptr);
    const std::string text = joinedDiagnostics(d);
    EXPECT_NE(text.find("emitter 'slow'"), std::string::npos) << text;
    EXPECT_NE(text.find("$.emitters[1].capacity"), std::string::npos) << text;
    EXPECT_NE(text.find("limit of 50000 bytes"), std::string::npos) << text;
}

TEST(GpuPool, RefusesABufferLimitBelowOneColumnNamingTheEmitter) {
    std::vector<Diagnostic> d;
    EXPECT_EQ(createGpuEffect(compileOrFail(churnEffect()), testGpuConfig(1024), d), nullptr);
    const std::string text = joinedDiagnostics(d);
    EXPECT_NE(text.find("emitter 'fast'"), std::string::npos) << text;
    EXPECT_NE(text.find("past the limit of 1024 bytes per buffer"), std::string::npos) << text;
}

} // namespace
} // namespace spindrift::gpu::test
