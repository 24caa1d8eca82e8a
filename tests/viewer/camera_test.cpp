#include "viewer/camera.h"

#include <gtest/gtest.h>

#include <cmath>

namespace spindrift::viewer {
namespace {

float distance(Float3 a, Float3 b) {
    return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                     (a.z - b.z) * (a.z - b.z));
}

void expectNear(Float3 a, Float3 b, float tolerance = 1e-4f) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

const CameraPose kPose{{1.5f, 2.0f, -3.0f}, {0.2f, 0.5f, 0.4f}, {0, 1, 0}};

TEST(ViewerCamera, SceneModeDrawsTheScenePoseUnchanged) {
    ViewerCamera camera;
    const CameraPose p = cameraPose(camera, kPose);
    expectNear(p.eye, kPose.eye, 0);
    expectNear(p.target, kPose.target, 0);
}

TEST(ViewerCamera, FreeCameraStartsWhereTheSceneCameraIs) {
    const ViewerCamera camera = freeCameraFrom(kPose, CameraMode::orbit);
    const CameraPose p = cameraPose(camera, kPose);
    expectNear(p.eye, kPose.eye);
    expectNear(p.target, kPose.target);
    EXPECT_NEAR(camera.distance_m, distance(kPose.eye, kPose.target), 1e-5f);
}

TEST(ViewerCamera, OrbitKeepsTheTargetAndTheDistance) {
    ViewerCamera camera = freeCameraFrom(kPose, CameraMode::orbit);
    orbitBy(camera, 120, -40);
    const CameraPose p = cameraPose(camera, kPose);
    expectNear(p.target, kPose.target);
    EXPECT_NEAR(distance(p.eye, p.target), distance(kPose.eye, kPose.target), 1e-4f);
    EXPECT_GT(distance(p.eye, kPose.eye), 0.1f);
}

TEST(ViewerCamera, LookKeepsTheEye) {
    ViewerCamera camera = freeCameraFrom(kPose, CameraMode::fly);
    lookBy(camera, -80, 25);
    const CameraPose p = cameraPose(camera, kPose);
    expectNear(p.eye, kPose.eye);
    EXPECT_GT(distance(p.target, kPose.target), 0.1f);
}

TEST(ViewerCamera, PitchStopsShortOfThePole) {
    ViewerCamera camera = freeCameraFrom(kPose, CameraMode::orbit);
    orbitBy(camera, 0, 1e6f);
    EXPECT_FLOAT_EQ(camera.pitch_rad, kMaxPitchRad);
    orbitBy(camera, 0, -1e7f);
    EXPECT_FLOAT_EQ(camera.pitch_rad, -kMaxPitchRad);
}

TEST(ViewerCamera, DollyScalesTheDistanceWithinLimits) {
    ViewerCamera camera = freeCameraFrom(kPose, CameraMode::orbit);
    const float before = camera.distance_m;
    dollyBy(camera, 1);
    EXPECT_NEAR(camera.distance_m, before * kDollyPerNotch, 1e-5f);
    dollyBy(camera, 1e4f);
    EXPECT_EQ(camera.distance_m, kMinDistanceM);
    dollyBy(camera, -1e6f);
    EXPECT_EQ(camera.distance_m, kMaxDistanceM);
}

TEST(ViewerCamera, MoveForwardGoesAlongTheViewAndKeepsTheDirection) {
    ViewerCamera camera = freeCameraFrom(kPose, CameraMode::fly);
    const float yaw = camera.yaw_rad;
    moveBy(camera, 0, 0, 2);
    const CameraPose p = cameraPose(camera, kPose);
    const Float3 f = forwardOf(camera.yaw_rad, camera.pitch_rad);
    expectNear(p.eye, {kPose.eye.x + 2 * f.x, kPose.eye.y + 2 * f.y, kPose.eye.z + 2 * f.z});
    EXPECT_EQ(camera.yaw_rad, yaw);
}

TEST(ViewerCamera, RightIsToTheRightOfTheView) {
    // Looking along +Z with +Y up, the right hand points along -X.
    ViewerCamera camera = freeCameraFrom({{0, 0, 0}, {0, 0, 1}, {0, 1, 0}}, CameraMode::fly);
    moveBy(camera, 1, 0, 0);
    const CameraPose p = cameraPose(camera, {});
    expectNear(p.eye, {-1, 0, 0});
}

TEST(ViewerCamera, ADegeneratePoseLooksAlongZ) {
    const ViewerCamera camera =
        freeCameraFrom({{1, 2, 3}, {1, 2, 3}, {0, 1, 0}}, CameraMode::orbit);
    const CameraPose p = cameraPose(camera, {});
    expectNear(p.eye, {1, 2, 3});
    expectNear(p.target, {1, 2, 4});
}

} // namespace
} // namespace spindrift::viewer
