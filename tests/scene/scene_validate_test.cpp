#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "scene/scene_test_util.h"
#include "spindrift/scene_json.h"

namespace spindrift {
namespace {

SceneDesc validScene() {
    SceneDesc s;
    EffectInstanceDesc e;
    e.effect = "fire.json";
    s.effects.push_back(e);
    return s;
}

// The scene after change must fail with exactly one error, at path, whose message contains
// expected.
void expectOneError(const std::function<void(SceneDesc&)>& change, const std::string& path,
                    const std::string& expected) {
    SceneDesc s = validScene();
    change(s);
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(validateScene(s, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
    EXPECT_EQ(diagnostics[0].path, path);
    EXPECT_NE(diagnostics[0].message.find(expected), std::string::npos) << diagnostics[0].message;
    EXPECT_EQ(diagnostics[0].line, 0u) << "validateScene has no positions";
}

MotionPath twoKeys() {
    return MotionPath{{{0, {0, 0, 0}}, {1, {1, 0, 0}}}, false};
}

TEST(SceneValidate, DefaultSceneWithOneInstanceIsValid) {
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(validScene(), diagnostics)) << dump(diagnostics);
    EXPECT_TRUE(diagnostics.empty());
}

TEST(SceneValidate, CameraRules) {
    expectOneError([](SceneDesc& s) { s.camera.fov_deg = 0.5f; }, "$.camera.fov_deg",
                   "expected a number in [1, 179], found 0.5");
    expectOneError([](SceneDesc& s) { s.camera.fov_deg = 180; }, "$.camera.fov_deg", "found 180");
    expectOneError([](SceneDesc& s) { s.camera.near = 0; }, "$.camera.near",
                   "expected a number > 0, found 0");
    expectOneError([](SceneDesc& s) { s.camera.far = 0.05f; }, "$.camera.far",
                   "expected a number > near (0.05), found 0.05");
    expectOneError([](SceneDesc& s) { s.camera.target = s.camera.position; }, "$.camera.target",
                   "different from the camera position");
    expectOneError(
        [](SceneDesc& s) { s.camera.position.y = std::numeric_limits<float>::quiet_NaN(); },
        "$.camera.position[1]", "expected a finite number, found nan");
    expectOneError([](SceneDesc& s) { s.camera.orbit.radius = 2; }, "$.camera.orbit",
                   "orbit settings are set but the camera is a look-at camera");
}

TEST(SceneValidate, OrbitCameraRules) {
    auto orbit = [](std::function<void(CameraOrbit&)> change) {
        return [change](SceneDesc& s) {
            s.camera.mode = CameraMode::orbit;
            change(s.camera.orbit);
        };
    };
    expectOneError(orbit([](CameraOrbit& o) { o.radius = 0; }), "$.camera.orbit.radius",
                   "expected a number > 0, found 0");
    expectOneError(orbit([](CameraOrbit& o) { o.period_s = -1; }), "$.camera.orbit.period_s",
                   "expected a number > 0, found -1");
    expectOneError(
        [](SceneDesc& s) {
            s.camera.mode = CameraMode::orbit;
            s.camera.position = {1, 2, 3};
        },
        "$.camera", "position or target is set but the camera is an orbit camera");
    SceneDesc s = validScene();
    s.camera.mode = CameraMode::orbit;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(s, diagnostics)) << dump(diagnostics);
}

TEST(SceneValidate, ImageAndTimingRules) {
    expectOneError([](SceneDesc& s) { s.resolution.width = 15; }, "$.resolution[0]",
                   "expected an integer in [16, 8192], found 15");
    expectOneError([](SceneDesc& s) { s.resolution.height = 8193; }, "$.resolution[1]",
                   "found 8193");
    expectOneError([](SceneDesc& s) { s.fps = 0; }, "$.fps", "expected an integer in [1, 240]");
    expectOneError([](SceneDesc& s) { s.duration_s = 0; }, "$.duration_s",
                   "expected a number in (0, 3600], found 0");
    expectOneError([](SceneDesc& s) { s.background.z = -0.1f; }, "$.background[2]",
                   "expected a number >= 0, found -0.1");
}

TEST(SceneValidate, GroundLightAndPrimitiveRules) {
    expectOneError([](SceneDesc& s) { s.ground.size = 0; }, "$.ground.size",
                   "expected a number > 0");
    expectOneError(
        [](SceneDesc& s) {
            s.sun.direction = {0, 2, 0};
        },
        "$.sun.direction", "expected a unit-length direction");
    expectOneError(
        [](SceneDesc& s) {
            s.sun.direction = {0, 0, 0};
        },
        "$.sun.direction", "expected a non-zero direction");
    expectOneError([](SceneDesc& s) { s.sun.intensity = -1; }, "$.sun.intensity",
                   "expected a number >= 0");
    expectOneError([](SceneDesc& s) { s.ambient.x = -1; }, "$.ambient[0]", "found -1");
    expectOneError([](SceneDesc& s) { s.sky.ground.z = -0.5f; }, "$.sky.ground[2]", "found -0.5");
    expectOneError([](SceneDesc& s) { s.sky.intensity = 2.0e4f; }, "$.sky.intensity",
                   "found 20000");
    expectOneError(
        [](SceneDesc& s) {
            s.primitives.resize(2);
            s.primitives[1].size = {1, 0, 1};
        },
        "$.primitives[1].size[1]", "expected a number > 0, found 0");
    expectOneError(
        [](SceneDesc& s) {
            s.primitives.resize(1);
            s.primitives[0].radius = 2;
        },
        "$.primitives[0].radius", "'radius' does not apply to primitive type 'box'");
    expectOneError(
        [](SceneDesc& s) {
            s.primitives.resize(1);
            s.primitives[0].type = PrimitiveKind::sphere;
            s.primitives[0].radius = -1;
        },
        "$.primitives[0].radius", "expected a number > 0, found -1");
    expectOneError([](SceneDesc& s) { s.primitives.resize(kMaxScenePrimitives + 1); },
                   "$.primitives", "expected at most 64 primitives, found 65");
}

// Point and spot lights built in code: the same rules as read from JSON (the bad-scene corpus).
TEST(SceneValidate, LightRules) {
    auto light = [](SceneDesc& s) -> LightDesc& {
        s.lights.resize(1);
        return s.lights[0];
    };
    expectOneError([&](SceneDesc& s) { light(s).range = 0; }, "$.lights[0].range", "(0, 1000]");
    expectOneError([&](SceneDesc& s) { light(s).intensity = NAN; }, "$.lights[0].intensity", "nan");
    expectOneError([&](SceneDesc& s) { light(s).color.y = -1; }, "$.lights[0].color[1]", ">= 0");
    expectOneError([&](SceneDesc& s) { light(s).inner_deg = 5; }, "$.lights[0].inner_deg",
                   "'inner_deg' does not apply to light type 'point'");
    expectOneError([&](SceneDesc& s) { light(s).type = static_cast<LightKind>(9); },
                   "$.lights[0].type", "unknown light type 9");
    expectOneError(
        [&](SceneDesc& s) {
            light(s).type = LightKind::spot;
            s.lights[0].inner_deg = 30;
            s.lights[0].outer_deg = 25;
        },
        "$.lights[0].outer_deg", "(30, 90]");
    expectOneError(
        [&](SceneDesc& s) {
            light(s).type = LightKind::spot;
            s.lights[0].direction = {0, 0, 0};
        },
        "$.lights[0].direction", "");
    expectOneError([](SceneDesc& s) { s.lights.resize(kMaxSceneLights + 1); }, "$.lights",
                   "at most 64 lights");
    SceneDesc ok = validScene();
    ok.lights.resize(kMaxSceneLights);
    ok.lights[1].type = LightKind::spot;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(ok, diagnostics)) << dump(diagnostics);
}

TEST(SceneValidate, InstanceRules) {
    expectOneError([](SceneDesc& s) { s.effects[0].effect.clear(); }, "$.effects[0].effect",
                   "expected a non-empty path");
    expectOneError([](SceneDesc& s) { s.effects[0].effect = std::string(300, 'a'); },
                   "$.effects[0].effect", "at most 256 bytes");
    expectOneError([](SceneDesc& s) { s.effects[0].time_scale = 0; }, "$.effects[0].time_scale",
                   "expected a number in (0, 100], found 0");
    expectOneError([](SceneDesc& s) { s.effects[0].name = "two words"; }, "$.effects[0].name",
                   "found 'two words'");
    expectOneError(
        [](SceneDesc& s) {
            s.effects.push_back(s.effects[0]);
            s.effects[0].name = "fire";
            s.effects[1].name = "fire";
        },
        "$.effects[1].name", "instance name 'fire' is used twice (first at effects[0])");
    expectOneError([](SceneDesc& s) { s.effects.resize(kMaxSceneEffects + 1, s.effects[0]); },
                   "$.effects", "expected at most 64 effect instances, found 65");
    expectOneError(
        [](SceneDesc& s) { s.effects[0].start_s = std::numeric_limits<float>::infinity(); },
        "$.effects[0].start_s", "expected a finite number, found inf");
    // A pre-roll of at most a day (kMaxScenePreRoll_s), a start at most the longest scene.
    for (const float start_s : {-1e20f, -1e5f, -86401.0f, -3.4e38f, 3601.0f, 1e30f}) {
        expectOneError([start_s](SceneDesc& s) { s.effects[0].start_s = start_s; },
                       "$.effects[0].start_s", "expected a number in [-86400, 3600], found ");
    }
    for (const float start_s : {-86400.0f, -1e4f, 3600.0f}) {
        SceneDesc s = validScene();
        s.effects[0].start_s = start_s;
        std::vector<Diagnostic> diagnostics;
        EXPECT_TRUE(validateScene(s, diagnostics)) << start_s << "\n" << dump(diagnostics);
    }

    // Unnamed instances may repeat: names are optional.
    SceneDesc s = validScene();
    s.effects.push_back(s.effects[0]);
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(s, diagnostics)) << dump(diagnostics);
}

