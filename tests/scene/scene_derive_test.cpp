#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <filesystem>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "scene/scene_test_util.h"
#include "spindrift/effect_json.h"
#include "spindrift/scene_json.h"

namespace spindrift {
namespace {

glm::vec3 toGlm(const Float3& v) {
    return {v.x, v.y, v.z};
}

void expectNear(const Float3& a, const Float3& b, float tolerance = 1e-4f) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

// Clip-space position of a world point seen by the scene's camera at time 0, with the
// OpenGL-style projection (x, y, z in [-w, w] inside the view).
glm::vec4 project(const SceneDesc& scene, const Float3& point) {
    const CameraPose pose = cameraPose(scene.camera, 0);
    const glm::mat4 view = glm::lookAt(toGlm(pose.eye), toGlm(pose.target), toGlm(pose.up));
    const float aspect = float(scene.resolution.width) / float(scene.resolution.height);
    const glm::mat4 projection = glm::perspective(glm::radians(scene.camera.fov_deg), aspect,
                                                  scene.camera.near, scene.camera.far);
    return projection * view * glm::vec4(toGlm(point), 1);
}

// Returns how much of the image the bounds reach: the largest |x| or |y| of a corner in
// normalised device coordinates (1: the image edge).
float expectBoundsInView(const SceneDesc& scene, const Bounds& bounds) {
    const Float3 c = bounds.center, h = bounds.half_extents;
    float reach = 0;
    for (int corner = 0; corner < 8; ++corner) {
        const Float3 p{c.x + ((corner & 1) ? h.x : -h.x), c.y + ((corner & 2) ? h.y : -h.y),
                       c.z + ((corner & 4) ? h.z : -h.z)};
        const glm::vec4 clip = project(scene, p);
        SCOPED_TRACE("corner " + std::to_string(corner));
        EXPECT_GT(clip.w, 0) << "behind the camera";
        if (clip.w <= 0) return 0;
        reach = std::max({reach, std::abs(clip.x / clip.w), std::abs(clip.y / clip.w)});
        EXPECT_LE(std::abs(clip.x / clip.w), 1.0f);
        EXPECT_LE(std::abs(clip.y / clip.w), 1.0f);
        EXPECT_GT(clip.z / clip.w, -1.0f) << "in front of the near plane";
        EXPECT_LT(clip.z / clip.w, 1.0f) << "behind the far plane";
    }
    return reach;
}

// How much of the image height (vertical) or width the box's corners span: half the difference
// of their largest and smallest normalised device coordinate.
float boxExtent(const SceneDesc& scene, const Bounds& bounds, bool vertical) {
    const Float3 c = bounds.center, h = bounds.half_extents;
    float lo = 1e30f, hi = -1e30f;
    for (int corner = 0; corner < 8; ++corner) {
        const Float3 p{c.x + ((corner & 1) ? h.x : -h.x), c.y + ((corner & 2) ? h.y : -h.y),
                       c.z + ((corner & 4) ? h.z : -h.z)};
        const glm::vec4 clip = project(scene, p);
        const float v = (vertical ? clip.y : clip.x) / clip.w;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    return 0.5f * (hi - lo);
}

// The part of a box above the plane y = ground.
Bounds aboveGround(const Bounds& b, float ground) {
    const float top = b.center.y + b.half_extents.y;
    const float bottom = std::max(b.center.y - b.half_extents.y, ground);
    return Bounds{{b.center.x, 0.5f * (top + bottom), b.center.z},
                  {b.half_extents.x, 0.5f * (top - bottom), b.half_extents.z}};
}

TEST(DefaultScene, FramesEverySampleEffectAndValidates) {
    int count = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(kSourceDir + "/examples/effects")) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        EffectDesc effect;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(loadEffectFile(entry.path().string(), effect, diagnostics));
        const SceneDesc scene = defaultSceneForEffect(effect, entry.path().string());
        EXPECT_TRUE(validateScene(scene, diagnostics)) << dump(diagnostics);
        // Without measured bounds the authored ones are framed, cut at the ground: 60 % of the
        // height, or 90 % of the width for a wide effect.
        const Bounds framed = aboveGround(effect.bounds, scene.ground.height);
        expectBoundsInView(scene, framed);
        const float height = boxExtent(scene, framed, true);
        const float width = boxExtent(scene, framed, false);
        EXPECT_LE(height, 0.601f);
        EXPECT_LE(width, 0.901f);
        EXPECT_TRUE(height > 0.599f || width > 0.899f) << height << " " << width;
        // The ground is at y = 0 when the bounds reach it (effects stand on the origin).
        const float bottom = effect.bounds.center.y - effect.bounds.half_extents.y;
        EXPECT_FLOAT_EQ(scene.ground.height, bottom <= 0 ? 0.0f : bottom);
        ASSERT_EQ(scene.effects.size(), 1u);
        EXPECT_EQ(scene.effects[0].effect, entry.path().string());
        EXPECT_EQ(scene.effects[0].position, (Float3{0, 0, 0}));
        EXPECT_EQ(scene.duration_s, effect.duration_s);
        ++count;
    }
    EXPECT_GE(count, 8);
}

TEST(DefaultScene, LooksAtTheCentreFromSlightlyAbove) {
    EffectDesc effect;
    effect.bounds = Bounds{{3, 10, -2}, {0.5f, 8, 0.5f}}; // tall and thin, off the origin
    const SceneDesc scene = defaultSceneForEffect(effect, "fx.json");
    EXPECT_EQ(scene.camera.mode, CameraMode::look_at);
    EXPECT_EQ(scene.camera.target, effect.bounds.center);
    const Float3 eye = scene.camera.position;
    const float dy = eye.y - 10, dz = eye.z + 2;
    EXPECT_GT(dy, 0) << "above the centre";
    EXPECT_LT(dy, dz) << "slightly: less than 45 degrees of elevation";
    // The centre projects to the middle of the image.
    const glm::vec4 centre = project(scene, effect.bounds.center);
    EXPECT_NEAR(centre.x / centre.w, 0, 1e-5);
    EXPECT_NEAR(centre.y / centre.w, 0, 1e-5);
    expectBoundsInView(scene, effect.bounds);
    EXPECT_NEAR(boxExtent(scene, effect.bounds, true), kFramedHeightFraction, 1e-3);
    EXPECT_FLOAT_EQ(scene.ground.height, 2);
    // The ground square (centred on the origin) reaches past the bounds.
    EXPECT_GT(scene.ground.size / 2, 3 + 0.5f);
}

TEST(DefaultScene, TheFramedBoxFillsSixtyPercentOfTheHeightWhateverItsSize) {
    for (const float scale : {0.1f, 1.0f, 30.0f}) {
        EffectDesc effect;
        effect.bounds = Bounds{{0, 2 * scale, 0}, {scale, 2 * scale, scale}};
        const SceneDesc scene = defaultSceneForEffect(effect, "fx.json");
        EXPECT_NEAR(boxExtent(scene, effect.bounds, true), 0.6f, 1e-3f) << scale;
        EXPECT_LT(boxExtent(scene, effect.bounds, false), 0.6f) << scale;
    }
}

TEST(DefaultScene, AWideBoxFillsNinetyPercentOfTheWidthInstead) {
    EffectDesc effect;
    effect.bounds = Bounds{{0, 1, 0}, {20, 1, 1}};
    const SceneDesc scene = defaultSceneForEffect(effect, "fx.json");
    EXPECT_NEAR(boxExtent(scene, effect.bounds, false), 0.9f, 1e-3f);
    EXPECT_LT(boxExtent(scene, effect.bounds, true), 0.6f);
    expectBoundsInView(scene, effect.bounds);
}

TEST(DefaultScene, FramesTheDrawnBoxAboveTheGroundWhenGiven) {
    EffectDesc effect;
    effect.bounds = Bounds{{0, 5, 0}, {10, 5, 10}}; // conservative, reaching y = 0
    // Drawn: a small box partly below the ground; only its part above y = 0 is framed.
    const Bounds drawn{{1, 0.5f, -1}, {0.5f, 1.5f, 0.5f}};
    const SceneDesc scene = defaultSceneForEffect(effect, "fx.json", drawn);
    EXPECT_FLOAT_EQ(scene.ground.height, 0) << "the ground still comes from the authored bounds";
    const Bounds above{{1, 1, -1}, {0.5f, 1, 0.5f}};
    expectNear(scene.camera.target, above.center);
    EXPECT_NEAR(boxExtent(scene, above, true), kFramedHeightFraction, 1e-3);
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(scene, diagnostics)) << dump(diagnostics);
}

