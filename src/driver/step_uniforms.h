// What one fixed step of one emitter needs besides its particles: the step's uniforms, resolved
// once per step into simulation space (world or the effect's local space), so the per-particle
// work of either backend reads only plain numbers. The CPU backend's loops and the GPU backend's
// update pass both read what resolveStep writes (DESIGN rule 3: one function derives it).
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/placement.h"
#include "driver/world_inputs.h"
#include "kernels/shared_types.h"

namespace spindrift {

// An op with its vectors already in simulation space and its per-step factors precomputed.
struct ResolvedOp {
    OpRecord op;       // params rewritten where noted in resolveStep
    float factor = 0;  // drag / speed limit: exp(-k dt); wind: 1 - exp(-k dt)
    vec3 vector{0.0f}; // acceleration * dt, buoyancy up * acceleration * dt, wind velocity,
                       // attractor position, curl-noise offset (scroll * time)
    bool distance_field = false; // collision: the CPU also samples the world's distance field
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

// Per-effect scratch for resolved ops, force fields and colliders, sized once by
// allocateStepScratch; resolveStep allocates nothing.
struct StepScratch {
    std::vector<ResolvedOp> ops;
    std::vector<ForceFieldRecord> force_fields; // in simulation space
    std::vector<ColliderRecord> colliders;      // in simulation space
    std::vector<EmitterStep> emitters;
    DistanceFieldHook distance_field; // the world's, for ops with ResolvedOp::distance_field
    vec4 world_from_sim[3];           // where the distance field is sampled (world space)
    vec4 sim_from_world[3];           // and how its gradient comes back
    // The GPU backend's scratch: a scene depth is read at its device address, not the host's.
    bool device_addresses = false;
};

// Colliders a step of the effect may hold: its own plus kMaxWorldColliderRecords per collision op
// that collides with the world. The GPU backend sizes its step slots by it.
uint64_t stepColliderCapacity(const CompiledEffect& effect);
// Force fields likewise: the effect's plus kActiveWorldAttractors per world_attractors op.
uint64_t stepForceFieldCapacity(const CompiledEffect& effect);

void allocateStepScratch(const CompiledEffect& effect, StepScratch& scratch);

// Resolves every emitter's ops for the step starting at time_s, during which the effect moves
// from world_from_effect step_start to step_end: world-space vectors (gravity, force, wind,
// colliders) rotated into simulation space, emitter-space positions (force fields, attractors)
// placed, per-step factors computed once with the shared sdExp.
// `world` (may be null) adds the host's colliders to collision ops that collide with the world.
void resolveStep(const CompiledEffect& effect, const Rows3x4& step_start, const Rows3x4& step_end,
                 double time_s, StepScratch& scratch, const WorldInputs* world = nullptr);

// The same for the emitters whose bit is set in `needed` (bit e: emitter e); the others' entries
// keep what they held. For a host that knows an emitter reads nothing of this step (no live
// particle, no birth): such an emitter then costs no transform and no per-step factor.
void resolveStep(const CompiledEffect& effect, const Rows3x4& step_start, const Rows3x4& step_end,
                 double time_s, StepScratch& scratch, const WorldInputs* world, uint64_t needed);

} // namespace spindrift
