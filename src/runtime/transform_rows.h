// The public transform vocabulary (runtime.h: Vec3, Quat, InstanceTransform) as the driver's
// rows: one conversion for instances and the host's colliders.
#pragma once

#include <string>

#include "driver/placement.h"
#include "spindrift/runtime.h"

namespace spindrift {

// world_from_effect of a transform: translate * rotate * scale, rows of a 3x4 matrix. The
// rotation is normalised (rotationProblem must have passed).
Rows3x4 rowsOf(const InstanceTransform& t);

// Whether every coordinate of v is finite (no NaN, no infinity): the check of every point and
// direction a host gives the runtime.
bool finite(const Vec3& v);

// Empty when q is a usable rotation (finite, not zero); else what is wrong ("rotation is a zero
// quaternion").
std::string rotationProblem(const Quat& q);

} // namespace spindrift
