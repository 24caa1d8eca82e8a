// The scene player without a GPU: what it loads, when instances run, where they are, the batches
// and records it hands the renderer, and the diagnostics it reports.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <variant>

#include "cook/effect_file.h"
#include "render/render_file.h"
#include "render/scene_player.h"
#include "runtime/simulation_device.h"
#include "spindrift/scene_json.h"
#include "support/scratch_dir.h"

namespace fs = std::filesystem;

namespace spindrift::render {
namespace {

using spindrift::test::scratchDir;

// 60 births per second of particles that never move and live 100 s, at the effect origin.
constexpr const char* kSteadyEffect = R"({
  "version": 1,
  "name": "steady",
  "duration_s": 100,
  "emitters": [
    {
      "name": "motes",
      "capacity": 10000,
      "spawn": {"rate_per_s": 60},
      "init": {"lifetime_s": 100, "speed": 0}
    }
  ]
})";

// One particle at the origin of a local-space effect: it follows the instance.
constexpr const char* kFollowerEffect = R"({
  "version": 1,
  "name": "follower",
  "space": "local",
  "duration_s": 100,
  "emitters": [
    {
      "name": "dot",
      "capacity": 4,
      "spawn": {"rate_per_s": 0, "bursts": [{"count": 1}]},
      "init": {"lifetime_s": 100, "speed": 0}
    }
  ]
})";

// 400 births per second of still, alpha-blended particles in a 6 m box, sorted back to front.
constexpr const char* kCloudEffect = R"({
  "version": 1,
  "name": "cloud",
  "emitters": [
    {
      "name": "puffs",
      "capacity": 2000,
      "spawn": {"rate_per_s": 400},
      "shape": {"type": "box", "size": [6, 6, 6]},
      "init": {"lifetime_s": 100, "speed": 0},
      "render": {"blend": "alpha", "sort": "back_to_front"}
    }
  ]
})";

void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

EffectInstanceDesc instanceOf(const std::string& effect, Float3 position = {0, 0, 0}) {
    EffectInstanceDesc instance;
    instance.effect = effect;
    instance.position = position;
    return instance;
}

std::unique_ptr<ScenePlayer> makePlayer(const SceneDesc& scene, const fs::path& dir,
                                        std::vector<Diagnostic>& diagnostics) {
    std::vector<Diagnostic> scene_diagnostics;
    EXPECT_TRUE(validateScene(scene, scene_diagnostics));
    return createScenePlayer(scene, (dir / "scene.json").string(), PlayerConfig{}, diagnostics);
}

std::string allMessages(const std::vector<Diagnostic>& diagnostics) {
    std::string text;
    for (const Diagnostic& d : diagnostics) text += formatDiagnostic(d) + "\n";
    return text;
}

// The frame's billboard batches, in order.
std::vector<BillboardBatch> billboards(const ScenePlayer& player) {
    std::vector<BillboardBatch> out;
    for (const DrawBatch& b : player.batches) {
        if (const BillboardBatch* billboard = std::get_if<BillboardBatch>(&b)) {
            out.push_back(*billboard);
        }
    }
    return out;
}

// The frame's strip batches, in order.
std::vector<StripBatch> strips(const ScenePlayer& player) {
    std::vector<StripBatch> out;
    for (const DrawBatch& b : player.batches) {
        if (const StripBatch* strip = std::get_if<StripBatch>(&b)) out.push_back(*strip);
    }
    return out;
}

// Batch n, which must be a billboard batch.
const BillboardBatch& billboard(const ScenePlayer& player, size_t n) {
    return std::get<BillboardBatch>(player.batches.at(n));
}

uint64_t recordsIn(const ScenePlayer& player) {
    uint64_t n = 0;
    for (const BillboardBatch& b : billboards(player)) n += b.records.size();
    return n;
}

TEST(ScenePlayer, BuildsBatchesForTheSampleScenes) {
    for (const char* name : {"campfire_night.json", "fireworks_show.json", "orbit_snowfall.json"}) {
        const std::string file = std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/" + name;
        SceneDesc scene;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(loadSceneFile(file, scene, diagnostics)) << allMessages(diagnostics);
        auto player = createScenePlayer(scene, file, PlayerConfig{}, diagnostics);
        ASSERT_NE(player, nullptr) << allMessages(diagnostics);
        EXPECT_FALSE(hasErrors(diagnostics)) << allMessages(diagnostics);
        EXPECT_EQ(player->instances.size(), scene.effects.size());
        const float t = std::min(2.5f, scene.duration_s);
        playFrame(*player, t, frameView(scene, t).camera.eye);
        EXPECT_FALSE(player->batches.empty()) << name;
        EXPECT_LE(recordsIn(*player), player->particles);
        uint64_t segments = 0;
        for (const StripBatch& batch : strips(*player)) {
            ASSERT_FALSE(batch.segments.empty());
            segments += batch.segments.size();
            for (const uint32_t first : batch.segments) ASSERT_LT(first + 1, batch.points.size());
            for (const StripPoint& p : batch.points) {
                ASSERT_TRUE(std::isfinite(p.position_width.x) && p.position_width.w >= 0);
            }
        }
        EXPECT_EQ(segments, player->strip_segments);
        if (std::string(name) == "fireworks_show.json") {
            EXPECT_FALSE(strips(*player).empty()) << "the rockets' ribbon trails are drawn";
        }
        for (const BillboardBatch& batch : billboards(*player)) {
            ASSERT_FALSE(batch.records.empty());
            const uint32_t emitter = batch.records[0].emitter_index;
            for (const DrawRecord& r : batch.records) {
                ASSERT_EQ(r.emitter_index, emitter) << "a batch holds one emitter's records";
                ASSERT_TRUE(std::isfinite(r.position_size.x) && r.position_size.w >= 0);
            }
        }
    }
}

// The frame's lights: the scene's own first, then the particle lights of host emitters (the golden
// particle_lights effect: 8 motes, the 3 brightest lights, in order of brightness).
TEST(ScenePlayer, FrameLightsAreTheScenesThenTheParticleLights) {
    const std::string file =
        std::string(SPINDRIFT_SOURCE_DIR) + "/tests/golden/scenes/particle_lights.json";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadSceneFile(file, scene, diagnostics)) << allMessages(diagnostics);
    LightDesc authored;
    authored.position = {0, 3, 0};
    scene.lights.push_back(authored);
    PlayerConfig config;
    config.backend = BackendRequest::cpu;
    auto player = createScenePlayer(scene, file, config, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    playFrame(*player, 1.0f, frameView(scene, 1.0f).camera.eye);
    ASSERT_EQ(player->lights.size(), 4u);
    EXPECT_EQ(player->lights[0], authored);
    for (size_t i = 1; i < 4; ++i) {
        const LightDesc& l = player->lights[i];
        EXPECT_EQ(l.type, LightKind::point);
        EXPECT_EQ(l.range, 3.0f);
        EXPECT_EQ(l.intensity, 0.35f);
        // The motes sit within 1.1 m of the instance at (0, 0.9, 0).
        EXPECT_LE(std::hypot(l.position.x, l.position.y - 0.9f, l.position.z), 1.11f);
        if (i > 1) {
            EXPECT_GE(player->lights[i - 1].color.x, l.color.x);
        }
    }
    EXPECT_GT(player->lights[1].color.x, 0.3f);
    // Without the scene light, the frame starts with the particle lights.
    scene.lights.clear();
    player = createScenePlayer(scene, file, config, diagnostics);
    ASSERT_NE(player, nullptr);
    playFrame(*player, 1.0f, frameView(scene, 1.0f).camera.eye);
    EXPECT_EQ(player->lights.size(), 3u);
}

