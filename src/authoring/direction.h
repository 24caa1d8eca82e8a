// Unit direction vectors (force-field axes, collision-plane and mesh-point normals): the reader
// normalises them, the validator requires them. A vector already within kUnitTolerance of unit
// length is left as it is, so normalising is idempotent and load -> save -> load stays exact.
#pragma once

#include <cmath>

#include "spindrift/effect_desc.h"

namespace spindrift {

inline constexpr double kUnitTolerance = 1e-4;

inline double vectorLength(const Float3& v) {
    return std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
}

inline bool isUnitLength(const Float3& v) {
    return std::fabs(vectorLength(v) - 1.0) <= kUnitTolerance;
}

// False (v untouched) for a zero, denormal-small or non-finite vector.
inline bool normalizeDirection(Float3& v) {
    const double length = vectorLength(v);
    if (!std::isfinite(length) || length < 1e-20) return false;
    if (std::fabs(length - 1.0) <= kUnitTolerance) return true;
    v = {float(v.x / length), float(v.y / length), float(v.z / length)};
    return true;
}

} // namespace spindrift
