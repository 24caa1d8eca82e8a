// The draw list (include/spindrift/draw_list.h): batches in draw order for a view, several views of
// one state, the public fields, bad views; and the timeline calls the scene player drives a world
// with (followPath, advanceTo, setVisible). CPU backend: the lists are exact.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"
#include "world_frame.h"

#include "runtime/draw_list.h" // DrawEntry: the records particle lights are chosen from

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// "cloud": alpha billboards sorted back to front, spread in a 6 m box, still; "glow": additive,
// unsorted. Both live long, so the count only grows.
constexpr const char* kCloud = R"({
  "version": 1,
  "name": "cloud",
  "seed": 5,
  "emitters": [
    {"name": "cloud", "capacity": 600, "spawn": {"rate_per_s": 400},
     "shape": {"type": "box", "size": [6, 6, 6]},
     "init": {"lifetime_s": 10, "speed": 0},
     "render": {"blend": "alpha", "sort": "back_to_front", "texture": "smoke.png"}},
    {"name": "glow", "capacity": 64, "spawn": {"rate_per_s": 60},
     "init": {"lifetime_s": 10, "speed": 0}}
  ]
})";

// A ribbon and a beam: strips.
constexpr const char* kStrips = R"({
  "version": 1,
  "name": "strips",
  "duration_s": 100,
  "emitters": [
    {"name": "comet", "capacity": 4, "spawn": {"rate_per_s": 0, "bursts": [{"count": 1}]},
     "init": {"lifetime_s": 100, "speed": 0, "velocity": [2, 0, 0], "size": 1},
     "render": {"type": "ribbon", "width": 0.5, "min_sample_distance": 0.1, "max_points": 16}},
    {"name": "arc", "capacity": 4, "transform": {"position": [0, 1, 0]},
     "spawn": {"rate_per_s": 0, "bursts": [{"count": 2}]},
     "init": {"lifetime_s": 100, "speed": 0},
     "render": {"type": "beam", "start": [-1, 0, 0], "end": [1, 0, 0], "segments": 8,
                "width": 0.2}}
  ]
})";

using test::kFrame;

class DrawListTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               (std::string("spindrift_draw_list_") + info->name() + "_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string write(const std::string& name, const std::string& text) {
        const fs::path path = dir_ / name;
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        return path.string();
    }
    fs::path dir_;
};

