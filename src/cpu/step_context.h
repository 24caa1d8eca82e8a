// What one fixed step of one emitter needs besides its particles: the step's uniforms, resolved
// once per step into simulation space (world or the effect's local space), so the per-particle
// loops read only plain numbers.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/compiled_effect.h"
#include "kernels/shared_types.h"

namespace spindrift::cpu {

// An op with its vectors already in simulation space and its per-step factors precomputed.
struct ResolvedOp {
    OpRecord op;       // params rewritten where noted in resolveOps
    float factor = 0;  // drag / speed limit: exp(-k dt); wind: 1 - exp(-k dt)
    vec3 vector{0.0f}; // acceleration * dt, buoyancy up * acceleration * dt, wind velocity,
                       // attractor position, curl-noise offset (scroll * time)
};

struct EmitterStep {
    float dt = 0;
    float time_s = 0; // at the start of the step
    uint32_t emitter_index = 0;
    // sim_from_emitter at the start and the end of the step (births interpolate between them).
    vec4 emitter_start[3];
    vec4 emitter_end[3];
    // sim_from_world rotation (identity for a world-space effect): for world-space vectors.
    vec4 sim_from_world[3];
    uint32_t op_first = 0; // into StepScratch::ops
    uint32_t op_count = 0;
    bool spins = false;      // any angular velocity or rotation op: integrate rotation
    bool uses_flags = false; // a collision or attractor op may stick or kill particles
};

// Per-effect scratch for resolved ops, force fields and colliders, sized once at creation.
struct StepScratch {
    std::vector<ResolvedOp> ops;
    std::vector<ForceFieldRecord> force_fields; // in simulation space
    std::vector<ColliderRecord> colliders;      // in simulation space
    std::vector<EmitterStep> emitters;
};

} // namespace spindrift::cpu
