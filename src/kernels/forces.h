// The velocity ops of the update stack (docs/effect-format.md, "Update modules";
// docs/compiled-records.md says which OpRecord fields hold each parameter). Each function takes
// the particle's values and returns its new velocity (sdAttractor returns an acceleration and a
// kill flag). Per-step factors that need an exp (drag, wind, speed limit) are computed once per
// step by the caller, not per particle.
//
// Frames: the functions do not transform. World-space quantities (gravity, force, wind) and
// emitter-space ones (buoyancy's up axis, force fields, attractors) must be given in the frame of
// the particle values the caller passes (sdTransformVector / sdInverseTransformPoint).
//
// Signature note: the design's "(OpRecord op, ...)" form is replaced by the op's values, because
// the caller has to move them into the particle's frame first; sdForceField keeps its record.
// Every function is branch-free for the vectoriser (selects only), except sdForceField, which
// branches on the record's shape (uniform over a loop).
#ifndef SPINDRIFT_KERNELS_FORCES_H
#define SPINDRIFT_KERNELS_FORCES_H

#include "curl_noise.h"
#include "effect_records.h"
#include "sd_math.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// The effect's force fields as kernels read them: fields[i] (SD_READONLY_REF).
SD_READONLY_REF(ForceFieldsRef, ForceFieldRecord, fields, 16);

// Guards a division by a length that may be 0 (the select discards the result there).
SD_CONST float kTinyLength = 1.0e-30f;

// kOpAcceleration: v + a dt.
SD_FUNC vec3 sdAcceleration(vec3 velocity, vec3 acceleration, float dt) {
    return velocity + acceleration * dt;
}

// kOpBuoyancy: v + up * (acceleration * curve_value * dt); curve_value is the over-life curve at
// the normalised age, or 1 when the op has none.
SD_FUNC vec3 sdBuoyancy(vec3 velocity, vec3 up, float acceleration, float curve_value, float dt) {
    return velocity + up * (acceleration * curve_value * dt);
}

// kOpDrag: the per-step factor exp(-k dt) (k = params0.x), then v * factor. Exact for any step
// length: the same fraction of speed is lost per second at any rate.
SD_FUNC float sdDragFactor(float coefficient_per_s, float dt) {
    return sdExp(-coefficient_per_s * dt);
}
SD_FUNC vec3 sdDrag(vec3 velocity, float factor) {
    return velocity * factor;
}

// kOpWind: the per-step blend 1 - exp(-k dt), then v + (wind - v) * blend.
SD_FUNC float sdWindBlend(float coefficient_per_s, float dt) {
    return 1.0f - sdExp(-coefficient_per_s * dt);
}
SD_FUNC vec3 sdWind(vec3 velocity, vec3 wind_velocity, float blend) {
    return velocity + (wind_velocity - velocity) * blend;
}

// kOpSpeedLimit: factor = sdDragFactor(damping_per_s, dt). Above max_speed the speed becomes
// max + (s - max) * factor, direction unchanged; at or below it nothing changes.
SD_FUNC vec3 sdSpeedLimit(vec3 velocity, float max_speed, float factor) {
    float s = length(velocity);
    float limited = max_speed + (s - max_speed) * factor;
    float scale = limited / max(s, kTinyLength);
    return velocity * (s > max_speed ? scale : 1.0f);
}

// kOpCurlNoise, as an acceleration: strength * the curl field at (p - scroll * time) * frequency.
// The field drifts with velocity `scroll`. See curl_noise.h for the octave loop and its cost.
SD_FUNC vec3 sdCurlNoiseAcceleration(vec3 position, float time_s, float strength, float frequency,
                                     vec3 scroll, uint octaves) {
    return sdCurlNoise((position - scroll * time_s) * frequency, octaves) * strength;
}

// The fade of a force field at distance d: (1 - d / radius)^falloff inside the radius, 0 at and
// beyond it; exactly 1 at the centre, and exactly 1 everywhere inside for falloff 0.
SD_FUNC float sdForceFieldFalloff(float d, float radius, float falloff) {
    float x = max(1.0f - d / radius, 0.0f);
    return d < radius ? sdPow(x, falloff) : 0.0f;
}

// One force field (kOpForceFields applies its range in order), in emitter space, returning the
// new velocity. point: accelerates toward position (negative strength repels), d = distance to
// position; vortex: accelerates around axis, counter-clockwise looking down it (direction
// axis x radial), d = distance to the axis line; drag: v *= exp(-strength * fade * dt).
// Zero acceleration at d = 0 where the direction is undefined.
SD_FUNC vec3 sdForceField(ForceFieldRecord f, vec3 position, vec3 velocity, float dt) {
    vec3 rel = position - vec3(f.position);
    vec3 axis = vec3(f.axis);
    bool vortex = f.shape == kForceFieldVortex;
    vec3 radial = vortex ? rel - axis * dot(rel, axis) : rel;
    float d = length(radial);
    float fade = sdForceFieldFalloff(d, f.radius, f.falloff);
    if (f.shape == kForceFieldDrag) return velocity * sdExp(-f.strength * fade * dt);
    float inv_d = d > 0.0f ? 1.0f / max(d, kTinyLength) : 0.0f;
    vec3 dir = vortex ? cross(axis, radial) * inv_d : rel * -inv_d;
    return velocity + dir * (f.strength * fade * dt);
}

struct AttractorResult {
    vec3 acceleration;
    bool kill; // closer than kill_radius (never when kill_radius is 0)
};

// kOpAttractor: toward position with magnitude strength / max(d^2, radius^2) (negative repels);
// zero at d = 0. kill when d < kill_radius.
SD_FUNC AttractorResult sdAttractor(vec3 position, vec3 attractor_position, float strength,
                                    float radius, float kill_radius) {
    vec3 to = attractor_position - position;
    float d2 = dot(to, to);
    float d = sqrt(d2);
    float magnitude = strength / max(max(d2, radius * radius), kTinyLength);
    float inv_d = d > 0.0f ? 1.0f / max(d, kTinyLength) : 0.0f;
    AttractorResult r;
    r.acceleration = to * (magnitude * inv_d);
    r.kill = d < kill_radius;
    return r;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_FORCES_H