float distance(const Vec3& a, const Vec3& b) {
    const float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

DrawView viewFrom(Vec3 eye) {
    DrawView view;
    view.eye = eye;
    view.forward = {-eye.x, -eye.y, -eye.z};
    return view;
}

// The first batch of the list drawn from `emitter`, or null.
const DrawBatch* batchOf(const DrawList& list, uint32_t emitter) {
    for (const DrawBatch& b : list.batches())
        if (b.emitter_index == emitter) return &b;
    return nullptr;
}

bool backToFront(const DrawBatch& b, const Vec3& eye) {
    for (size_t i = 1; i < b.particles.size(); ++i) {
        if (distance(b.particles[i - 1].position, eye) < distance(b.particles[i].position, eye))
            return false;
    }
    return true;
}

TEST_F(DrawListTest, TwoViewsOfOneWorldGiveTwoListsEachSortedForItsOwnCamera) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < 30; ++i) world.update(kFrame);
    InstanceInfo before;
    ASSERT_EQ(world.info(h, before), RuntimeError::none);
    const uint64_t updates = world.stats().updates;

    const Vec3 front{0, 1, 12}, back{0, 1, -12};
    DrawList a, b;
    ASSERT_EQ(world.drawList(viewFrom(front), a), RuntimeError::none) << world.lastErrorMessage();
    ASSERT_EQ(world.drawList(viewFrom(back), b), RuntimeError::none) << world.lastErrorMessage();

    // Nothing was simulated by drawing.
    InstanceInfo after;
    ASSERT_EQ(world.info(h, after), RuntimeError::none);
    EXPECT_EQ(after.steps, before.steps);
    EXPECT_EQ(after.live_particles, before.live_particles);
    EXPECT_EQ(world.stats().updates, updates);

    const DrawBatch* sorted_a = batchOf(a, 0);
    const DrawBatch* sorted_b = batchOf(b, 0);
    ASSERT_NE(sorted_a, nullptr);
    ASSERT_NE(sorted_b, nullptr);
    ASSERT_GT(sorted_a->particles.size(), 100u);
    EXPECT_EQ(sorted_a->particles.size(), sorted_b->particles.size());
    EXPECT_TRUE(sorted_a->sorted);
    EXPECT_TRUE(backToFront(*sorted_a, front)) << "list a is sorted for its own eye";
    EXPECT_TRUE(backToFront(*sorted_b, back)) << "list b is sorted for its own eye";
    EXPECT_FALSE(backToFront(*sorted_a, back)) << "the two views' orders differ";
    // The farthest particle from the front eye is among the nearest to the back one.
    EXPECT_LT(distance(sorted_a->particles.front().position, back),
              distance(sorted_a->particles.back().position, back));
    EXPECT_EQ(a.stats().sorted_particles, sorted_a->particles.size());

    // The unsorted emitter is drawn in the simulation's order, the same in both lists.
    const DrawBatch* glow_a = batchOf(a, 1);
    const DrawBatch* glow_b = batchOf(b, 1);
    ASSERT_NE(glow_a, nullptr);
    ASSERT_NE(glow_b, nullptr);
    EXPECT_FALSE(glow_a->sorted);
    ASSERT_EQ(glow_a->particles.size(), glow_b->particles.size());
    for (size_t i = 0; i < glow_a->particles.size(); ++i)
        EXPECT_EQ(glow_a->particles[i].key, glow_b->particles[i].key);
    EXPECT_EQ(a.stats().particles, after.live_particles);
}

TEST_F(DrawListTest, BatchesCarryTheEmittersRenderSettingsAndTheirFiles) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    desc.transform.position = {3, 0, 0};
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom({0, 0, 10}), list), RuntimeError::none);
    ASSERT_EQ(list.batches().size(), 2u);
    const DrawBatch& smoke = list.batches()[0];
    EXPECT_EQ(smoke.kind, DrawKind::billboards);
    EXPECT_EQ(smoke.blend, DrawBlend::alpha);
    EXPECT_EQ(smoke.sort, DrawSort::back_to_front);
    EXPECT_EQ(smoke.alignment, DrawAlignment::camera);
    EXPECT_FALSE(smoke.device_resident);
    EXPECT_EQ(smoke.instance, h);
    EXPECT_EQ(smoke.effect, cloud);
    EXPECT_EQ(smoke.particle_count, smoke.particles.size());
    EXPECT_FLOAT_EQ(smoke.instance_distance_m, distance({3, 0, 0}, {0, 0, 10}));
    EXPECT_EQ(list.batches()[1].blend, DrawBlend::additive);
    EXPECT_EQ(list.batches()[1].sort, DrawSort::none);

    // The particles are world space and are those readParticles gives (no tint, size 1).
    std::vector<Particle> particles;
    ASSERT_EQ(world.readParticles(h, particles), RuntimeError::none);
    size_t drawn = 0;
    for (const DrawBatch& b : list.batches()) drawn += b.particles.size();
    EXPECT_EQ(drawn, particles.size());
    for (const DrawParticle& p : smoke.particles) {
        EXPECT_NEAR(p.position.x, 3.0f, 3.01f);
        EXPECT_EQ(p.emitter_index, 0u);
    }

    // The texture is named by the effect and emitter.
    EffectInfo info;
    ASSERT_TRUE(library.info(cloud, info));
    ASSERT_EQ(info.textures.size(), 2u);
    EXPECT_EQ(fs::path(info.textures[0]).filename(), "smoke.png");
    EXPECT_EQ(fs::path(info.textures[0]).parent_path(), dir_);
    EXPECT_TRUE(info.textures[1].empty());
    EXPECT_TRUE(info.meshes[0].empty());
}

