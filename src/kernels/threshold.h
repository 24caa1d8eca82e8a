// Threshold crossings, one text for both backends (docs/runtime-api.md, "Events"): whether a
// particle crossed its emitter's threshold (EmitterEventsRecord) during one step. The caller
// takes the quantity before the step and after it (sdThresholdQuantity) and asks
// sdThresholdCrossed. A crossing is a threshold gameplay event and fires the emitter's
// sub-emitter links on kEventThreshold.
//
// Speed is compared squared (|v|^2 against value^2): no square root, so both backends decide
// from the same correctly rounded multiplies and adds.
//
// FROZEN: changing what counts as a crossing changes the children of threshold sub-emitters.
#ifndef SPINDRIFT_KERNELS_THRESHOLD_H
#define SPINDRIFT_KERNELS_THRESHOLD_H

#include "effect_records.h"
#include "integrate.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// The watched quantity of one particle (kThreshold*): the squared speed, the world height
// (world_y_row is row 1 of world_from_simulation: (0, 1, 0, 0) for a world-space effect) or the
// normalised age. kThresholdNone reads 0.
SD_FUNC float sdThresholdQuantity(uint quantity, vec3 position, vec3 velocity, float age_s,
                                  float lifetime_s, vec4 world_y_row) {
    if (quantity == kThresholdSpeed) return dot(velocity, velocity);
    if (quantity == kThresholdHeight) {
        return world_y_row.x * position.x + world_y_row.y * position.y +
               world_y_row.z * position.z + world_y_row.w;
    }
    if (quantity == kThresholdAgeFraction) return sdNormalizedAge(age_s, lifetime_s);
    return 0.0f;
}

// Whether the quantity went from `before` to `after` across `value` in `direction`
// (kThresholdRising: from below value to value or above; kThresholdFalling: the reverse;
// kThresholdEither: both). A speed threshold compares against value^2 (sdThresholdQuantity
// gives the squared speed). kThresholdNone never crosses.
SD_FUNC bool sdThresholdCrossed(uint quantity, uint direction, float value, float before,
                                float after) {
    if (quantity == kThresholdNone) return false;
    float level = quantity == kThresholdSpeed ? value * value : value;
    bool rising = before < level && after >= level;
    bool falling = before >= level && after < level;
    if (direction == kThresholdRising) return rising;
    if (direction == kThresholdFalling) return falling;
    return rising || falling;
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_THRESHOLD_H
