#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "scene/scene_test_util.h"
#include "spindrift/scene_json.h"

namespace spindrift {
namespace {

SceneDesc reload(const std::string& text) {
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadScene(text, "saved.json", scene, diagnostics)) << dump(diagnostics) << text;
    return scene;
}

// A scene that sets every field away from its default, in both camera modes and both
// primitive types.
SceneDesc everythingSet(CameraMode mode) {
    SceneDesc s;
    s.camera.mode = mode;
    if (mode == CameraMode::orbit) {
        s.camera.orbit = CameraOrbit{{1, 2, 3}, 7.5f, -1, 4.25f, 90};
    } else {
        s.camera.position = {0.1f, 0.2f, 0.3f};
        s.camera.target = {-1, 1e-7f, 3e6f};
    }
    s.camera.fov_deg = 33.3f;
    s.camera.near = 0.01f;
    s.camera.far = 12345;
    s.resolution = {8192, 16};
    s.background = {0.5f, 0.25f, 0.125f};
    s.ground = GroundDesc{false, -2.5f, {0.3f, 0.2f, 0.1f}, 99};
    s.primitives.push_back(
        PrimitiveDesc{PrimitiveKind::box, {1, 2, 3}, {4, 5, 6}, 0.5f, {1, 0, 0}});
    s.lights.push_back(LightDesc{LightKind::point, {1, 2, 3}, {4, 0.5f, 0}, 2.5f, 7});
    // direction is normalised on read, so a unit one survives exactly.
    s.lights.push_back(
        LightDesc{LightKind::spot, {-1, 5, 0}, {0, 0, 2}, 1e5f, 1000, {0, 0, -1}, 0, 90, true});
    PrimitiveDesc sphere;
    sphere.type = PrimitiveKind::sphere;
    sphere.radius = 2.75f;
    s.primitives.push_back(sphere);
    s.sun = SunDesc{{0, -1, 0}, {2, 2, 2}, 3};
    s.ambient = {0, 0, 0};
    s.sky = SkyDesc{{0.25f, 0.5f, 1}, {0.5f, 0.5f, 0.5f}, {0.125f, 0.0625f, 0}, 2};
    s.transparency = Transparency::weighted_oit;
    s.particle_resolution = ParticleResolution::half;
    s.exposure = ExposureDesc{ExposureMode::automatic, 1.5f, -3, 6.25f, 10, 99.5f, 0.5f};
    s.tonemap = Tonemap::agx;
    s.bloom = BloomDesc{0.125f, 8};
    EffectInstanceDesc a;
    a.effect = "dir/é fire.json";
    a.name = "fire_1";
    a.position = {1, 2, 3};
    a.rotation_deg = {10, 20, 30};
    a.path = MotionPath{{{-1, {0, 0, 0}}, {0.5f, {1, 2, 3}}, {2, {-4, 0.1f, 0}}}, true};
    a.start_s = -0.75f;
    a.time_scale = 0.5f;
    s.effects.push_back(a);
    EffectInstanceDesc b;
    b.effect = "b.json";
    b.path = MotionPath{{{0, {0, 0, 0}}, {1, {0, 0, 0}}}, false};
    s.effects.push_back(b);
    s.duration_s = 12.5f;
    s.fps = 60;
    return s;
}

TEST(SceneWriter, DefaultSceneWritesOnlyTheVersion) {
    EXPECT_EQ(saveScene(SceneDesc{}), "{\n  \"version\": 1\n}\n");
}

TEST(SceneWriter, EveryFieldSurvivesSaveAndLoad) {
    for (CameraMode mode : {CameraMode::look_at, CameraMode::orbit}) {
        const SceneDesc s = everythingSet(mode);
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(validateScene(s, diagnostics)) << dump(diagnostics);
        const std::string text = saveScene(s);
        EXPECT_EQ(reload(text), s) << text;
        EXPECT_EQ(saveScene(reload(text)), text);
    }
}

TEST(SceneWriter, DefaultOrbitCameraKeepsItsMode) {
    SceneDesc s;
    s.camera.mode = CameraMode::orbit;
    const std::string text = saveScene(s);
    EXPECT_NE(text.find("\"orbit\": {}"), std::string::npos) << text;
    EXPECT_EQ(reload(text), s);
}

TEST(SceneWriter, LookAtCameraAlwaysWritesPositionAndTarget) {
    SceneDesc s;
    s.camera.fov_deg = 70;
    const std::string text = saveScene(s);
    EXPECT_NE(text.find("\"position\": [0, 2, 6]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"target\": [0, 1, 0]"), std::string::npos) << text;
    EXPECT_EQ(reload(text), s);
}

// A float prints 100000 as 1e5, which is no integer literal; the writer must not use that form,
// or the saved text would report a wrong kind instead of the value out of range.
TEST(SceneWriter, OutOfRangeResolutionReadsBackAsItsValue) {
    SceneDesc s;
    s.resolution = {100000, 96};
    const std::string text = saveScene(s);
    SceneDesc read;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadScene(text, "saved.json", read, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
    EXPECT_EQ(diagnostics[0].path, "$.resolution[0]");
    EXPECT_NE(diagnostics[0].message.find("found 100000"), std::string::npos)
        << diagnostics[0].message;
}

TEST(SceneWriter, SampleScenesAreInCanonicalForm) {
    for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + "/examples/scenes")) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        EXPECT_EQ(saveScene(reload(text.str())), text.str());
    }
}

} // namespace
} // namespace spindrift