TEST_F(DrawListTest, InstancesAreDrawnFarthestFirstAndHiddenOnesNotAtAll) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceHandle near_one, far_one, hidden;
    InstanceDesc desc;
    desc.effect = cloud;
    desc.transform.position = {0, 0, 5};
    ASSERT_EQ(world.create(desc, near_one), RuntimeError::none);
    desc.transform.position = {0, 0, -40};
    ASSERT_EQ(world.create(desc, far_one), RuntimeError::none);
    desc.transform.position = {0, 0, -80};
    ASSERT_EQ(world.create(desc, hidden), RuntimeError::none);
    ASSERT_EQ(world.setVisible(hidden, false), RuntimeError::none);
    for (int i = 0; i < 5; ++i) world.update(kFrame);
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom({0, 0, 10}), list), RuntimeError::none);
    ASSERT_EQ(list.batches().size(), 4u);
    EXPECT_EQ(list.batches()[0].instance, far_one);
    EXPECT_EQ(list.batches()[1].instance, far_one);
    EXPECT_EQ(list.batches()[2].instance, near_one);
    EXPECT_EQ(list.batches()[3].instance, near_one);
    EXPECT_EQ(list.stats().instances_drawn, 2u);
    EXPECT_TRUE(world.isAlive(hidden)) << "hidden, not gone";

    ASSERT_EQ(world.setVisible(hidden, true), RuntimeError::none);
    ASSERT_EQ(world.drawList(viewFrom({0, 0, 10}), list), RuntimeError::none);
    EXPECT_EQ(list.batches()[0].instance, hidden);
    EXPECT_EQ(world.setVisible(InstanceHandle{12345}, true), RuntimeError::invalid_handle);
}

TEST_F(DrawListTest, AnOrderIndependentViewLeavesBlendedBatchesUnsortedAndSaysSo) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    DrawView view = viewFrom({0, 0, 10});
    view.order_independent = true;
    DrawList list;
    ASSERT_EQ(world.drawList(view, list), RuntimeError::none);
    const DrawBatch* smoke = batchOf(list, 0);
    ASSERT_NE(smoke, nullptr);
    EXPECT_FALSE(smoke->sorted);
    EXPECT_EQ(list.stats().sort_skipped_particles, smoke->particles.size());
    EXPECT_EQ(list.stats().sorted_particles, 0u);
}

TEST_F(DrawListTest, RibbonsAndBeamsAreStripsWithSegmentsInsideTheirPoints) {
    EffectLibrary library;
    const EffectId strips = library.add(write("strips.json", kStrips));
    World world(library);
    InstanceDesc desc;
    desc.effect = strips;
    desc.transform.position = {0, 0, -2};
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < 60; ++i) world.update(kFrame);
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom({0, 2, 6}), list), RuntimeError::none);
    ASSERT_EQ(list.batches().size(), 2u);
    for (const DrawBatch& b : list.batches()) {
        EXPECT_EQ(b.kind, DrawKind::strips);
        EXPECT_TRUE(b.particles.empty());
        ASSERT_GE(b.vertices.size(), 2u);
        ASSERT_FALSE(b.segments.empty());
        for (const uint32_t s : b.segments) EXPECT_LT(s + 1, b.vertices.size());
    }
    // The ribbon's head is its particle, about 2 m along +X after 1 s.
    EXPECT_NEAR(list.batches()[0].vertices[0].position.x, 2.0f, 0.1f);
    EXPECT_EQ(list.batches()[0].particle_count, 1u);
    // Two beams of 8 segments from (-1, 1, -2) to (1, 1, -2).
    const DrawBatch& beams = list.batches()[1];
    EXPECT_EQ(beams.vertices.size(), 18u);
    EXPECT_EQ(beams.segments.size(), 16u);
    EXPECT_NEAR(beams.vertices[0].position.x, -1.0f, 1e-4f);
    EXPECT_NEAR(beams.vertices[0].position.z, -2.0f, 1e-4f);
    EXPECT_EQ(list.stats().strip_segments,
              beams.segments.size() + list.batches()[0].segments.size());
    // For motion vectors (render::StripBatch::velocities): each ribbon point carries its
    // particle's velocity, the beams' points none (they stand still).
    const std::vector<DrawEntry>& entries = list.impl().entries;
    ASSERT_EQ(entries.size(), 2u);
    ASSERT_EQ(entries[0].velocities.size(), entries[0].points.size());
    for (const vec4& v : entries[0].velocities) {
        EXPECT_NEAR(v.x, 2.0f, 1e-5f);
        EXPECT_EQ(v.y, 0.0f);
        EXPECT_EQ(v.z, 0.0f);
    }
    EXPECT_TRUE(entries[1].velocities.empty());
}