// A GPU emitter's particle lights: its particles are read back and the same selection runs on
// them, so the GPU backend (bit for bit the CPU's simulation here) gives the CPU's lights.
TEST(ScenePlayer, GpuEmittersMakeTheCpusParticleLightsFromTheirReadBackParticles) {
    const std::string file =
        std::string(SPINDRIFT_SOURCE_DIR) + "/tests/golden/scenes/particle_lights.json";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadSceneFile(file, scene, diagnostics)) << allMessages(diagnostics);
    PlayerConfig config;
    config.backend = BackendRequest::cpu;
    auto cpu = createScenePlayer(scene, file, config, diagnostics);
    ASSERT_NE(cpu, nullptr) << allMessages(diagnostics);
    playFrame(*cpu, 1.0f, frameView(scene, 1.0f).camera.eye);
    // On the renderer's device the motes are drawn from the device (no host records): their
    // lights come from the readback. (On a device of their own their records are read back
    // for drawing anyway and the host path makes the lights.)
    RendererConfig renderer_config;
    renderer_config.width = 64;
    renderer_config.height = 64;
    RendererPtr renderer = createRenderer(renderer_config, diagnostics);
    ASSERT_NE(renderer, nullptr) << allMessages(diagnostics);
    config.backend = BackendRequest::gpu;
    config.renderer = renderer.get();
    auto gpu = createScenePlayer(scene, file, config, diagnostics);
    ASSERT_NE(gpu, nullptr) << allMessages(diagnostics);
    ASSERT_NE(gpu->instances[0].simulation->gpu, nullptr);
    playFrame(*gpu, 1.0f, frameView(scene, 1.0f).camera.eye);
    EXPECT_TRUE(gpu->errors.empty()) << allMessages(gpu->errors);
    EXPECT_EQ(cpu->device_light_emitters, 0u);
    EXPECT_EQ(gpu->device_light_emitters, 1u) << "the motes' lights came from the readback";
    ASSERT_EQ(cpu->lights.size(), 3u);
    ASSERT_EQ(gpu->lights.size(), cpu->lights.size());
    for (size_t i = 0; i < cpu->lights.size(); ++i) {
        const LightDesc& a = cpu->lights[i];
        const LightDesc& b = gpu->lights[i];
        EXPECT_NEAR(a.position.x, b.position.x, 1e-4f) << "light " << i;
        EXPECT_NEAR(a.position.y, b.position.y, 1e-4f) << "light " << i;
        EXPECT_NEAR(a.position.z, b.position.z, 1e-4f) << "light " << i;
        EXPECT_NEAR(a.color.x, b.color.x, 1e-4f) << "light " << i;
        EXPECT_EQ(a.range, b.range);
        EXPECT_EQ(a.intensity, b.intensity);
    }
    gpu.reset(); // before the renderer whose device it runs on
}

TEST(ScenePlayer, FrameViewCarriesTheSceneCameraAndLights) {
    SceneDesc scene;
    scene.camera.mode = CameraMode::orbit;
    scene.camera.position = CameraDesc{}.position;
    scene.camera.fov_deg = 60;
    scene.background = {0.5f, 0.25f, 0.125f};
    scene.primitives.push_back(PrimitiveDesc{});
    scene.ambient = {0.3f, 0.2f, 0.1f};
    const FrameView view = frameView(scene, 2.5f);
    const CameraPose pose = cameraPose(scene.camera, 2.5f);
    EXPECT_EQ(view.camera.eye.x, pose.eye.x);
    EXPECT_EQ(view.camera.eye.z, pose.eye.z);
    EXPECT_EQ(view.fov_deg, 60);
    EXPECT_EQ(view.background.y, 0.25f);
    EXPECT_EQ(view.primitives.size(), 1u);
    EXPECT_EQ(view.primitives.data(), scene.primitives.data());
    EXPECT_EQ(view.ambient.x, 0.3f);
    EXPECT_EQ(view.far_m, scene.camera.far);
}

TEST(ScenePlayer, InstanceTimeFollowsStartAndTimeScale) {
    EffectInstanceDesc late = instanceOf("x.json");
    late.start_s = 1;
    const float dt = 1.0f / 60;
    EXPECT_EQ(instanceSteps(late, dt, 0.5f), 0u);
    EXPECT_EQ(instanceSteps(late, dt, 1.0f), 0u);
    EXPECT_EQ(instanceSteps(late, dt, 2.0f), 60u);
    late.time_scale = 2;
    EXPECT_EQ(instanceSteps(late, dt, 2.0f), 120u);
    EffectInstanceDesc early = instanceOf("x.json");
    early.start_s = -2;
    EXPECT_EQ(instanceSteps(early, dt, 0.0f), 120u);
    // Frame times that are whole steps up to float rounding count the last step.
    EffectInstanceDesc now = instanceOf("x.json");
    for (uint32_t frame = 0; frame < 300; ++frame)
        ASSERT_EQ(instanceSteps(now, dt, float(frame) / 30.0f), 2u * frame) << frame;
}

// Counted in double: no start or time overflows the count; past kMaxSimulatedSteps it saturates.
TEST(ScenePlayer, InstanceStepsSaturatePastTheStepLimit) {
    const float dt = 1.0f / 64; // exact, so the counts below are too
    EffectInstanceDesc early = instanceOf("x.json");
    for (const float start_s : {-1e20f, -3.4e38f, -1e9f, -2e5f}) {
        early.start_s = start_s;
        EXPECT_EQ(instanceSteps(early, dt, 0.0f), kMaxSimulatedSteps + 1) << start_s;
    }
    early.start_s = -1e5f; // 6 400 000 steps: allowed
    EXPECT_EQ(instanceSteps(early, dt, 0.0f), 6'400'000u);
    early.time_scale = 2; // 12 800 000: not
    EXPECT_EQ(instanceSteps(early, dt, 0.0f), kMaxSimulatedSteps + 1);
    EffectInstanceDesc now = instanceOf("x.json");
    const float fine = 1.0f / 1024;
    EXPECT_EQ(instanceSteps(now, fine, 9765.625f), kMaxSimulatedSteps);
    EXPECT_EQ(instanceSteps(now, fine, 9766.0f), kMaxSimulatedSteps + 1);
    EXPECT_EQ(instanceSteps(now, fine, std::numeric_limits<float>::infinity()),
              kMaxSimulatedSteps + 1);
}

