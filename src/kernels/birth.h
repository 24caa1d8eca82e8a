// The values a particle is born with (docs/effect-format.md, "Init"), drawn from its key with the
// frozen draw indices of random.h. Everything is in emitter space: the caller turns position and
// velocity into the pool's space (sdEmitterPoint / sdEmitterVector) and, for gradient colour
// mode, samples LUT row e.color_lut_row at color_t.
#ifndef SPINDRIFT_KERNELS_BIRTH_H
#define SPINDRIFT_KERNELS_BIRTH_H

#include "effect_records.h"
#include "random.h"
#include "shape.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// Lifetimes are clamped below by this, so 1 / lifetime (normalised age) is always finite.
SD_CONST float kMinLifetimeS = 1.0e-4f;

struct Birth {
    vec3 position; // emitter space, m
    vec3 velocity; // emitter space, m/s: speed * shape direction + init velocity
    float lifetime_s;
    float size;
    float rotation_rad;
    float angular_velocity_rad_per_s;
    float mass;
    vec4 color;    // constant or random_between colour; color_a (zeros) in gradient mode
    float color_t; // the colour draw in [0, 1): the gradient position in gradient mode
};

SD_FUNC Birth sdBirth(EmitterRecord e, uint key, ShapeSample s) {
    Birth b;
    b.position = s.position;
    float speed = sdRandomRange(key, kDrawSpeed, e.speed_min, e.speed_max);
    vec3 extra = vec3(sdRandomRange(key, kDrawVelocityX, e.velocity_min.x, e.velocity_max.x),
                      sdRandomRange(key, kDrawVelocityY, e.velocity_min.y, e.velocity_max.y),
                      sdRandomRange(key, kDrawVelocityZ, e.velocity_min.z, e.velocity_max.z));
    b.velocity = s.direction * speed + extra;
    b.lifetime_s =
        max(sdRandomRange(key, kDrawLifetime, e.lifetime_min_s, e.lifetime_max_s), kMinLifetimeS);
    b.size = sdRandomRange(key, kDrawSize, e.size_min, e.size_max);
    b.rotation_rad = sdRandomRange(key, kDrawRotation, e.rotation_min_rad, e.rotation_max_rad);
    b.angular_velocity_rad_per_s =
        sdRandomRange(key, kDrawAngularVelocity, e.angular_velocity_min_rad_per_s,
                      e.angular_velocity_max_rad_per_s);
    b.mass = sdRandomRange(key, kDrawMass, e.mass_min, e.mass_max);
    float t = sdRandom01(key, kDrawColor);
    b.color_t = t;
    // One t for all four components: a + (b - a) t, exactly a where a == b.
    vec4 blend =
        vec4(sdLerpRange(e.color_a.x, e.color_b.x, t), sdLerpRange(e.color_a.y, e.color_b.y, t),
             sdLerpRange(e.color_a.z, e.color_b.z, t), sdLerpRange(e.color_a.w, e.color_b.w, t));
    b.color = e.color_mode == kColorModeRandomBetween ? blend : e.color_a;
    return b;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_BIRTH_H