// The batches of blend `blend`, in list order, as one particle sequence.
std::vector<DrawParticle> particlesOfBlend(const DrawList& list, DrawBlend blend) {
    std::vector<DrawParticle> out;
    for (const DrawBatch& b : list.batches())
        if (b.blend == blend) out.insert(out.end(), b.particles.begin(), b.particles.end());
    return out;
}

TEST_F(DrawListTest, InterpenetratingInstancesAreDrawnInOneBackToFrontOrder) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle a, b;
    desc.transform.position = {0, 0, 0};
    ASSERT_EQ(world.create(desc, a), RuntimeError::none);
    desc.transform.position = {1, 0, 0.5f}; // the two 6 m boxes overlap
    ASSERT_EQ(world.create(desc, b), RuntimeError::none);
    for (int i = 0; i < 30; ++i) world.update(kFrame);
    const Vec3 eye{0, 1, 12};
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom(eye), list), RuntimeError::none);

    // Every alpha particle of the view, across the two instances, farthest first.
    const std::vector<DrawParticle> alpha = particlesOfBlend(list, DrawBlend::alpha);
    ASSERT_GT(alpha.size(), 200u);
    for (size_t i = 1; i < alpha.size(); ++i)
        ASSERT_GE(distance(alpha[i - 1].position, eye), distance(alpha[i].position, eye)) << i;
    // Interleaved: the clouds' batches alternate, many times, each a stretch of one emitter.
    size_t alpha_batches = 0, switches = 0;
    InstanceHandle last{};
    for (const DrawBatch& batch : list.batches()) {
        if (batch.blend != DrawBlend::alpha) continue;
        ++alpha_batches;
        EXPECT_TRUE(batch.sorted);
        EXPECT_EQ(batch.particle_count, batch.particles.size());
        EXPECT_FALSE(batch.particles.empty());
        if (alpha_batches > 1 && !(batch.instance == last)) ++switches;
        last = batch.instance;
    }
    EXPECT_GT(switches, 20u);
    EXPECT_EQ(switches + 1, alpha_batches) << "segments are maximal: neighbours differ";
    EXPECT_EQ(list.stats().order_emitters, 2u);
    EXPECT_EQ(list.stats().order_batches, alpha_batches);
    EXPECT_EQ(list.stats().order_exact_batches, alpha_batches);
    EXPECT_EQ(list.stats().order_coarsened_items, 0u);

    // Each instance's particles are all drawn, once: the same set as its own sorted emitter.
    InstanceInfo ia, ib;
    ASSERT_EQ(world.info(a, ia), RuntimeError::none);
    ASSERT_EQ(world.info(b, ib), RuntimeError::none);
    uint64_t drawn = 0;
    for (const DrawBatch& batch : list.batches()) drawn += batch.particles.size();
    EXPECT_EQ(drawn, ia.live_particles + ib.live_particles);
    EXPECT_EQ(list.stats().particles, drawn);
    // Particle lights are chosen once per emitter from all its records: the first stretch of each
    // instance's alpha emitter holds them all, its other stretches none.
    for (const InstanceHandle h : {a, b}) {
        size_t holders = 0, light_records = 0, records = 0;
        for (const DrawEntry& entry : list.impl().entries) {
            const DrawBatch& batch = list.batches()[size_t(&entry - list.impl().entries.data())];
            if (batch.blend != DrawBlend::alpha || !(batch.instance == h)) continue;
            holders += entry.light_records.empty() ? 0 : 1;
            light_records += entry.light_records.size();
            records += entry.records.size();
        }
        EXPECT_EQ(holders, 1u);
        EXPECT_EQ(light_records, records);
    }
    // The additive, unsorted glow keeps one batch per instance.
    size_t glow = 0;
    for (const DrawBatch& batch : list.batches()) glow += batch.emitter_index == 1 ? 1 : 0;
    EXPECT_EQ(glow, 2u);
}