// A frame whose instance would run past the step limit is refused with an error naming the
// instance, its effect file and the numbers; nothing runs and nothing is drawn. An allowed
// pre-roll plays.
TEST(ScenePlayer, RefusesAFramePastTheStepLimitNamingTheInstance) {
    const fs::path dir = scratchDir("player", "step_limit");
    writeText(dir / "steady.json", kSteadyEffect);
    SceneDesc scene;
    scene.effects.push_back(instanceOf("steady.json"));
    scene.effects[0].start_s = -1;
    scene.effects.push_back(instanceOf("steady.json"));
    scene.effects[1].name = "early";
    scene.effects[1].start_s = -86400; // 5 184 000 steps at 0 s, 10 000 000 at 80 266.6 s
    scene.effects[1].time_scale = 2;   // twice that
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    diagnostics.clear();
    const float times[] = {0.5f, 0.0f};
    EXPECT_FALSE(checkPlayTimes(*player, times, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << allMessages(diagnostics);
    EXPECT_EQ(diagnostics[0].severity, Severity::error);
    EXPECT_EQ(diagnostics[0].path, "$.effects[1].start_s");
    const std::string& message = diagnostics[0].message;
    for (const char* part :
         {"effect instance 'early' (", "steady.json) at scene time 0.5 s has run 172801 s",
          "(start_s -86400, time_scale 2): 1.037e+07 fixed steps of 0.0166667 s",
          "more than the 10000000 a run may simulate", "start it at -83332.8 s or later"}) {
        EXPECT_NE(message.find(part), std::string::npos) << part << "\n" << message;
    }

    playFrame(*player, 0.5f, {0, 2, 6});
    EXPECT_TRUE(player->batches.empty());
    ASSERT_EQ(player->errors.size(), 1u);
    EXPECT_EQ(player->errors[0].message, message);
    for (const PlayerInstance& p : player->instances) EXPECT_EQ(p.simulation->steps_run, 0u);

    // Half the rate: 5 184 000 steps of pre-roll, played.
    player->scene.effects[1].time_scale = 1;
    player->errors.clear();
    diagnostics.clear();
    EXPECT_TRUE(checkPlayTimes(*player, times, diagnostics)) << allMessages(diagnostics);
}

TEST(ScenePlayer, LateInstancesDrawNothingAndPreRolledOnesAreRunning) {
    const fs::path dir = scratchDir("player", "timing");
    writeText(dir / "steady.json", kSteadyEffect);
    SceneDesc scene;
    scene.effects.push_back(instanceOf("steady.json", {-1, 0, 0}));
    scene.effects[0].start_s = 1;
    scene.effects.push_back(instanceOf("steady.json", {1, 0, 0}));
    scene.effects[1].start_s = -2;
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    EXPECT_EQ(player->instances[0].effect, player->instances[1].effect)
        << "one effect file is compiled once";

    playFrame(*player, 0.5f, {0, 2, 6});
    ASSERT_EQ(player->batches.size(), 1u) << "the late instance has not started";
    EXPECT_FALSE(player->instances[0].started);
    // 2.5 s of 60 births per second, every particle still alive, at x = 1.
    EXPECT_NEAR(double(billboard(*player, 0).records.size()), 150, 1);
    EXPECT_EQ(billboard(*player, 0).records[0].position_size.x, 1.0f);

    playFrame(*player, 2.0f, {0, 2, 6});
    ASSERT_EQ(player->batches.size(), 2u);
    uint64_t late = 0, early = 0;
    for (const BillboardBatch& b : billboards(*player))
        (b.records[0].position_size.x < 0 ? late : early) = b.records.size();
    EXPECT_NEAR(double(late), 60, 1);
    EXPECT_NEAR(double(early), 240, 1);
}

TEST(ScenePlayer, SteppingForwardOrBackwardGivesTheSameFrameAsAFreshPlayer) {
    const fs::path dir = scratchDir("player", "seek");
    writeText(dir / "campfire.json", [] {
        std::ifstream in(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/campfire.json");
        return std::string(std::istreambuf_iterator<char>(in), {});
    }());
    fs::create_directories(dir / "textures");
    for (const auto& entry :
         fs::directory_iterator(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/textures"))
        fs::copy_file(entry.path(), dir / "textures" / entry.path().filename());
    SceneDesc scene;
    scene.effects.push_back(instanceOf("campfire.json"));
    std::vector<Diagnostic> diagnostics;
    const Float3 eye{0, 2, 6};
    auto records = [&](ScenePlayer& p) {
        std::vector<DrawRecord> all;
        for (const BillboardBatch& b : billboards(p))
            all.insert(all.end(), b.records.begin(), b.records.end());
        return all;
    };
    auto same = [](const std::vector<DrawRecord>& a, const std::vector<DrawRecord>& b) {
        return a.size() == b.size() &&
               (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(DrawRecord)) == 0);
    };
    auto fresh = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(fresh, nullptr) << allMessages(diagnostics);
    playFrame(*fresh, 1.5f, eye);
    const std::vector<DrawRecord> expected = records(*fresh);
    ASSERT_FALSE(expected.empty());

    auto stepped = makePlayer(scene, dir, diagnostics);
    for (const float t : {0.25f, 0.5f, 1.0f, 1.5f}) playFrame(*stepped, t, eye);
    EXPECT_TRUE(same(records(*stepped), expected)) << "forward in frames";
    playFrame(*stepped, 3.0f, eye);
    playFrame(*stepped, 1.5f, eye);
    EXPECT_TRUE(same(records(*stepped), expected)) << "back in time";
}

TEST(ScenePlayer, InstancesFollowTheirMotionPathAndRotation) {
    const fs::path dir = scratchDir("player", "motion");
    writeText(dir / "follower.json", kFollowerEffect);
    SceneDesc scene;
    EffectInstanceDesc moving = instanceOf("follower.json", {0, 1, 0});
    moving.path = MotionPath{{{0, {0, 0, 0}}, {2, {10, 0, -4}}}, false};
    scene.effects.push_back(moving);
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    for (const float t : {0.5f, 1.0f, 2.0f, 3.0f}) {
        playFrame(*player, t, {0, 2, 6});
        ASSERT_EQ(player->particles, 1u) << t;
        const Float3 expected = instancePosition(moving, t);
        const vec4 p = billboard(*player, 0).records[0].position_size;
        EXPECT_NEAR(p.x, expected.x, 1e-4) << t;
        EXPECT_NEAR(p.y, expected.y, 1e-4) << t;
        EXPECT_NEAR(p.z, expected.z, 1e-4) << t;
    }

    EffectInstanceDesc turned = instanceOf("follower.json", {1, 2, 3});
    turned.rotation_deg = {0, 90, 0};
    const Rows3x4 m = instanceTransform(turned, 0);
    const vec3 x = transformVector(m, vec3(1, 0, 0));
    EXPECT_NEAR(x.x, 0, 1e-6); // +X turned 90 degrees about +Y points to -Z
    EXPECT_NEAR(x.z, -1, 1e-6);
    const vec3 origin = transformPoint(m, vec3(0));
    EXPECT_EQ(origin, vec3(1, 2, 3));
}

TEST(ScenePlayer, DrawsFarInstancesFirstAndSortsSortingEmitters) {
    const fs::path dir = scratchDir("player", "order");
    writeText(dir / "steady.json", kSteadyEffect);
    writeText(dir / "cloud.json", kCloudEffect);
    SceneDesc scene;
    scene.effects.push_back(instanceOf("steady.json", {0, 0, 3}));
    scene.effects.push_back(instanceOf("cloud.json", {0, 0, -10}));
    scene.effects.push_back(instanceOf("steady.json", {0, 0, -20}));
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    const Float3 eye{0, 2, 6};
    playFrame(*player, 1.0f, eye);
    ASSERT_EQ(player->batches.size(), 3u);
    EXPECT_EQ(billboard(*player, 0).records[0].position_size.z, -20.0f);
    EXPECT_EQ(billboard(*player, 2).records[0].position_size.z, 3.0f);
    const auto& cloud = billboard(*player, 1).records;
    ASSERT_GT(cloud.size(), kRadixSortThreshold);
    auto distance = [&](const DrawRecord& r) {
        const vec3 d = vec3(r.position_size) - vec3(eye.x, eye.y, eye.z);
        return dot(d, d);
    };
    for (size_t i = 1; i < cloud.size(); ++i)
        ASSERT_GE(distance(cloud[i - 1]), distance(cloud[i])) << i;
}

// Through weighted OIT the order of an alpha emitter's records does not change the image: the
// player leaves them in backend order, counts what it did not sort, and frameView tells the
// renderer the mode.
TEST(ScenePlayer, WeightedOitSkipsTheSortAndSaysSo) {
    const fs::path dir = scratchDir("player", "oit_order");
    writeText(dir / "cloud.json", kCloudEffect);
    const Float3 eye{0, 2, 6};
    std::vector<std::vector<DrawRecord>> drawn;
    for (Transparency mode : {Transparency::sorted, Transparency::weighted_oit}) {
        SceneDesc scene;
        scene.transparency = mode;
        scene.effects.push_back(instanceOf("cloud.json", {0, 0, 0}));
        std::vector<Diagnostic> diagnostics;
        auto player = makePlayer(scene, dir, diagnostics);
        ASSERT_NE(player, nullptr) << allMessages(diagnostics);
        EXPECT_EQ(frameView(player->scene, 1.0f).transparency, mode);
        playFrame(*player, 1.0f, eye);
        ASSERT_EQ(player->batches.size(), 1u);
        const auto& records = billboard(*player, 0).records;
        drawn.emplace_back(records.begin(), records.end());
        EXPECT_EQ(player->sort_skipped_records,
                  mode == Transparency::weighted_oit ? records.size() : 0u);
    }
    // The same particles; sorted differs from the backend order the OIT frame kept.
    ASSERT_EQ(drawn[0].size(), drawn[1].size());
    ASSERT_GT(drawn[0].size(), kRadixSortThreshold);
    bool same_order = true;
    for (size_t i = 0; i < drawn[0].size(); ++i) {
        same_order = same_order && drawn[0][i].position_size == drawn[1][i].position_size;
    }
    EXPECT_FALSE(same_order);
}

// Mesh emitters are drawn (no warning any more): one mesh batch per emitter with meshParams and
// the mesh loaded once for both instances, in authored order with the billboards.
TEST(ScenePlayer, MeshEmittersBecomeMeshBatchesWithTheirMeshLoadedOnce) {
    const fs::path dir = scratchDir("player", "mesh");
    writeText(dir / "rock.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\n");
    fs::copy_file(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/textures/spark.png",
                  dir / "spark.png", fs::copy_options::overwrite_existing);
    writeText(dir / "rocks.json", R"({
  "version": 1,
  "name": "rocks",
  "emitters": [
    {
      "name": "rock",
      "render": {"type": "mesh", "mesh": "rock.obj", "texture": "spark.png", "scale": 0.5,
                 "tumble_deg_per_s": 90}
    },
    {
      "name": "glints"
    }
  ]
})");
    SceneDesc scene;
    scene.effects.push_back(instanceOf("rocks.json"));
    scene.effects.push_back(instanceOf("rocks.json", {3, 0, 0}));
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    EXPECT_TRUE(diagnostics.empty()) << allMessages(diagnostics);
    ASSERT_EQ(player->meshes.size(), 1u);
    EXPECT_EQ(player->meshes[0].mesh.vertices.size(), 6u);
    player->meshes[0].handle = MeshHandle{0, 1}; // as uploadAssets would
    ASSERT_EQ(player->textures.size(), 1u) << "the mesh's texture, loaded once";
    player->textures[0].handle = TextureHandle{7, 1};
    playFrame(*player, 1.0f, {0, 2, 6});
    ASSERT_EQ(player->batches.size(), 4u);
    for (size_t i = 0; i < 4; i += 2) {
        const MeshBatch* mesh = std::get_if<MeshBatch>(&player->batches[i]);
        ASSERT_NE(mesh, nullptr) << "batch " << i << ": the mesh emitter, first";
        EXPECT_EQ(mesh->mesh, (MeshHandle{0, 1}));
        EXPECT_EQ(mesh->texture, (TextureHandle{7, 1}));
        EXPECT_FLOAT_EQ(mesh->params.scale, 0.5f);
        EXPECT_NEAR(mesh->params.tumble_rad_per_s, 0.5f * 3.14159265f, 1e-5f);
        ASSERT_FALSE(mesh->records.empty());
        for (const DrawRecord& r : mesh->records) EXPECT_EQ(r.emitter_index, 0u);
        EXPECT_TRUE(std::holds_alternative<BillboardBatch>(player->batches[i + 1]));
    }
}

// A missing or malformed mesh is an error at the effect file and $.emitters[i].render.mesh that
// names the emitter, the path as written and the path looked for (and the OBJ's line).
TEST(ScenePlayer, MissingOrMalformedMeshIsAnErrorNamingEffectEmitterAndPath) {
    const fs::path dir = scratchDir("player", "missing_mesh");
    writeText(dir / "fx/meshes/bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n");
    const char* kEffect = R"({
  "version": 1,
  "name": "rocks",
  "emitters": [
    {"name": "glints"},
    {"name": "boulder", "render": {"type": "mesh", "mesh": "meshes/%s"}}
  ]
})";
    for (const std::string name : {"nope.obj", "bad.obj"}) {
        char text[512];
        std::snprintf(text, sizeof(text), kEffect, name.c_str());
        writeText(dir / "fx/rocks.json", text);
        SceneDesc scene;
        scene.effects.push_back(instanceOf("fx/rocks.json"));
        std::vector<Diagnostic> diagnostics;
        EXPECT_EQ(makePlayer(scene, dir, diagnostics), nullptr);
        ASSERT_EQ(diagnostics.size(), 1u) << allMessages(diagnostics);
        const Diagnostic& d = diagnostics[0];
        EXPECT_EQ(d.severity, Severity::error);
        EXPECT_NE(d.file.find("fx/rocks.json"), std::string::npos) << d.file;
        EXPECT_EQ(d.path, "$.emitters[1].render.mesh");
        EXPECT_NE(d.message.find("emitter 'boulder'"), std::string::npos) << d.message;
        EXPECT_NE(d.message.find("cannot load mesh 'meshes/" + name + "'"), std::string::npos)
            << d.message;
        EXPECT_NE(d.message.find((dir / "fx/meshes" / name).string()), std::string::npos)
            << d.message;
        const char* why = name == "nope.obj" ? "cannot open the OBJ file"
                                             : "line 4: position index 7 is out of range";
        EXPECT_NE(d.message.find(why), std::string::npos) << d.message;
    }
}

// A ribbon particle flying along +X, two beams between fixed points, and a billboard, in that
// authored order.
constexpr const char* kStripEffect = R"({
  "version": 1,
  "name": "strips",
  "duration_s": 100,
  "emitters": [
    {
      "name": "comet",
      "capacity": 4,
      "spawn": {"rate_per_s": 0, "bursts": [{"count": 1}]},
      "init": {"lifetime_s": 100, "speed": 0, "velocity": [2, 0, 0], "size": 1},
      "render": {"type": "ribbon", "width": 0.5, "min_sample_distance": 0.1, "max_points": 16}
    },
    {
      "name": "arc",
      "capacity": 4,
      "transform": {"position": [0, 1, 0]},
      "spawn": {"rate_per_s": 0, "bursts": [{"count": 2}]},
      "init": {"lifetime_s": 100, "speed": 0, "color": [0.5, 0.6, 1, 1]},
      "render": {"type": "beam", "start": [-1, 0, 0], "end": [1, 0, 0], "segments": 8,
                 "width": 0.2, "sag": 0.3, "jitter": 0.1, "jitter_frequency": 10}
    },
    {
      "name": "dot",
      "capacity": 4,
      "spawn": {"rate_per_s": 0, "bursts": [{"count": 1}]},
      "init": {"lifetime_s": 100, "speed": 0}
    }
  ]
})";

