// Emitter placement (DESIGN rule 3: one function derives each derived thing). Every backend and
// host asks these functions where an emitter is and how world-space vectors enter simulation
// space, so the CPU backend, the GPU backend and the renderer cannot disagree.
//
// Transforms are 3x4 matrices given as three rows (xyz rotation, w translation) and must be
// rigid (rotation + translation, no scale).
#pragma once

#include "kernels/effect_records.h"
#include "kernels/shared_types.h"

namespace spindrift {

struct Rows3x4 {
    vec4 rows[3] = {vec4(1, 0, 0, 0), vec4(0, 1, 0, 0), vec4(0, 0, 1, 0)};
};

// a * b (apply b first).
Rows3x4 composeTransforms(const Rows3x4& a, const Rows3x4& b);

// Component-wise blend of two transforms' rows at fraction t in [0, 1]: exact for translation,
// an approximation for rotation that is good for the small turns of one frame.
Rows3x4 blendTransforms(const Rows3x4& a, const Rows3x4& b, float t);

// A transform translating by (x, y, z) after rotating by yaw_rad about +Y.
Rows3x4 makeRigidTransform(float x, float y, float z, float yaw_rad);

// sim_from_emitter: for a world-space effect world_from_effect * parent_from_emitter (particles
// are simulated in world space); for a local-space effect parent_from_emitter (particles live in
// the effect's space and follow it).
Rows3x4 simFromEmitter(const Rows3x4& world_from_effect, const EmitterRecord& emitter,
                       uint32_t space);

// The rotation that takes world-space vectors (gravity, wind, colliders) into simulation space:
// identity for world space, the inverse of world_from_effect's rotation for local space (its
// translation is returned in w for points).
Rows3x4 simFromWorld(const Rows3x4& world_from_effect, uint32_t space);

// world_from_sim: how draw records carry particles to the world (identity for world space).
Rows3x4 worldFromSim(const Rows3x4& world_from_effect, uint32_t space);

vec3 transformPoint(const Rows3x4& m, vec3 p);
vec3 transformVector(const Rows3x4& m, vec3 v);

} // namespace spindrift