TEST(DefaultScene, TheGroundIsAtZeroWhenTheBoundsReachItElseAtTheirBottom) {
    EXPECT_EQ(defaultGroundHeight(Bounds{{0, 1, 0}, {1, 1, 1}}), 0.0f);
    EXPECT_EQ(defaultGroundHeight(Bounds{{0, 0, 0}, {1, 1, 1}}), 0.0f);
    EXPECT_EQ(defaultGroundHeight(Bounds{{0, 5, 0}, {1, 2, 1}}), 3.0f);
    EXPECT_EQ(defaultGroundHeight(Bounds{{0, -5, 0}, {1, 2, 1}}), -7.0f);
}

TEST(DefaultScene, TheGroundIsDarkAndTheBackgroundDarker) {
    const SceneDesc scene = defaultSceneForEffect(EffectDesc{}, "fx.json");
    const SceneDesc defaults;
    EXPECT_LT(scene.ground.color.x, 0.5f * defaults.ground.color.x);
    for (const float v : {scene.background.x, scene.background.y, scene.background.z})
        EXPECT_LT(v, scene.ground.color.x);
}

TEST(DefaultScene, NonFiniteDrawnBoundsStillGiveAValidScene) {
    const float inf = std::numeric_limits<float>::infinity();
    const Bounds drawn{{std::nanf(""), 0, inf}, {inf, -1, 0}};
    const SceneDesc scene = defaultSceneForEffect(EffectDesc{}, "fx.json", drawn);
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(scene, diagnostics)) << dump(diagnostics);
}