TEST(ScenePlayer, RibbonAndBeamEmittersBecomeStripBatchesInAuthoredOrder) {
    const fs::path dir = scratchDir("player", "strips");
    writeText(dir / "strips.json", kStripEffect);
    SceneDesc scene;
    scene.effects.push_back(instanceOf("strips.json", {0, 0, -2}));
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    EXPECT_TRUE(diagnostics.empty()) << "ribbons and beams draw: no warning\n"
                                     << allMessages(diagnostics);
    playFrame(*player, 1.0f, {0, 2, 6});
    ASSERT_EQ(player->batches.size(), 3u);
    ASSERT_TRUE(std::holds_alternative<StripBatch>(player->batches[0])) << "the ribbon first";
    ASSERT_TRUE(std::holds_alternative<StripBatch>(player->batches[1]));
    ASSERT_TRUE(std::holds_alternative<BillboardBatch>(player->batches[2]));
    EXPECT_EQ(player->particles, 4u) << "one comet, two arcs, one dot";

    // The ribbon: head first at the particle (its draw record, emitter 0's only one; about 2 m
    // along +X after 1 s), trailing back toward -X.
    const StripBatch& ribbon = std::get<StripBatch>(player->batches[0]);
    ASSERT_GE(ribbon.points.size(), 3u);
    const DrawRecord& comet = player->instances[0].simulation->cpu_records[0];
    ASSERT_EQ(comet.emitter_index, 0u);
    EXPECT_EQ(vec3(ribbon.points[0].position_width), vec3(comet.position_size));
    EXPECT_NEAR(ribbon.points[0].position_width.x, 2.0f, 0.05f);
    EXPECT_EQ(ribbon.points[0].position_width.z, -2.0f);
    EXPECT_LT(ribbon.points.back().position_width.x, ribbon.points[0].position_width.x);
    EXPECT_EQ(ribbon.segments.size(), ribbon.points.size() - 1);

    // Two beams of 9 points each, from (-1, 1, -2) to (1, 1, -2), each its own polyline.
    const StripBatch& beams = std::get<StripBatch>(player->batches[1]);
    ASSERT_EQ(beams.points.size(), 18u);
    ASSERT_EQ(beams.segments.size(), 16u);
    for (uint32_t k = 0; k < 16; ++k) EXPECT_EQ(beams.segments[k], k < 8 ? k : k + 1) << k;
    for (const size_t b : {size_t{0}, size_t{9}}) {
        EXPECT_EQ(vec3(beams.points[b].position_width), vec3(-1, 1, -2));
        EXPECT_EQ(vec3(beams.points[b + 8].position_width), vec3(1, 1, -2));
        EXPECT_EQ(beams.points[b].color, vec4(0.5f, 0.6f, 1, 1));
        EXPECT_EQ(beams.points[b].position_width.w, 0.2f);
        // Sag 0.3 at the middle, jitter at most 0.1 around it.
        EXPECT_NEAR(beams.points[b + 4].position_width.y, 0.7f, 0.1f + 1e-5f);
    }
    EXPECT_NE(vec3(beams.points[4].position_width), vec3(beams.points[13].position_width))
        << "each particle jitters its own way (its key)";
    EXPECT_EQ(player->strip_segments, ribbon.segments.size() + 16);
}

