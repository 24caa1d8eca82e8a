// Births, one text for both backends (docs/kernels.md, "Births"):
// - sdBirth: the values a particle is born with (docs/effect-format.md, "Init"), drawn from its key
//   with the frozen draw indices of random.h, in emitter space;
// - sdBirthFraction: where in the step planned birth i of n sits, exact on both backends;
// - sdPlannedBirthPlace / sdEventBirthPlace: where a planned birth and a sub-emitter event's
//   child are placed (the rows, offset, inherited velocity and pre-age of a BirthPlace);
// - sdNewborn: the whole newborn in the pool's space (key, shape, values, placement, colour).
// The CPU backend (src/cpu/spawn.cpp) and the GPU passes (shaders/gpu_spawn.comp,
// gpu_event_spawn.comp, gpu_events.comp) only fetch records, call these and store the result.
#ifndef SPINDRIFT_KERNELS_BIRTH_H
#define SPINDRIFT_KERNELS_BIRTH_H

#include "effect_records.h"
#include "lut.h"
#include "random.h"
#include "shape.h"
#include "shared_types.h"
#include "transform.h"

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

SD_FUNC Birth sdBirth(SD_IN(EmitterRecord) e, uint key, ShapeSample s) {
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

// The last float below 1 (1 - 2^-24): a birth fraction never reaches the step's end.
SD_CONST float kBirthFractionBelowOne = 0.99999994f;
// The largest n sdBirthFraction is exact for: a step plans at most an emitter's capacity of
// births (kMaxEmitterCapacity).
SD_CONST uint kBirthFractionMaxCount = 134217728u; // 2^27

// The exact rounding of a / d = (2i + 1) / 2n from an estimate within 7 ulp of it (a division of
// the rounded operands is within 2.5 ulp when it is IEEE, within 4.5 with Vulkan's 2.5-ulp
// division). The
// integer residual a * 2^(23 + s) - m * d (wrapping uint arithmetic, exact on both backends)
// decides the 24 bits and the rounding; the result is an exact integer times a power of two.
SD_FUNC float sdBirthFractionFromEstimate(uint i, uint n, float estimate) {
    uint a = 2u * i + 1u; // the fraction is a / d, in (0, 1)
    uint d = 2u * n;
    // The shift s with x = a * 2^s in [d, 2d): from the estimate's exponent, then made exact by
    // one comparison each way (the estimate is off by at most one binade).
    uint biased = floatBitsToUint(estimate) >> 23; // estimate in [2^(biased - 127), ...)
    uint s = biased < 127u ? 127u - biased : 0u;
    uint x = a << s;
    bool below = x < d;
    x = below ? x << 1 : x;
    s = below ? s + 1u : s;
    bool above = x >= 2u * d;
    x = above ? x >> 1 : x;
    s = above ? s - 1u : s;
    // m = x * 2^23 / d in [2^23, 2^24): the estimate scaled by an exact power of two, truncated,
    // then lowered by 7 so that the residual r = x * 2^23 - m * d lies in [0, 15 d], below 2^32.
    float scale = uintBitsToFloat((150u + s) << 23); // 2^(23 + s)
    uint m = uint(estimate * scale) - 7u;
    uint r = (x << 23) - m * d;
    uint k = uint(float(r) / float(d)); // floor(r / d), or one off
    r -= k * d;
    bool over = r >= 0x80000000u; // k was one too many: r wrapped below 0
    r = over ? r + d : r;
    k = over ? k - 1u : k;
    bool under = r >= d; // k was one too few
    r = under ? r - d : r;
    k = under ? k + 1u : k;
    m += k;
    // Round to nearest, ties to even, on the exact remainder r in [0, d).
    uint twice = 2u * r;
    bool up = twice > d || (twice == d && (m & 1u) == 1u);
    m = up ? m + 1u : m;
    float u = float(m) * uintBitsToFloat((104u - s) << 23); // m * 2^-(23 + s), exact
    return min(u, kBirthFractionBelowOne);
}

// Sub-step fraction of planned birth i of n in one step: (i + 0.5) / n rounded to the nearest float
// (ties to even), at most kBirthFractionBelowOne. One rule, exact on both backends for 1 <= n <=
// kBirthFractionMaxCount and i < n, however the device divides: the float division only
// estimates, and sdBirthFractionFromEstimate decides the bits with integer arithmetic. For
// n <= 2^28 this is the float the CPU got by rounding the double quotient before (53 bits leave
// no double-rounding case at these denominators), so no CPU result changed; the GPU divided in
// float, which differs for i >= 2^23 (i + 0.5 is not a float there). docs/kernels.md, "Births".
SD_FUNC float sdBirthFraction(uint i, uint n) {
    float estimate = float(2u * i + 1u) / float(2u * n);
#ifdef __cplusplus
    // The CPU divides as IEEE 754 says: correctly rounded, ties to even. For n <= 2^22 both
    // operands are exact floats, so the estimate already is the rule's float (the correction
    // would return it unchanged; tests/kernels/birth_fraction_test.cpp checks both against an
    // exact reference) and is below kBirthFractionBelowOne (a / d <= 1 - 2^-23). Only the
    // device, whose division may be off by ulps, always needs the correction.
    if (n <= 4194304u) return estimate;
#endif
    return sdBirthFractionFromEstimate(i, n, estimate);
}

// Where and how a newborn is placed in the pool's space (simulation space).
struct BirthPlace {
    vec4 row0; // sim_from_emitter for this birth (3x4 rows)
    vec4 row1;
    vec4 row2;
    vec3 offset;     // added to the transformed position (an event birth: the event position)
    vec3 inherited;  // added to the transformed velocity (an event birth: inherited velocity)
    float pre_age_s; // the age at birth; the newborn moves by velocity * pre_age_s
    bool translated; // true: the rows' translation is added (false: centred on offset)
};

// Planned birth i of n of a step of dt seconds whose emitter moves from rows start to rows end:
// it sits at sub-step fraction u = sdBirthFraction(i, n), the rows interpolated there, and is
// pre-aged by the rest of the step, (1 - u) * dt.
SD_FUNC BirthPlace sdPlannedBirthPlace(vec4 start0, vec4 start1, vec4 start2, vec4 end0, vec4 end1,
                                       vec4 end2, uint i, uint n, float dt) {
    float u = sdBirthFraction(i, n);
    BirthPlace place;
    place.row0 = start0 * (1.0f - u) + end0 * u;
    place.row1 = start1 * (1.0f - u) + end1 * u;
    place.row2 = start2 * (1.0f - u) + end2 * u;
    place.offset = vec3(0.0f);
    place.inherited = vec3(0.0f);
    place.pre_age_s = (1.0f - u) * dt;
    place.translated = true;
    return place;
}

// A sub-emitter event's child: the child's shape centred on the event position, oriented by the
// child's rows at the end of the step (their translation ignored), the event's inherited velocity
// (already scaled by the link's inherit_velocity) added, age 0.
SD_FUNC BirthPlace sdEventBirthPlace(vec4 end0, vec4 end1, vec4 end2, vec3 event_position,
                                     vec3 inherited_velocity) {
    BirthPlace place;
    place.row0 = end0;
    place.row1 = end1;
    place.row2 = end2;
    place.offset = event_position;
    place.inherited = inherited_velocity;
    place.pre_age_s = 0.0f;
    place.translated = false;
    return place;
}

// A newborn in the pool's space, before it has a slot: its pool columns and its birth events
// come from these (age = the place's pre_age_s, flags 0).
struct Newborn {
    uint key;      // sdParticleKey(seed, emitter, ordinal)
    Birth birth;   // the drawn values, emitter space
    vec3 position; // simulation space, pre-aged
    vec3 velocity; // simulation space
    vec4 color;    // the init colour, or the gradient's LUT row at birth.color_t
};

// The newborn with spawn ordinal (ordinal_lo, ordinal_hi) of emitter emitter_index (record e)
// placed at place: key, shape (a mesh surface read through mesh_points), drawn values, position
// and velocity in the pool's space, and the birth colour (the gradient read through lut).
SD_FUNC Newborn sdNewborn(SD_IN(EmitterRecord) e, uint seed, uint emitter_index, uint ordinal_lo,
                          uint ordinal_hi, SD_IN(BirthPlace) place, LutRef lut,
                          MeshPointsRef mesh_points) {
    Newborn n;
    n.key = sdParticleKey(seed, emitter_index, ordinal_lo, ordinal_hi);
    n.birth = sdBirth(e, n.key, sdSampleEmitterShape(e, n.key, mesh_points));
    n.position =
        sdTransformVector(place.row0, place.row1, place.row2, n.birth.position) + place.offset;
    if (place.translated) n.position += vec3(place.row0.w, place.row1.w, place.row2.w);
    n.velocity =
        sdTransformVector(place.row0, place.row1, place.row2, n.birth.velocity) + place.inherited;
    n.position += n.velocity * place.pre_age_s;
    n.color = n.birth.color;
    if (e.color_mode == kColorModeGradient)
        n.color = sdLutSample(lut, e.color_lut_row, n.birth.color_t);
    return n;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_BIRTH_H