TEST(DefaultScene, TheLargestBoundsStillGiveAValidScene) {
    EffectDesc effect;
    effect.bounds = Bounds{{1e6f, 1e6f, -1e6f}, {1e6f, 1e6f, 1e6f}}; // kMaxBoundsExtent
    const SceneDesc scene = defaultSceneForEffect(effect, "fx.json");
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(scene, diagnostics)) << dump(diagnostics);
    EXPECT_TRUE(std::isfinite(scene.camera.far) && std::isfinite(scene.ground.size));
    EXPECT_NEAR(boxExtent(scene, aboveGround(effect.bounds, scene.ground.height), true), 0.6f,
                1e-3f);
}

TEST(DefaultScene, DegenerateBoundsStillGiveAValidScene) {
    EffectDesc effect;
    effect.bounds = Bounds{{0, 0, 0}, {0, 0, 0}};
    const SceneDesc scene = defaultSceneForEffect(effect, "fx.json");
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(validateScene(scene, diagnostics)) << dump(diagnostics);
    expectBoundsInView(scene, effect.bounds);
}

TEST(CameraPose, LookAtUsesPositionAndTarget) {
    CameraDesc camera;
    camera.position = {1, 2, 3};
    camera.target = {4, 5, 6};
    const CameraPose pose = cameraPose(camera, 7);
    EXPECT_EQ(pose.eye, camera.position);
    EXPECT_EQ(pose.target, camera.target);
    EXPECT_EQ(pose.up, (Float3{0, 1, 0}));
}

TEST(CameraPose, OrbitTurnsFromPlusZTowardPlusX) {
    CameraDesc camera;
    camera.mode = CameraMode::orbit;
    camera.orbit = CameraOrbit{{1, 2, 3}, 4, 0.5f, 8, 0};
    expectNear(cameraPose(camera, 0).eye, {1, 2.5f, 7});
    expectNear(cameraPose(camera, 2).eye, {5, 2.5f, 3});             // a quarter turn
    expectNear(cameraPose(camera, 4).eye, {1, 2.5f, -1});            // half
    expectNear(cameraPose(camera, 8).eye, {1, 2.5f, 7});             // a full turn
    expectNear(cameraPose(camera, 800002).eye, {5, 2.5f, 3}, 1e-3f); // long renders stay exact
    EXPECT_EQ(cameraPose(camera, 1).target, camera.orbit.center);
    camera.orbit.start_deg = -90;
    expectNear(cameraPose(camera, 0).eye, {-3, 2.5f, 3});
}

TEST(CameraPose, VerticalViewGetsAnUpThatIsNotTheViewAxis) {
    CameraDesc camera;
    camera.position = {0, 10, 0};
    camera.target = {0, 0, 0};
    EXPECT_EQ(cameraPose(camera, 0).up, (Float3{0, 0, -1}));
    camera.position = {0, -10, 0};
    EXPECT_EQ(cameraPose(camera, 0).up, (Float3{0, 0, 1}));
}

TEST(InstancePosition, FollowsThePathRelativeToPosition) {
    EffectInstanceDesc instance;
    instance.position = {10, 0, 0};
    EXPECT_EQ(instancePosition(instance, 3), instance.position) << "no path: fixed";
    instance.path = MotionPath{{{1, {0, 0, 0}}, {3, {4, 2, 0}}, {5, {4, 2, -8}}}, false};
    expectNear(instancePosition(instance, 0), {10, 0, 0}); // before the first key: held
    expectNear(instancePosition(instance, 2), {12, 1, 0}); // halfway along the first segment
    expectNear(instancePosition(instance, 3), {14, 2, 0});
    expectNear(instancePosition(instance, 4.5f), {14, 2, -6});
    expectNear(instancePosition(instance, 9), {14, 2, -8}); // after the last key: held
}

TEST(InstancePosition, LoopRepeatsTheKeySpan) {
    EffectInstanceDesc instance;
    instance.path = MotionPath{{{1, {0, 0, 0}}, {3, {4, 0, 0}}}, true};
    expectNear(instancePosition(instance, 2), {2, 0, 0});
    expectNear(instancePosition(instance, 4), {2, 0, 0});    // 4 -> 2 (span of 2 s)
    expectNear(instancePosition(instance, 0), {2, 0, 0});    // 0 -> 2, before the first key
    expectNear(instancePosition(instance, 5.5f), {1, 0, 0}); // 5.5 -> 1.5, a quarter along
}

} // namespace
} // namespace spindrift