TEST(ScenePlayer, BeamJitterIsRedrawnAtItsFrequency) {
    const fs::path dir = scratchDir("player", "jitter");
    writeText(dir / "strips.json", kStripEffect);
    SceneDesc scene;
    scene.effects.push_back(instanceOf("strips.json"));
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    auto beamPoints = [&](float t) {
        playFrame(*player, t, {0, 2, 6});
        const auto& points = std::get<StripBatch>(player->batches[1]).points;
        return std::vector<StripPoint>(points.begin(), points.end());
    };
    auto same = [](const std::vector<StripPoint>& a, const std::vector<StripPoint>& b) {
        return a.size() == b.size() &&
               std::memcmp(a.data(), b.data(), a.size() * sizeof(StripPoint)) == 0;
    };
    // 10 patterns a second: 1.0 s and 1.05 s show cycle 10, 1.15 s cycle 11.
    const std::vector<StripPoint> first = beamPoints(1.0f);
    EXPECT_TRUE(same(beamPoints(1.05f), first));
    const std::vector<StripPoint> next = beamPoints(1.15f);
    EXPECT_FALSE(same(next, first));
    EXPECT_EQ(next[0].position_width, first[0].position_width) << "the ends stay put";
    EXPECT_TRUE(same(beamPoints(1.0f), first)) << "back in time: the same beam";
}

TEST(ScenePlayer, DrawRecordsCarryTheParticleKey) {
    const fs::path dir = scratchDir("player", "keys");
    writeText(dir / "steady.json", kSteadyEffect);
    SceneDesc scene;
    scene.effects.push_back(instanceOf("steady.json"));
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    playFrame(*player, 0.5f, {0, 2, 6});
    const auto& records = billboard(*player, 0).records;
    ASSERT_EQ(records.size(), 30u);
    // Births in order, ordinals 0, 1, ...; nothing has died, so slot order is birth order.
    const uint32_t seed = player->instances[0].effect->effect.seed;
    for (uint32_t i = 0; i < records.size(); ++i) {
        EXPECT_EQ(records[i].key, sdParticleKey(seed, 0u, i, 0u)) << i;
    }
}

TEST(ScenePlayer, MissingTextureIsAnErrorNamingEffectEmitterAndPath) {
    const fs::path dir = scratchDir("player", "missing");
    writeText(dir / "fx/smoky.json", R"({
  "version": 1,
  "name": "smoky",
  "emitters": [
    {
      "name": "puff",
      "render": {"texture": "textures/nope.png"}
    }
  ]
})");
    SceneDesc scene;
    scene.effects.push_back(instanceOf("fx/smoky.json"));
    std::vector<Diagnostic> diagnostics;
    EXPECT_EQ(makePlayer(scene, dir, diagnostics), nullptr);
    ASSERT_TRUE(hasErrors(diagnostics));
    const Diagnostic& d = diagnostics.back();
    EXPECT_NE(d.file.find("fx/smoky.json"), std::string::npos) << d.file;
    EXPECT_EQ(d.path, "$.emitters[0].render.texture");
    EXPECT_NE(d.message.find("'puff'"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("textures/nope.png"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find((dir / "fx/textures/nope.png").string()), std::string::npos)
        << d.message;
}

TEST(ScenePlayer, BadTextureAndBadEffectAreErrors) {
    const fs::path dir = scratchDir("player", "bad");
    writeText(dir / "broken.png", "not a png at all");
    writeText(dir / "glow.json", R"({
  "version": 1,
  "name": "glow",
  "emitters": [{"name": "g", "render": {"texture": "broken.png"}}]
})");
    writeText(dir / "invalid.json",
              R"({"version": 1, "name": "x", "emitters": [{"name": "e", "capacity": -1}]})");
    for (const char* effect : {"glow.json", "invalid.json", "absent.json"}) {
        SceneDesc scene;
        scene.effects.push_back(instanceOf(effect));
        std::vector<Diagnostic> diagnostics;
        EXPECT_EQ(makePlayer(scene, dir, diagnostics), nullptr) << effect;
        EXPECT_TRUE(hasErrors(diagnostics)) << effect;
    }
}

// Trail storage past the CPU backend's limit (kMaxTrailPoints) is an error naming the effect
// file and the key to lower, not an exception out of the player.
TEST(ScenePlayer, TrailStoragePastTheCpuLimitIsAnError) {
    const fs::path dir = scratchDir("player", "trail_limit");
    writeText(dir / "long_trails.json", R"({
  "version": 1,
  "name": "long_trails",
  "capacity": 1000000,
  "emitters": [{"name": "t", "capacity": 131072,
                "render": {"type": "ribbon", "max_points": 256}}]
})");
    SceneDesc scene;
    scene.effects.push_back(instanceOf("long_trails.json"));
    std::vector<Diagnostic> diagnostics;
    EXPECT_EQ(makePlayer(scene, dir, diagnostics), nullptr);
    ASSERT_TRUE(hasErrors(diagnostics));
    const std::string text = allMessages(diagnostics);
    EXPECT_NE(text.find("long_trails.json"), std::string::npos) << text;
    EXPECT_NE(text.find("$.emitters[0].render.max_points"), std::string::npos) << text;
}

TEST(ScenePlayer, LoadsEachDistinctTextureOnce) {
    const fs::path dir = scratchDir("player", "shared_texture");
    fs::copy_file(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/textures/spark.png",
                  dir / "spark.png");
    writeText(dir / "a.json", R"({
  "version": 1,
  "name": "a",
  "emitters": [
    {"name": "one", "render": {"texture": "spark.png"}},
    {"name": "two", "render": {"texture": "./spark.png"}},
    {"name": "plain"}
  ]
})");
    writeText(dir / "sub/b.json", R"({
  "version": 1,
  "name": "b",
  "emitters": [{"name": "three", "render": {"texture": "../spark.png"}}]
})");
    SceneDesc scene;
    scene.effects.push_back(instanceOf("a.json"));
    scene.effects.push_back(instanceOf("sub/b.json"));
    std::vector<Diagnostic> diagnostics;
    auto player = makePlayer(scene, dir, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    ASSERT_EQ(player->textures.size(), 1u);
    EXPECT_EQ(player->textures[0].image.width, 32u);
    // Handles as a renderer would give them (there is no GPU here).
    player->textures[0].handle = TextureHandle{7, 1};
    playFrame(*player, 1.0f, {0, 2, 6});
    ASSERT_EQ(player->batches.size(), 4u);
    uint32_t textured = 0;
    for (const BillboardBatch& b : billboards(*player)) {
        textured += b.texture == TextureHandle{7, 1} ? 1 : 0;
    }
    EXPECT_EQ(textured, 3u);
}

} // namespace
} // namespace spindrift::render

namespace spindrift::render {
namespace {

CompiledEffect sample(const std::string& name) {
    CompiledEffect effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadCompiledEffect(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" + name,
                                   effect, diagnostics));
    return effect;
}

CompiledEffect compiledText(const std::string& text) {
    CompiledEffect effect;
    std::vector<Diagnostic> diagnostics;
    const fs::path file = scratchDir("player", "developed") / "fx.json";
    writeText(file, text);
    EXPECT_TRUE(loadCompiledEffect(file.string(), effect, diagnostics)) << allMessages(diagnostics);
    return effect;
}

TEST(ScenePlayer, DevelopedTimeWaitsForTheLongestLifeChain) {
    // Looping: the longest delay + lifetime, at least 2 s.
    EXPECT_FLOAT_EQ(developedTime(compiledText(R"({"version": 1, "name": "a", "emitters": [
        {"name": "short", "init": {"lifetime_s": [0.5, 1]}},
        {"name": "late", "spawn": {"delay_s": 1.5}, "init": {"lifetime_s": [2, 3]}}]})")),
                    4.5f);
    EXPECT_FLOAT_EQ(developedTime(compiledText(R"({"version": 1, "name": "b", "emitters": [
        {"name": "brief", "init": {"lifetime_s": 0.3}}]})")),
                    2.0f);
    // One shot: 0.4 of the longest chain.
    EXPECT_FLOAT_EQ(developedTime(compiledText(R"({"version": 1, "name": "c", "looping": false,
        "emitters": [{"name": "burst", "init": {"lifetime_s": [1, 2]}}]})")),
                    0.8f);
    // Through a sub-emitter link: rocket 2 s, then stars 1.6 s.
    EXPECT_FLOAT_EQ(developedTime(sample("fireworks.json")), 3.6f);
}