TEST_F(DrawListTest, BlendedMeshesJoinTheOneOrderAndOpaqueOnesKeepTheirPlace) {
    // Alpha glass shards sorted back to front in the cloud's volume, and opaque rocks.
    constexpr const char* kShards = R"({
  "version": 1,
  "name": "shards",
  "seed": 9,
  "emitters": [
    {"name": "glass", "capacity": 300, "spawn": {"rate_per_s": 300},
     "shape": {"type": "box", "size": [6, 6, 6]},
     "init": {"lifetime_s": 10, "speed": 0},
     "render": {"type": "mesh", "mesh": "shard.obj", "blend": "alpha", "sort": "back_to_front"}},
    {"name": "rocks", "capacity": 64, "spawn": {"rate_per_s": 60},
     "shape": {"type": "box", "size": [6, 6, 6]},
     "init": {"lifetime_s": 10, "speed": 0},
     "render": {"type": "mesh", "mesh": "shard.obj", "blend": "opaque", "sort": "back_to_front"}}
  ]
})";
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    const EffectId shards = library.add(write("shards.json", kShards));
    ASSERT_TRUE(cloud.value != 0 && shards.value != 0);
    World world(library);
    InstanceDesc desc;
    InstanceHandle a, b;
    desc.effect = cloud;
    ASSERT_EQ(world.create(desc, a), RuntimeError::none) << world.lastErrorMessage();
    desc.effect = shards;
    desc.transform.position = {0.5f, 0, 0};
    ASSERT_EQ(world.create(desc, b), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < 30; ++i) world.update(kFrame);
    const Vec3 eye{0, 1, 12};
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom(eye), list), RuntimeError::none);
    // Billboards and alpha meshes in one back-to-front sequence, interleaved.
    std::vector<DrawParticle> alpha = particlesOfBlend(list, DrawBlend::alpha);
    ASSERT_GT(alpha.size(), 200u);
    for (size_t i = 1; i < alpha.size(); ++i)
        ASSERT_GE(distance(alpha[i - 1].position, eye), distance(alpha[i].position, eye)) << i;
    size_t mesh_batches = 0, opaque_batches = 0;
    for (const DrawBatch& batch : list.batches()) {
        if (batch.kind != DrawKind::meshes) continue;
        if (batch.blend == DrawBlend::alpha) ++mesh_batches;
        if (batch.blend == DrawBlend::opaque) ++opaque_batches;
    }
    EXPECT_GT(mesh_batches, 10u);
    EXPECT_EQ(opaque_batches, 1u) << "opaque meshes are not cut up";
    EXPECT_EQ(list.stats().order_emitters, 2u);
}

TEST_F(DrawListTest, InstancesSideBySideAtLikeDepthsAreNotCutIntoStretches) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle a, b;
    // 20 m apart across the view, at the same distance: their particles interleave in depth
    // but no two can cover one pixel, so each stays one batch.
    desc.transform.position = {-10, 0, 0};
    ASSERT_EQ(world.create(desc, a), RuntimeError::none);
    desc.transform.position = {10, 0, 0};
    ASSERT_EQ(world.create(desc, b), RuntimeError::none);
    for (int i = 0; i < 30; ++i) world.update(kFrame);
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom({0, 1, 12}), list), RuntimeError::none);
    EXPECT_EQ(list.stats().order_emitters, 2u);
    EXPECT_EQ(list.stats().order_batches, 2u);
    ASSERT_EQ(list.batches().size(), 4u);
    for (const DrawBatch& batch : list.batches()) {
        if (batch.blend == DrawBlend::alpha) {
            EXPECT_TRUE(backToFront(batch, {0, 1, 12}));
        }
    }
}

