// Integration order and the death test, the same on every backend. One step of a particle is:
//   1. the update ops in execution order change velocity (and colour, size, spin);
//   2. p += v dt; rotation += angular velocity dt   (semi-implicit Euler: the NEW velocity moves)
//   3. collision corrects position and velocity (kOpCollision runs after the move; see
//      docs/kernels.md);
//   4. age += dt; the particle dies when sdIsDead(age, lifetime).
// Under a constant acceleration a this gives v_n = v_0 + n a dt and
// p_n = p_0 + n v_0 dt + a dt^2 n (n + 1) / 2.
#ifndef SPINDRIFT_KERNELS_INTEGRATE_H
#define SPINDRIFT_KERNELS_INTEGRATE_H

#include "shared_types.h"

SD_BEGIN_NAMESPACE

SD_FUNC vec3 sdIntegratePosition(vec3 position, vec3 velocity, float dt) {
    return position + velocity * dt;
}

SD_FUNC float sdIntegrateRotation(float rotation_rad, float angular_velocity_rad_per_s, float dt) {
    return rotation_rad + angular_velocity_rad_per_s * dt;
}

SD_FUNC float sdAdvanceAge(float age_s, float dt) {
    return age_s + dt;
}

// Death at age >= lifetime (a particle lives exactly ceil(lifetime / dt) steps when born at age 0).
SD_FUNC bool sdIsDead(float age_s, float lifetime_s) {
    return age_s >= lifetime_s;
}

// age / lifetime clamped to [0, 1]: the position on over-life curves. lifetime >= kMinLifetimeS.
SD_FUNC float sdNormalizedAge(float age_s, float lifetime_s) {
    float t = age_s / lifetime_s;
    t = t > 0.0f ? t : 0.0f;
    return t < 1.0f ? t : 1.0f;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_INTEGRATE_H