TEST(ScenePlayer, DefaultStillTimeIsWhenTheLastInstanceIsDevelopedWithinTheScene) {
    const std::string file =
        std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/campfire_night.json";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadSceneFile(file, scene, diagnostics));
    scene.effects.resize(1); // the campfire
    const float developed = developedTime(sample("campfire.json"));
    scene.effects[0].start_s = 1;
    scene.effects[0].time_scale = 2;
    auto player = createScenePlayer(scene, file, PlayerConfig{}, diagnostics);
    ASSERT_NE(player, nullptr);
    EXPECT_FLOAT_EQ(defaultStillTime(*player), 1 + developed / 2);
    player->scene.duration_s = 1.5f;
    EXPECT_FLOAT_EQ(defaultStillTime(*player), 1.5f);
}

} // namespace
} // namespace spindrift::render

namespace spindrift::render {
namespace {

// Renders frames of scene with the player config at a small size; empty on failure. With
// share_device the player is given the renderer (GPU instances run on its device and are drawn
// from it); device_batches then receives how many batches of device records each frame drew.
std::vector<Image> renderWith(const SceneDesc& scene, const std::string& file, PlayerConfig config,
                              const std::vector<float>& times, std::vector<Diagnostic>& diagnostics,
                              bool share_device = false,
                              std::vector<uint64_t>* device_batches = nullptr,
                              const std::function<void(ScenePlayer&)>& setup = {}) {
    RendererConfig renderer_config;
    renderer_config.width = 96;
    renderer_config.height = 64;
    renderer_config.validation = true;
    RendererPtr renderer = createRenderer(renderer_config, diagnostics);
    if (!renderer) return {};
    if (share_device) config.renderer = renderer.get();
    auto player = createScenePlayer(scene, file, config, diagnostics);
    if (!player || !uploadAssets(*player, *renderer, diagnostics)) return {};
    if (setup) setup(*player);
    std::vector<Image> frames;
    for (const float t : times) {
        const FrameView view = frameView(player->scene, t);
        playFrame(*player, t, view.camera.eye);
        if (!player->errors.empty()) return {};
        Image image;
        FrameStats stats;
        if (!renderFrame(*renderer, view, player->batches, image, stats, diagnostics)) return {};
        if (device_batches != nullptr) {
            device_batches->push_back(stats.device_batches + stats.device_strip_batches +
                                      stats.device_mesh_batches);
        }
        frames.push_back(std::move(image));
    }
    std::vector<std::string> messages = validationMessages(*renderer);
    appendSimulationValidationMessages(*player, messages);
    for (const std::string& m : messages)
        diagnostics.push_back({Severity::error, "", 0, 0, 0, "", m});
    return frames;
}

// Frames a and b agree within the GPU parity tolerance: the particles match within 1e-4
// (docs/gpu-backend.md, "Parity"), which moves an edge by far less than a pixel, so the images
// agree to within a few 8-bit levels except where a particle's edge straddles a pixel centre.
// Tolerance: mean absolute difference <= 0.5 levels per channel and no more than 1 % of pixels
// differing by more than 8 levels; a shows particles.
void expectSameFrames(const std::vector<Image>& a_frames, const std::vector<Image>& b_frames) {
    ASSERT_EQ(a_frames.size(), b_frames.size());
    for (size_t f = 0; f < a_frames.size(); ++f) {
        const Image& a = a_frames[f];
        const Image& b = b_frames[f];
        ASSERT_EQ(a.rgba8.size(), b.rgba8.size());
        double sum = 0;
        size_t far = 0;
        size_t lit = 0;
        for (size_t i = 0; i < a.rgba8.size(); ++i) {
            const int d = std::abs(int(a.rgba8[i]) - int(b.rgba8[i]));
            sum += d;
            far += d > 8 ? 1 : 0;
        }
        for (size_t i = 0; i < a.rgba8.size(); ++i) lit += a.rgba8[i] != a.rgba8[i % 4];
        EXPECT_GT(lit, a.rgba8.size() / 100) << "frame " << f << " shows particles";
        EXPECT_LE(sum / double(a.rgba8.size()), 0.5) << "frame " << f;
        EXPECT_LE(double(far), 0.01 * double(a.rgba8.size())) << "frame " << f;
    }
}

// Renders scene with config (renderWith) and expects the frames of `expected` within the GPU
// parity tolerance (expectSameFrames), without errors.
void expectRendersAs(const std::vector<Image>& expected, const SceneDesc& scene,
                     const std::string& file, const PlayerConfig& config,
                     const std::vector<float>& times, std::vector<Diagnostic>& diagnostics,
                     bool share_device = false, std::vector<uint64_t>* device_batches = nullptr) {
    const std::vector<Image> frames =
        renderWith(scene, file, config, times, diagnostics, share_device, device_batches);
    ASSERT_EQ(frames.size(), times.size()) << allMessages(diagnostics);
    EXPECT_FALSE(hasErrors(diagnostics)) << allMessages(diagnostics);
    expectSameFrames(expected, frames);
}

// The GPU backend on the player's device, validation on.
PlayerConfig gpuPlayerConfig() {
    PlayerConfig config;
    config.backend = BackendRequest::gpu;
    config.validation = true;
    return config;
}

// The scene player with the GPU backend on lavapipe draws what it draws with the CPU backend,
// both when the GPU instances have a device of their own (draw records read back) and when they
// share the renderer's and are drawn from the device (indirect draws, the smoke's back-to-front
// order sorted on the GPU). Frames go forward, then back (a restart), with the campfire and the
// smoke plume, one of which moves nowhere and one of which is placed away from the origin.
TEST(ScenePlayer, GpuBackendDrawsWhatTheCpuBackendDraws) {
    const std::string file =
        std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/campfire_night.json";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadSceneFile(file, scene, diagnostics)) << allMessages(diagnostics);
    const std::vector<float> times = {0.5f, 1.25f, 0.75f};
    PlayerConfig cpu_config;
    const std::vector<Image> cpu_frames = renderWith(scene, file, cpu_config, times, diagnostics);
    ASSERT_EQ(cpu_frames.size(), times.size()) << allMessages(diagnostics);
    const PlayerConfig gpu_config = gpuPlayerConfig();
    std::vector<Diagnostic> gpu_diagnostics;
    auto player = createScenePlayer(scene, file, gpu_config, gpu_diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(gpu_diagnostics);
    for (const PlayerInstance& p : player->instances) {
        EXPECT_EQ(p.simulation->backend.backend, Backend::gpu) << p.simulation->backend.reason;
        EXPECT_NE(p.simulation->gpu, nullptr);
        EXPECT_EQ(p.simulation->cpu, nullptr);
        EXPECT_FALSE(p.simulation->draws_from_device); // no renderer given: read back
    }
    player.reset();
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics);

    std::vector<uint64_t> device_batches;
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics, true,
                    &device_batches);
    for (const uint64_t n : device_batches) EXPECT_GE(n, 3u) << "drawn from the device";

