// The host's colliders (World::setColliders) checked and turned into the records the collision
// kernels read (src/kernels/collision.h), in world space; resolveStep brings them into each
// instance's simulation space per step (src/driver/step_uniforms.cpp).
#pragma once

#include <string>
#include <vector>

#include "driver/world_inputs.h"
#include "spindrift/runtime.h"

namespace spindrift {

// Fills out.colliders and out.collider_records from the host's list (its distance field is left
// as it is). False, with out unchanged and `problem` naming the collider and the field, when any
// collider is invalid or the list is past the bounds of driver/world_inputs.h.
bool buildWorldColliders(const WorldCollider* colliders, uint32_t count, WorldInputs& out,
                         std::string& problem);

// What is wrong with one host attractor ("strength is not finite"), or empty.
std::string attractorProblem(const WorldAttractor& a);

// Keeps in out.attractors the kActiveWorldAttractors of `given` nearest `camera` (by squared
// distance; ties: the earlier in the list), as point force fields. Returns how many were left out.
uint32_t selectWorldAttractors(const std::vector<WorldAttractor>& given, const Vec3& camera,
                               WorldInputs& out);

// The host's distance-field callback behind the driver's hook (DistanceFieldHook::user).
struct DistanceFieldTarget {
    DistanceFieldFn field = nullptr;
    void* user = nullptr;
};

// A DistanceFieldSample calling the DistanceFieldTarget that `user` points to.
float sampleDistanceField(const float position[3], float gradient[3], void* user);

} // namespace spindrift
