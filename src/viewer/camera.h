// The viewer's camera: the scene's own camera (animated as the scene says), or a free camera the
// user moves, in orbit or fly style. Pure functions over plain data, so they are tested without a
// window.
//
// One representation serves both free styles: a target, a distance and a direction (yaw about
// world +Y, pitch above the horizon). eye = target - forward * distance. Orbiting turns the
// direction about the target (the eye moves); flying turns it about the eye (the target moves) and
// moves both together. Switching style therefore never jumps the view. Up is world +Y.
#pragma once

#include <cstdint>

#include "spindrift/scene_desc.h"

namespace spindrift::viewer {

enum class CameraMode : uint8_t { scene = 0, orbit = 1, fly = 2 };

struct ViewerCamera {
    CameraMode mode = CameraMode::scene;
    Float3 target;
    float yaw_rad = 0;   // 0 looks along +Z; positive turns towards +X
    float pitch_rad = 0; // within +-kMaxPitchRad
    float distance_m = 5;
};

inline constexpr float kMaxPitchRad = 1.5533f; // 89 degrees: the view never flips over the pole
inline constexpr float kMinDistanceM = 0.01f;
inline constexpr float kMaxDistanceM = 1.0e5f;

// The free camera that sees what pose sees (target and distance from the pose; up is taken as
// +Y). A pose whose eye and target coincide looks along +Z from 1 m.
ViewerCamera freeCameraFrom(const CameraPose& pose, CameraMode mode);

// The pose to draw: scene_pose in scene mode, else the free camera's.
CameraPose cameraPose(const ViewerCamera& camera, const CameraPose& scene_pose);

// The unit view direction of yaw and pitch.
Float3 forwardOf(float yaw_rad, float pitch_rad);

// Orbit: turns the eye about the target by the mouse motion (pixels; kRadiansPerPixel each).
void orbitBy(ViewerCamera& camera, float dx_px, float dy_px);
// Fly: turns the view about the eye by the mouse motion.
void lookBy(ViewerCamera& camera, float dx_px, float dy_px);
// Moves the target towards (notches > 0) or away from the eye: each notch scales the distance by
// kDollyPerNotch, within [kMinDistanceM, kMaxDistanceM].
void dollyBy(ViewerCamera& camera, float notches);
// Moves eye and target together, in the view's frame: right, up (world +Y) and forward metres.
void moveBy(ViewerCamera& camera, float right_m, float up_m, float forward_m);
// Pans eye and target across the view by the mouse motion, scaled by the distance so the target
// follows the cursor.
void panBy(ViewerCamera& camera, float dx_px, float dy_px);

inline constexpr float kRadiansPerPixel = 0.005f;
inline constexpr float kDollyPerNotch = 0.9f;
inline constexpr float kPanPerPixel = 0.0015f; // of the distance

} // namespace spindrift::viewer