    // Weighted-blended OIT: device batches of alpha particles are accumulated (unsorted) too.
    scene.transparency = Transparency::weighted_oit;
    const std::vector<Image> cpu_oit = renderWith(scene, file, cpu_config, times, diagnostics);
    expectRendersAs(cpu_oit, scene, file, gpu_config, times, gpu_diagnostics, true);
}

// The instance overrides reach the batches drawn from the device: with a colour tint and a size
// scale on every instance, the GPU backend drawing from the renderer's device (flames and embers
// as they are, the smoke in its GPU-sorted order) renders what the CPU backend renders with the
// same overrides, within the parity tolerance; and the overrides change the image, so frames that
// ignored them on the device would not match.
TEST(ScenePlayer, ATintedGpuInstanceDrawnFromTheDeviceDrawsAsATintedCpuInstance) {
    const std::string file =
        std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/campfire_night.json";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadSceneFile(file, scene, diagnostics)) << allMessages(diagnostics);
    // The frames as drawn, before any tone curve: the test is about the overrides reaching the
    // device, and a tone curve would compress the very differences it counts.
    scene.tonemap = Tonemap::none;
    scene.bloom.strength = 0;
    const std::vector<float> times = {0.5f, 1.25f};
    const auto overrides = [](ScenePlayer& player) {
        for (const PlayerInstance& p : player.instances) {
            ASSERT_EQ(player.world->setTint(p.handle, Color{0.1f, 1.0f, 0.3f, 1.0f}),
                      RuntimeError::none);
            ASSERT_EQ(player.world->setSizeScale(p.handle, 2.5f), RuntimeError::none);
        }
    };
    const std::vector<Image> plain = renderWith(scene, file, PlayerConfig{}, times, diagnostics);
    const std::vector<Image> cpu_tinted =
        renderWith(scene, file, PlayerConfig{}, times, diagnostics, false, nullptr, overrides);
    ASSERT_EQ(plain.size(), times.size()) << allMessages(diagnostics);
    ASSERT_EQ(cpu_tinted.size(), times.size()) << allMessages(diagnostics);
    for (size_t f = 0; f < times.size(); ++f) {
        size_t far = 0;
        for (size_t i = 0; i < plain[f].rgba8.size(); ++i)
            far += std::abs(int(plain[f].rgba8[i]) - int(cpu_tinted[f].rgba8[i])) > 8 ? 1 : 0;
        // Past the parity tolerance (at most 1% of the channels more than 8 apart) by half again:
        // untinted frames could not pass for the tinted ones.
        EXPECT_GT(double(far), 0.015 * double(plain[f].rgba8.size())) << "frame " << f;
    }
    std::vector<Diagnostic> gpu_diagnostics;
    std::vector<uint64_t> device_batches;
    const std::vector<Image> gpu_tinted = renderWith(
        scene, file, gpuPlayerConfig(), times, gpu_diagnostics, true, &device_batches, overrides);
    ASSERT_EQ(gpu_tinted.size(), times.size()) << allMessages(gpu_diagnostics);
    EXPECT_FALSE(hasErrors(gpu_diagnostics)) << allMessages(gpu_diagnostics);
    for (const uint64_t n : device_batches) EXPECT_GE(n, 3u) << "drawn from the device";
    expectSameFrames(cpu_tinted, gpu_tinted);
}

// auto splits the campfire whose smoke asks for the CPU: flames, embers, firelight and halo on the
// GPU (drawn from the renderer's device), the smoke on the CPU, one draw order; the frames match
// the CPU backend's render of the same effect within the parity tolerance.
TEST(ScenePlayer, AnEffectSplitAcrossBackendsDrawsWhatTheCpuDraws) {
    const fs::path dir = scratchDir("player", "split");
    fs::remove_all(dir);
    fs::copy(fs::path(SPINDRIFT_SOURCE_DIR) / "examples", dir, fs::copy_options::recursive);
    const fs::path effect = dir / "effects" / "campfire.json";
    std::string text;
    {
        std::ifstream in(effect);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string smoke = "\"name\": \"smoke\",";
    ASSERT_NE(text.find(smoke), std::string::npos);
    text.replace(text.find(smoke), smoke.size(), smoke + " \"backend\": \"cpu\",");
    writeText(effect, text);
    const std::string file = (dir / "scenes" / "campfire_night.json").string();
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadSceneFile(file, scene, diagnostics)) << allMessages(diagnostics);
    scene.effects.resize(1); // the campfire
    const std::vector<float> times = {0.5f, 1.25f};
    const std::vector<Image> cpu_frames =
        renderWith(scene, file, PlayerConfig{}, times, diagnostics);
    ASSERT_EQ(cpu_frames.size(), times.size()) << allMessages(diagnostics);

    PlayerConfig split_config;
    split_config.backend = BackendRequest::automatic;
    split_config.auto_on_cpu_device = true;
    split_config.validation = true;
    auto player = createScenePlayer(scene, file, split_config, diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(diagnostics);
    const PlayerInstance& p = player->instances[0];
    EXPECT_TRUE(splitsEffect(p.simulation->backend)) << p.simulation->backend.reason;
    EXPECT_NE(p.simulation->cpu, nullptr);
    EXPECT_NE(p.simulation->gpu, nullptr);
    player.reset();
    std::vector<uint64_t> device_batches;
    expectRendersAs(cpu_frames, scene, file, split_config, times, diagnostics, true,
                    &device_batches);
    // The flames make particle lights, which only a CPU emitter makes: auto keeps them there too.
    for (const uint64_t n : device_batches)
        EXPECT_EQ(n, 3u) << "embers, the firelight decal and the halo";
}

// One frame of a player on a small renderer's device (its GPU instances drawn from the device):
// the strip batches it made, each checked to come from the device (device points, no host
// points) with no segment built on the host, and how many other batches it made.
struct DeviceFrame {
    std::vector<StripBatch> strips;
    size_t other_batches = 0;
    bool strip_points_empty = false; // the instance built no strip point on the host
};
DeviceFrame playOnTheRenderersDevice(const SceneDesc& scene, const std::string& file,
                                     PlayerConfig config, float t) {
    DeviceFrame frame;
    std::vector<Diagnostic> diagnostics;
    RendererConfig renderer_config;
    renderer_config.width = 32;
    renderer_config.height = 32;
    RendererPtr renderer = createRenderer(renderer_config, diagnostics);
    EXPECT_NE(renderer, nullptr) << allMessages(diagnostics);
    if (!renderer) return frame;
    config.renderer = renderer.get();
    auto player = createScenePlayer(scene, file, config, diagnostics);
    EXPECT_NE(player, nullptr) << allMessages(diagnostics);
    if (!player) return frame;
    EXPECT_NE(player->instances[0].simulation->gpu, nullptr);
    EXPECT_TRUE(player->instances[0].simulation->draws_from_device);
    playFrame(*player, t, frameView(scene, t).camera.eye);
    EXPECT_TRUE(player->errors.empty()) << allMessages(player->errors);
    for (const DrawBatch& b : player->batches) {
        const StripBatch* strip = std::get_if<StripBatch>(&b);
        if (strip == nullptr) {
            ++frame.other_batches;
            continue;
        }
        EXPECT_NE(strip->device.points, 0u) << "a strip built on the host";
        EXPECT_TRUE(strip->points.empty());
        frame.strips.push_back(*strip);
    }
    EXPECT_EQ(player->strip_segments, 0u) << "no segment built on the host";
    frame.strip_points_empty = player->instances[0].strip_points.empty();
    return frame;
}

// Ribbons simulated on the GPU backend (docs/gpu-backend.md, "Ribbons"): the sword trail's strips,
// built on the host from trails gathered on the device, and written on the device and drawn from
// it (on the renderer's device), draw what the CPU backend's draw, within the same tolerance as
// billboards; frames forward, then back (a restart), the instance placed and turned away from
// the origin.
TEST(ScenePlayer, GpuBackendDrawsTheSameRibbonsAsTheCpuBackend) {
    const std::string file = std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/in_code.json";
    SceneDesc scene;
    scene.camera.position = {0.5f, 2, 5};
    scene.camera.target = {0.5f, 1.5f, 0.5f};
    scene.camera.fov_deg = 60;
    scene.effects.push_back(instanceOf("../effects/sword_trail.json", {0.5f, 0.25f, 0}));
    scene.effects[0].rotation_deg = {0, 20, 0};
    const std::vector<float> times = {0.3f, 0.95f, 0.4f};
    std::vector<Diagnostic> diagnostics;
    PlayerConfig cpu_config;
    const std::vector<Image> cpu_frames = renderWith(scene, file, cpu_config, times, diagnostics);
    ASSERT_EQ(cpu_frames.size(), times.size()) << allMessages(diagnostics);
    const PlayerConfig gpu_config = gpuPlayerConfig();
    std::vector<Diagnostic> gpu_diagnostics;
    auto player = createScenePlayer(scene, file, gpu_config, gpu_diagnostics);
    ASSERT_NE(player, nullptr) << allMessages(gpu_diagnostics);
    ASSERT_EQ(player->instances.size(), 1u);
    EXPECT_NE(player->instances[0].simulation->gpu, nullptr)
        << player->instances[0].simulation->backend.reason;
    EXPECT_EQ(player->instances[0].simulation->cpu, nullptr);
    playFrame(*player, times[0], frameView(scene, times[0]).camera.eye);
    EXPECT_TRUE(player->errors.empty()) << allMessages(player->errors);
    EXPECT_GT(player->strip_segments, 4u) << "the blade's trail is drawn";
    player.reset();
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics);

    // On the renderer's device the ribbons are drawn from the device too (device strips, no
    // readback), and still draw what the CPU backend draws.
    const DeviceFrame device = playOnTheRenderersDevice(scene, file, gpu_config, times[0]);
    EXPECT_EQ(device.strips.size(), 1u) << "the blade's trail, from the device";
    std::vector<uint64_t> device_batches;
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics, true,
                    &device_batches);
    for (const uint64_t n : device_batches) EXPECT_EQ(n, 2u) << "the blade and its sparks";
}