TEST_F(DrawListTest, PastTheBatchCapTheFarPartIsDrawnPerEmitterAndCounted) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    // Sixteen clouds in one place: their ~6400 particles interleave almost one by one.
    for (int i = 0; i < 16; ++i) {
        InstanceHandle h;
        desc.transform.position = {0.01f * float(i), 0, 0};
        ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    }
    for (int i = 0; i < 60; ++i) world.update(kFrame);
    const Vec3 eye{0, 1, 12};
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom(eye), list), RuntimeError::none);
    const DrawListStats& stats = list.stats();
    EXPECT_EQ(stats.order_emitters, 16u);
    ASSERT_GT(stats.order_exact_batches, 4096u);
    EXPECT_EQ(stats.order_batches, 4096u);
    EXPECT_GT(stats.order_coarsened_items, 0u);
    size_t alpha_batches = 0;
    for (const DrawBatch& batch : list.batches()) alpha_batches += batch.blend == DrawBlend::alpha;
    EXPECT_EQ(alpha_batches, 4096u);
    // The near part, after the coarse far one (the first 16 alpha batches), is exact.
    std::vector<DrawParticle> near;
    size_t seen = 0;
    for (const DrawBatch& batch : list.batches()) {
        if (batch.blend != DrawBlend::alpha || seen++ < 16) continue;
        near.insert(near.end(), batch.particles.begin(), batch.particles.end());
    }
    ASSERT_GT(near.size(), 3000u);
    for (size_t i = 1; i < near.size(); ++i)
        ASSERT_GE(distance(near[i - 1].position, eye), distance(near[i].position, eye)) << i;
    const std::vector<DrawParticle> alpha = particlesOfBlend(list, DrawBlend::alpha);
    EXPECT_EQ(alpha.size(), stats.sorted_particles);
    // The coarse part holds the coarsened particles (and, joined to its last batch, maybe the
    // first exact stretch of that emitter).
    EXPECT_GE(alpha.size() - near.size(), stats.order_coarsened_items);
}

TEST_F(DrawListTest, AlphaStripSegmentsAreSortedByTheirMiddlePoint) {
    // The beam of kStrips, blended alpha: its 16 segments back to front by their middle.
    std::string text = kStrips;
    const std::string width = R"("width": 0.2})";
    const size_t at = text.find(width);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, width.size(), R"("width": 0.2, "blend": "alpha"})");
    EffectLibrary library;
    const EffectId strips = library.add(write("strips.json", text));
    World world(library);
    InstanceDesc desc;
    desc.effect = strips;
    desc.transform.position = {0, 0, -2};
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    for (int i = 0; i < 60; ++i) world.update(kFrame);
    const Vec3 eye{-3, 1, 0}; // off the beams' start: their segments nearer along +X
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom(eye), list), RuntimeError::none);
    ASSERT_EQ(list.batches().size(), 2u);
    const DrawBatch& beams = list.batches()[1];
    EXPECT_EQ(beams.blend, DrawBlend::alpha);
    EXPECT_TRUE(beams.sorted);
    EXPECT_FALSE(list.batches()[0].sorted) << "the additive ribbon keeps its order";
    ASSERT_EQ(beams.segments.size(), 16u);
    auto middle = [&](uint32_t s) {
        const Vec3 p = beams.vertices[s].position, q = beams.vertices[s + 1].position;
        return Vec3{(p.x + q.x) / 2, (p.y + q.y) / 2, (p.z + q.z) / 2};
    };
    for (size_t i = 1; i < beams.segments.size(); ++i) {
        EXPECT_GE(distance(middle(beams.segments[i - 1]), eye),
                  distance(middle(beams.segments[i]), eye))
            << i;
    }
    EXPECT_EQ(list.stats().sorted_strip_segments, 16u);
    EXPECT_EQ(list.stats().order_emitters, 1u);
}

