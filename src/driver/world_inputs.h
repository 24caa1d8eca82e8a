// What the host feeds every instance of a world besides its transform: colliders of its level
// (World::setColliders) and, for the CPU backend, a distance field it samples itself
// (World::setDistanceField). resolveStep appends the colliders whose groups meet a collision op's
// mask to that op's colliders for the step, so both backends' kernels read them like the effect's
// own; the distance field is one more contact of the same op on the CPU (src/cpu/update_loops.inl).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/effect_records.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

// Bounds of what a world may hold: a collision op's colliders for a step are the effect's plus
// at most kMaxWorldColliderRecords, so per-step memory is fixed when an instance is created.
// (World::setColliders holds a world to them; runtime.h names the public limits.)
inline constexpr uint32_t kMaxWorldColliderRecords = 512; // heightfield samples included
inline constexpr uint32_t kMaxHeightfieldSamples = 64 * 64;
// Attractors a step may apply (World keeps the nearest to its camera; the rest are counted).
inline constexpr uint32_t kActiveWorldAttractors = 16;

// One host collider: records [first, first + records) of WorldInputs::collider_records (a
// heightfield is its record and its sample records), in world space.
struct WorldColliderEntry {
    uint32_t groups = 1;
    uint32_t first = 0;
    uint32_t records = 0;
};

// Signed distance (negative inside solid matter) at a world-space point; writes the field's
// gradient (any length, pointing away from the matter). Called from worker threads concurrently.
using DistanceFieldSample = float (*)(const float position[3], float gradient[3], void* user);

struct DistanceFieldHook {
    DistanceFieldSample sample = nullptr;
    void* user = nullptr;
    uint32_t groups = kAllCollisionGroupsMask;
};

// One host attractor: a point force field in world space and its groups.
struct WorldAttractorEntry {
    ForceFieldRecord field;
    uint32_t groups = 1;
};

// The scene depth depth_buffer collision ops meet (collision.h, sdContactSceneDepth): the
// camera that saw it and where its samples are for each backend. The samples stay where they
// are (the world's copy, the renderer's buffer) while a step may read them.
struct SceneDepthInput {
    ColliderRecord camera{}; // kColliderSceneDepth: eye, forward, right, up, tans, size (no
                             // thickness: each op's own)
    float near_m = 0;
    uint64_t host_address = 0;   // CPU steps read the samples here (0: none for them)
    uint64_t device_address = 0; // GPU steps on the world's device read them here (0: none)
};

struct WorldInputs {
    std::vector<ColliderRecord> collider_records; // world space
    std::vector<WorldColliderEntry> colliders;
    DistanceFieldHook distance_field;
    std::vector<WorldAttractorEntry> attractors; // at most kActiveWorldAttractors
    SceneDepthInput scene_depth;
};

// The collider records a depth_buffer op adds for a scene depth (sdContactSceneDepth).
inline constexpr uint32_t kSceneDepthColliderRecords = 2;

// Whether a collision op reads the world's colliders (world_colliders or depth_buffer), and the
// collision groups it meets.
inline bool collidesWithWorld(const OpRecord& op) {
    return op.op == kOpCollision && (op.flags & (kOpFlagWorldColliders | kOpFlagDepthBuffer)) != 0;
}
inline bool collidesWithSceneDepth(const OpRecord& op) {
    return op.op == kOpCollision && (op.flags & kOpFlagDepthBuffer) != 0;
}
// A depth_buffer op's thickness (m): how far behind the depth a particle still meets it.
inline float sceneDepthThickness(const OpRecord& op) {
    return op.params1.y;
}
inline bool attractsFromWorld(const OpRecord& op) {
    return op.op == kOpForceFields && (op.flags & kOpFlagWorldAttractors) != 0;
}
inline uint32_t attractorGroupMask(const OpRecord& op) {
    return static_cast<uint32_t>(op.params0.x) & kAllCollisionGroupsMask;
}
inline uint32_t collisionGroupMask(const OpRecord& op) {
    // Collision groups are bits 0..23: a mask stays exact in a float record field.
    return static_cast<uint32_t>(op.params1.x) & kAllCollisionGroupsMask;
}

} // namespace spindrift