// Lightning simulated on the GPU and drawn from the renderer's device (its beams written by the
// GPU's strip pass from the frame's curve and jitter cycle, nothing read back; the glow, flash and
// strike its bolts' births spawn drawn as billboards from the device) draws what the CPU
// backend draws, frames forward and back (a restart; the jitter cycle counts from the simulation
// time); read back, the same. The instance is turned and placed away from the origin, so the curve
// is not the authored one.
TEST(ScenePlayer, GpuBackendDrawsTheSameBeamsAsTheCpuBackend) {
    const std::string file = std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/in_code.json";
    SceneDesc scene;
    scene.camera.position = {0.8f, 4.2f, 2.6f};
    scene.camera.target = {0.8f, 3.6f, 0};
    scene.camera.fov_deg = 60;
    scene.effects.push_back(instanceOf("../effects/lightning.json", {0.5f, -0.5f, 0}));
    scene.effects[0].rotation_deg = {0, 15, 5};
    // A bolt lives at each (bursts of probability 0.8 every 0.25 s from 0.1 s, each bolt for
    // about 0.2 s; with seed 13 the first burst is skipped). Jitter cycles 8, 13 and 9.
    const std::vector<float> times = {0.42f, 0.67f, 0.45f};
    std::vector<Diagnostic> diagnostics;
    PlayerConfig cpu_config;
    const std::vector<Image> cpu_frames = renderWith(scene, file, cpu_config, times, diagnostics);
    ASSERT_EQ(cpu_frames.size(), times.size()) << allMessages(diagnostics);
    const PlayerConfig gpu_config = gpuPlayerConfig();
    std::vector<Diagnostic> gpu_diagnostics;
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics);

    const DeviceFrame device = playOnTheRenderersDevice(scene, file, gpu_config, times[0]);
    EXPECT_EQ(device.other_batches, 3u) << "the bolt's glow, sky flash and ground strike";
    EXPECT_EQ(device.strips.size(), 1u) << "the bolt, from the device";
    for (const StripBatch& strip : device.strips) {
        EXPECT_GE(strip.device.max_strips, 1u) << "a bolt lives";
        EXPECT_EQ(strip.device.points_per_strip, 49u) << "48 segments";
        EXPECT_TRUE(strip.segments.empty());
    }
    EXPECT_TRUE(device.strip_points_empty);
    std::vector<uint64_t> device_batches;
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics, true,
                    &device_batches);
    for (const uint64_t n : device_batches)
        EXPECT_EQ(n, 4u) << "the bolt, its glow, flash and strike, drawn from the device";
}

// Mesh particles simulated on the GPU backend draw what the CPU backend's draw: read back, and
// drawn from the renderer's device (an instanced indirect draw per mesh emitter). The rockfall's
// rocks are opaque (depth written, drawn first) and its dust alpha billboards sorted back to
// front on the GPU. Frames forward, then back.
TEST(ScenePlayer, GpuBackendDrawsTheSameMeshesAsTheCpuBackend) {
    const std::string file = std::string(SPINDRIFT_SOURCE_DIR) + "/examples/scenes/in_code.json";
    SceneDesc scene;
    scene.camera.position = {0, 1.4f, 3.2f};
    scene.camera.target = {0, 0.6f, 0};
    scene.effects.push_back(instanceOf("../effects/rockfall.json", {0.2f, 0, -0.3f}));
    // The dust's opacity shadow map covers the last cascade's whole extent when its records stay
    // on the device, and fits the records when they come from the host (docs/rendering.md,
    // "Shadows"): the backends' dust shadows differ by design, so this comparison of their
    // meshes and dust is made without shadows (the mesh shadows: the sun_shadows golden).
    scene.shadows.enabled = false;
    const std::vector<float> times = {0.5f, 1.0f, 0.7f};
    std::vector<Diagnostic> diagnostics;
    PlayerConfig cpu_config;
    const std::vector<Image> cpu_frames = renderWith(scene, file, cpu_config, times, diagnostics);
    ASSERT_EQ(cpu_frames.size(), times.size()) << allMessages(diagnostics);
    const PlayerConfig gpu_config = gpuPlayerConfig();
    std::vector<Diagnostic> gpu_diagnostics;
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics);
    std::vector<uint64_t> device_batches;
    expectRendersAs(cpu_frames, scene, file, gpu_config, times, gpu_diagnostics, true,
                    &device_batches);
    for (const uint64_t n : device_batches) {
        EXPECT_EQ(n, 2u) << "the rocks and the dust, from the device";
    }
}

// Depth-buffer collision through the CLI's path (renderSceneFrame): rain over the scene's ground,
// which no collider describes, stops on the depth the renderer drew of it, one frame late, on
// the CPU backend (the host copy) and on the GPU backend sharing the renderer's device (its
// buffer, read at its address). Without a renderer there is no depth, and the rain falls through.
TEST(ScenePlayer, DepthBufferRainStopsOnTheRenderedGround) {
    const std::string file = std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/scene.json";
    SceneDesc scene;
    scene.effects.push_back(instanceOf("effects/depth_floor_rain.json"));
    const auto lowestAfter = [&](PlayerConfig config, bool with_renderer, size_t& on_ground,
                                 std::vector<Diagnostic>& diagnostics) {
        RendererConfig renderer_config;
        renderer_config.width = 160;
        renderer_config.height = 96;
        renderer_config.validation = true;
        RendererPtr renderer = createRenderer(renderer_config, diagnostics);
        EXPECT_NE(renderer, nullptr) << allMessages(diagnostics);
        if (!renderer) return 0.0f;
        if (with_renderer) config.renderer = renderer.get();
        auto player = createScenePlayer(scene, file, config, diagnostics);
        EXPECT_NE(player, nullptr) << allMessages(diagnostics);
        if (!player) return 0.0f;
        EXPECT_EQ(player->scene_depth, with_renderer ? (config.backend == BackendRequest::gpu
                                                            ? SceneDepthOutput::device
                                                            : SceneDepthOutput::device_and_host)
                                                     : SceneDepthOutput::none);
        for (int k = 0; k <= 45; ++k) {
            Image image;
            FrameStats stats;
            EXPECT_TRUE(renderSceneFrame(*renderer, *player, float(k) / 30.0f, k > 0, image, stats,
                                         diagnostics))
                << allMessages(diagnostics);
        }
        std::vector<Particle> ps;
        EXPECT_EQ(player->world->readParticles(player->instances[0].handle, ps),
                  RuntimeError::none);
        EXPECT_GT(ps.size(), 200u);
        float low = std::numeric_limits<float>::infinity();
        on_ground = 0;
        for (const Particle& p : ps) {
            low = std::min(low, p.position.y);
            on_ground += std::fabs(p.position.y) < 0.03f;
        }
        std::vector<std::string> messages = validationMessages(*renderer);
        appendSimulationValidationMessages(*player, messages);
        EXPECT_TRUE(messages.empty()) << messages.front();
        return low;
    };
    for (const BackendRequest backend : {BackendRequest::cpu, BackendRequest::gpu}) {
        PlayerConfig config = backend == BackendRequest::gpu ? gpuPlayerConfig() : PlayerConfig{};
        std::vector<Diagnostic> diagnostics;
        size_t on_ground = 0;
        const float low = lowestAfter(config, true, on_ground, diagnostics);
        EXPECT_GE(low, -0.03f) << int(backend);
        EXPECT_GT(on_ground, 100u) << int(backend);
        if (backend == BackendRequest::cpu) {
            EXPECT_LT(lowestAfter(config, false, on_ground, diagnostics), -1.0f);
        }
    }
}

} // namespace
} // namespace spindrift::render