TEST_F(DrawListTest, BadViewsAreRefusedAndEmptyTheList) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    world.update(kFrame * 5);
    DrawList list;
    ASSERT_EQ(world.drawList(viewFrom({0, 0, 10}), list), RuntimeError::none);
    ASSERT_FALSE(list.batches().empty());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<DrawView> bad(8, viewFrom({0, 0, 10}));
    bad[0].eye.x = nan;
    bad[1].forward = {0, 0, 0};
    bad[2].up = {0, 0, -3}; // parallel to forward
    bad[3].fov_y_deg = 180;
    bad[4].aspect = 0;
    bad[5].near_m = 0;
    bad[6].far_m = std::numeric_limits<float>::infinity();
    bad[7].viewport_height = 0;
    for (size_t i = 0; i < bad.size(); ++i) {
        EXPECT_EQ(world.drawList(bad[i], list), RuntimeError::invalid_argument) << i;
        EXPECT_TRUE(list.batches().empty()) << i;
        EXPECT_NE(world.lastErrorMessage().find("draw view"), std::string::npos)
            << world.lastErrorMessage();
    }
}

TEST_F(DrawListTest, CameraFacingCornersFaceTheView) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    world.update(kFrame * 5);
    DrawView view = viewFrom({0, 0, 10});
    DrawList list;
    ASSERT_EQ(world.drawList(view, list), RuntimeError::none);
    const DrawBatch& b = list.batches()[0];
    ASSERT_FALSE(b.particles.empty());
    const DrawParticle& p = b.particles[0];
    Vec3 corners[4];
    ASSERT_TRUE(billboardCorners(view, b, p, corners));
    for (const Vec3& c : corners) {
        // In the plane through the particle facing down -Z, at half the diagonal.
        EXPECT_NEAR(c.z, p.position.z, 1e-5f);
        EXPECT_NEAR(distance(c, p.position), p.size_m * 0.5f * std::sqrt(2.0f), 1e-4f);
    }
    DrawBatch strips = b;
    strips.kind = DrawKind::strips;
    EXPECT_FALSE(billboardCorners(view, strips, p, corners));
}

// A path along +X at 1 m/s.
class Slide final : public TransformPath {
public:
    Matrix3x4 worldFromEffectAt(double time_s) const override {
        Matrix3x4 m;
        m.rows[0][3] = static_cast<float>(time_s);
        return m;
    }
};

// Every particle's key and position, in draw order.
std::vector<DrawParticle> drawnParticles(World& world) {
    DrawList list;
    EXPECT_EQ(world.drawList(viewFrom({0, 0, 10}), list), RuntimeError::none);
    std::vector<DrawParticle> out;
    for (const DrawBatch& b : list.batches())
        out.insert(out.end(), b.particles.begin(), b.particles.end());
    return out;
}

void expectSameDrawParticles(const std::vector<DrawParticle>& a,
                             const std::vector<DrawParticle>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].key, b[i].key) << i;
        EXPECT_EQ(a[i].position.x, b[i].position.x) << i;
        EXPECT_EQ(a[i].position.y, b[i].position.y) << i;
        EXPECT_EQ(a[i].position.z, b[i].position.z) << i;
    }
}

TEST_F(DrawListTest, AdvanceToGivesTheSameStateWhateverTheTimesThatLedThere) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    const Slide slide;
    std::vector<std::vector<DrawParticle>> results;
    // Straight to 1 s; forward in two; past it and back (a restart and a replay).
    for (const std::vector<double>& times : {std::vector<double>{1.0}, {0.4, 1.0}, {1.7, 1.0}}) {
        World world(library);
        InstanceDesc desc;
        desc.effect = cloud;
        desc.flags = 0;
        InstanceHandle h;
        ASSERT_EQ(world.create(desc, h), RuntimeError::none);
        ASSERT_EQ(world.followPath(h, &slide), RuntimeError::none);
        for (const double t : times)
            ASSERT_EQ(world.advanceTo(h, t), RuntimeError::none) << world.lastErrorMessage();
        InstanceInfo info;
        ASSERT_EQ(world.info(h, info), RuntimeError::none);
        EXPECT_EQ(info.steps, 60u);
        results.push_back(drawnParticles(world));
    }
    ASSERT_FALSE(results[0].empty());
    expectSameDrawParticles(results[0], results[1]);
    expectSameDrawParticles(results[0], results[2]);
    // Births are spread along the path: the box's particles span more than its 6 m in x.
    float lo = 1e9f, hi = -1e9f;
    for (const DrawParticle& p : results[0]) {
        lo = std::min(lo, p.position.x);
        hi = std::max(hi, p.position.x);
    }
    EXPECT_GT(hi - lo, 6.5f);
    EXPECT_GT(hi, 3.5f) << "the path carried the emitter past the box's half-width";
}

