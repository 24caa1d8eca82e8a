#include "driver/step_uniforms.h"

#include "kernels/forces.h"
#include "kernels/transform.h"

namespace spindrift {

namespace {

vec3 rowsVector(const vec4 rows[3], vec3 v) {
    return sdTransformVector(rows[0], rows[1], rows[2], v);
}

vec3 rowsPoint(const vec4 rows[3], vec3 p) {
    return sdTransformPoint(rows[0], rows[1], rows[2], p);
}

void copyRows(vec4 out[3], const Rows3x4& m) {
    for (int r = 0; r < 3; ++r) out[r] = m.rows[r];
}

// Resolves one emitter's ops for this step: world-space vectors into simulation space,
// emitter-space positions into simulation space, per-step factors computed once.
// The world's colliders whose groups meet the op's mask, into simulation space after the op's
// own; at most kMaxWorldColliderRecords, which World::setColliders holds the whole world to.
void appendWorldColliders(const WorldInputs& world, const OpRecord& op,
                          const vec4 sim_from_world[3], StepScratch& scratch,
                          uint32_t& collider_cursor) {
    const uint32_t mask = collisionGroupMask(op);
    uint32_t room = kMaxWorldColliderRecords;
    for (const WorldColliderEntry& entry : world.colliders) {
        if ((entry.groups & mask) == 0) continue;
        if (entry.records > room) continue; // never: World holds at most this many in all
        room -= entry.records;
        for (uint32_t k = 0; k < entry.records; ++k) {
            ColliderRecord c = world.collider_records[entry.first + k];
            if (c.kind != kColliderPayload) {
                c.position = vec4(rowsPoint(sim_from_world, vec3(c.position)), 0.0f);
                if (c.kind == kColliderPlane) {
                    c.extent = vec4(rowsVector(sim_from_world, vec3(c.extent)), 0.0f);
                }
                c.axis_u = vec4(rowsVector(sim_from_world, vec3(c.axis_u)), 0.0f);
                c.axis_v = vec4(rowsVector(sim_from_world, vec3(c.axis_v)), 0.0f);
            }
            scratch.colliders[collider_cursor++] = c;
        }
    }
}

// The scene depth the op meets, after its colliders (kSceneDepthColliderRecords records), when
// the world has one for this backend: its camera, the op's thickness, and how to bring the
// particle into the camera's space.
void appendSceneDepth(const SceneDepthInput& depth, const OpRecord& op, StepScratch& scratch,
                      uint32_t& collider_cursor) {
    const uint64_t address = scratch.device_addresses ? depth.device_address : depth.host_address;
    if (address == 0) return;
    ColliderRecord camera = depth.camera;
    camera.kind = kColliderSceneDepth;
    camera.radius = sceneDepthThickness(op);
    camera.payload = 1;
    ColliderRecord placement{};
    placement.kind = kColliderPayload;
    placement.flags = static_cast<uint32_t>(address);
    placement.payload = static_cast<uint32_t>(address >> 32);
    placement.radius = depth.near_m;
    placement.position = scratch.world_from_sim[0];
    placement.extent = scratch.world_from_sim[1];
    placement.axis_u = scratch.world_from_sim[2];
    scratch.colliders[collider_cursor++] = camera;
    scratch.colliders[collider_cursor++] = placement;
}

void resolveEmitterOps(const CompiledEffect& effect, const EmitterRecord& emitter,
                       EmitterStep& step, StepScratch& scratch, const WorldInputs* world,
                       uint32_t& op_cursor, uint32_t& field_cursor, uint32_t& collider_cursor) {
    const float dt = step.dt;
    step.op_first = op_cursor;
    step.op_count = emitter.op_count;
    step.spins = emitter.angular_velocity_min_rad_per_s != 0.0f ||
                 emitter.angular_velocity_max_rad_per_s != 0.0f;
    step.uses_flags = false;
    const vec4* emitter_rows = step.emitter_end;
    for (uint32_t k = 0; k < emitter.op_count; ++k) {
        ResolvedOp& r = scratch.ops[op_cursor++];
        r.op = effect.ops[emitter.op_first + k];
        r.factor = 0;
        r.vector = vec3(0.0f);
        r.distance_field = false;
        const vec3 p0 = vec3(r.op.params0);
        switch (r.op.op) {
        case kOpAcceleration:
            r.vector = rowsVector(step.sim_from_world, p0) * dt;
            break;
        case kOpBuoyancy: {
            const vec3 up = normalize(rowsVector(emitter_rows, vec3(0.0f, 1.0f, 0.0f)));
            r.vector = up * (r.op.params0.x * dt);
            break;
        }
        case kOpDrag:
            r.factor = sdDragFactor(r.op.params0.x, dt);
            break;
        case kOpWind:
            r.vector = rowsVector(step.sim_from_world, p0);
            r.factor = sdWindBlend(r.op.params0.w, dt);
            break;
        case kOpSpeedLimit:
            r.factor = sdDragFactor(r.op.params0.y, dt);
            break;
        case kOpCurlNoise:
            r.vector = rowsVector(step.sim_from_world, vec3(r.op.params1));
            break;
        case kOpAttractor:
            r.vector = rowsPoint(emitter_rows, p0);
            step.uses_flags = true; // the kill radius
            break;
        case kOpRotationOverLife:
            step.spins = true;
            break;
        case kOpForceFields: {
            const uint32_t first = field_cursor;
            for (uint32_t f = 0; f < r.op.count; ++f) {
                ForceFieldRecord field = effect.force_fields[r.op.first + f];
                field.position = vec4(rowsPoint(emitter_rows, vec3(field.position)), 0.0f);
                field.axis = vec4(rowsVector(emitter_rows, vec3(field.axis)), 0.0f);
                scratch.force_fields[field_cursor++] = field;
            }
            if (world != nullptr && attractsFromWorld(r.op)) {
                const uint32_t mask = attractorGroupMask(r.op);
                const float scale = r.op.params0.y;
                for (const WorldAttractorEntry& a : world->attractors) {
                    if ((a.groups & mask) == 0) continue;
                    ForceFieldRecord field = a.field;
                    field.position =
                        vec4(rowsPoint(step.sim_from_world, vec3(field.position)), 0.0f);
                    field.strength *= scale;
                    scratch.force_fields[field_cursor++] = field;
                }
            }
            r.op.first = first;
            r.op.count = field_cursor - first;
            break;
        }
        case kOpCollision: {
            step.uses_flags = true;
            const uint32_t first = collider_cursor;
            for (uint32_t k2 = 0; k2 < r.op.count; ++k2) {
                ColliderRecord collider = effect.colliders[r.op.first + k2];
                collider.position =
                    vec4(rowsPoint(step.sim_from_world, vec3(collider.position)), 0.0f);
                if (collider.kind == kColliderPlane) {
                    collider.extent =
                        vec4(rowsVector(step.sim_from_world, vec3(collider.extent)), 0.0f);
                }
                scratch.colliders[collider_cursor++] = collider;
            }
            if (world != nullptr && collidesWithWorld(r.op)) {
                appendWorldColliders(*world, r.op, step.sim_from_world, scratch, collider_cursor);
                if (collidesWithSceneDepth(r.op)) {
                    appendSceneDepth(world->scene_depth, r.op, scratch, collider_cursor);
                }
                r.distance_field = world->distance_field.sample != nullptr &&
                                   (world->distance_field.groups & collisionGroupMask(r.op)) != 0;
            }
            r.op.first = first;
            r.op.count = collider_cursor - first;
            break;
        }
        default:
            break;
        }
    }
}

// Where the cursors would be after resolveEmitterOps of this emitter, without resolving it.
void skipEmitterOps(const CompiledEffect& effect, const EmitterRecord& emitter, uint32_t& op_cursor,
                    uint32_t& field_cursor, uint32_t& collider_cursor) {
    for (uint32_t k = 0; k < emitter.op_count; ++k) {
        const OpRecord& op = effect.ops[emitter.op_first + k];
        if (op.op == kOpForceFields) field_cursor += op.count;
        if (op.op == kOpCollision) collider_cursor += op.count;
    }
    op_cursor += emitter.op_count;
}

} // namespace

uint64_t stepColliderCapacity(const CompiledEffect& effect) {
    uint64_t capacity = effect.colliders.size();
    for (const OpRecord& op : effect.ops) {
        if (collidesWithWorld(op)) capacity += kMaxWorldColliderRecords;
        if (collidesWithSceneDepth(op)) capacity += kSceneDepthColliderRecords;
    }
    return capacity;
}

uint64_t stepForceFieldCapacity(const CompiledEffect& effect) {
    uint64_t capacity = effect.force_fields.size();
    for (const OpRecord& op : effect.ops) {
        if (attractsFromWorld(op)) capacity += kActiveWorldAttractors;
    }
    return capacity;
}

void allocateStepScratch(const CompiledEffect& effect, StepScratch& scratch) {
    scratch.ops.resize(effect.ops.size());
    scratch.force_fields.resize(stepForceFieldCapacity(effect));
    scratch.colliders.resize(stepColliderCapacity(effect));
    scratch.emitters.resize(effect.emitters.size());
}

void resolveStep(const CompiledEffect& effect, const Rows3x4& step_start, const Rows3x4& step_end,
                 double time_s, StepScratch& scratch, const WorldInputs* world) {
    resolveStep(effect, step_start, step_end, time_s, scratch, world, ~uint64_t{0});
}

void resolveStep(const CompiledEffect& effect, const Rows3x4& step_start, const Rows3x4& step_end,
                 double time_s, StepScratch& scratch, const WorldInputs* world, uint64_t needed) {
    const uint32_t space = effect.effect.space;
    const float dt = effect.effect.fixed_timestep_s;
    const Rows3x4 sim_from_world = simFromWorld(step_end, space);
    uint32_t op_cursor = 0, field_cursor = 0, collider_cursor = 0;
    scratch.distance_field = world != nullptr ? world->distance_field : DistanceFieldHook{};
    copyRows(scratch.sim_from_world, sim_from_world);
    copyRows(scratch.world_from_sim, space == kSpaceWorld ? Rows3x4{} : step_end);
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        if (e < 64 && ((needed >> e) & 1u) == 0) {
            skipEmitterOps(effect, emitter, op_cursor, field_cursor, collider_cursor);
            continue;
        }
        EmitterStep& step = scratch.emitters[e];
        step.dt = dt;
        step.time_s = static_cast<float>(time_s);
        step.emitter_index = e;
        copyRows(step.emitter_start, simFromEmitter(step_start, emitter, space));
        copyRows(step.emitter_end, simFromEmitter(step_end, emitter, space));
        copyRows(step.sim_from_world, sim_from_world);
        resolveEmitterOps(effect, emitter, step, scratch, world, op_cursor, field_cursor,
                          collider_cursor);
    }
}

} // namespace spindrift