TEST(SceneValidate, MotionPathRules) {
    expectOneError(
        [](SceneDesc& s) {
            s.effects[0].path = twoKeys();
            s.effects[0].path->keys.pop_back();
        },
        "$.effects[0].path.keys", "expected 2 to 1024 path keys, found 1");
    expectOneError(
        [](SceneDesc& s) {
            s.effects[0].path = twoKeys();
            s.effects[0].path->keys[1].t = 0;
        },
        "$.effects[0].path.keys[1]", "key times must increase strictly, found t = 0 after t = 0");
    expectOneError(
        [](SceneDesc& s) {
            s.effects[0].path = twoKeys();
            s.effects[0].path->keys[0].offset.z = std::numeric_limits<float>::quiet_NaN();
        },
        "$.effects[0].path.keys[0][3]", "expected a finite number");
    // Negative key times are allowed: the path may have started before the scene.
    SceneDesc s = validScene();
    s.effects[0].path = twoKeys();
    s.effects[0].path->keys[0].t = -3;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(s, diagnostics)) << dump(diagnostics);
}

TEST(SceneValidate, WrongVersionIsAnError) {
    expectOneError([](SceneDesc& s) { s.version = 2; }, "$.version",
                   "unsupported scene format version 2");
}

} // namespace
} // namespace spindrift