TEST_F(DrawListTest, AdvanceToRefusesBadTimesAndFollowsAPathInUpdateToo) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    WorldConfig config;
    config.max_seek_steps = 100;
    World world(library, config);
    InstanceDesc desc;
    desc.effect = cloud;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    EXPECT_EQ(world.advanceTo(h, -1), RuntimeError::invalid_argument);
    EXPECT_EQ(world.advanceTo(h, std::numeric_limits<double>::quiet_NaN()),
              RuntimeError::invalid_argument);
    EXPECT_EQ(world.advanceTo(h, 10), RuntimeError::invalid_argument) << "600 steps > 100";
    EXPECT_EQ(world.advanceTo(InstanceHandle{}, 1), RuntimeError::invalid_handle);

    const Slide slide;
    ASSERT_EQ(world.followPath(h, &slide), RuntimeError::none);
    for (int i = 0; i < 60; ++i) world.update(kFrame);
    float hi = -1e9f;
    for (const DrawParticle& p : drawnParticles(world)) hi = std::max(hi, p.position.x);
    EXPECT_GT(hi, 3.5f) << "update moved the instance along its path";
}

// A path that goes bad after 0.5 s.
class Broken final : public TransformPath {
public:
    Matrix3x4 worldFromEffectAt(double time_s) const override {
        Matrix3x4 m;
        m.rows[1][3] = time_s < 0.5 ? 1.0f : std::numeric_limits<float>::quiet_NaN();
        return m;
    }
};

TEST_F(DrawListTest, ANonFinitePathTransformIsReplacedAndCounted) {
    EffectLibrary library;
    const EffectId cloud = library.add(write("cloud.json", kCloud));
    World world(library);
    InstanceDesc desc;
    desc.effect = cloud;
    desc.transform.position = {0, -20, 0};
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    const Broken broken;
    ASSERT_EQ(world.followPath(h, &broken), RuntimeError::none);
    ASSERT_EQ(world.advanceTo(h, 1.0), RuntimeError::none);
    EXPECT_GT(world.stats().rejected_path_transforms, 0u);
    // Born on the path (y 1, box half-size 3) before 0.5 s, at the transform (y -20) after it,
    // and swept between the two in the step that crosses 0.5 s: never anywhere else.
    size_t on_path = 0, at_transform = 0;
    for (const DrawParticle& p : drawnParticles(world)) {
        ASSERT_TRUE(std::isfinite(p.position.y));
        EXPECT_GE(p.position.y, -23.01f);
        EXPECT_LE(p.position.y, 4.01f);
        on_path += std::fabs(p.position.y - 1) <= 3.01f;
        at_transform += std::fabs(p.position.y + 20) <= 3.01f;
    }
    EXPECT_GT(on_path, 100u);
    EXPECT_GT(at_transform, 100u);
}

TEST(DrawListEmpty, AnEmptyWorldDrawsNothing) {
    EffectLibrary library;
    World world(library);
    DrawList list;
    EXPECT_EQ(world.drawList(DrawView{}, list), RuntimeError::none);
    EXPECT_TRUE(list.batches().empty());
    EXPECT_EQ(list.stats().particles, 0u);
    EXPECT_TRUE(list.diagnostics().empty());
}

} // namespace
} // namespace spindrift
