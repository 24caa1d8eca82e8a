#include "runtime/transform_rows.h"

#include <cmath>

namespace spindrift {

bool finite(const Vec3& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

Rows3x4 rowsOf(const InstanceTransform& t) {
    const Quat& q0 = t.rotation;
    const double n = std::sqrt(double(q0.x) * q0.x + double(q0.y) * q0.y + double(q0.z) * q0.z +
                               double(q0.w) * q0.w);
    const double x = q0.x / n, y = q0.y / n, z = q0.z / n, w = q0.w / n;
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    const float s[3] = {t.scale.x, t.scale.y, t.scale.z};
    const float p[3] = {t.position.x, t.position.y, t.position.z};
    Rows3x4 m;
    for (int i = 0; i < 3; ++i) {
        m.rows[i] = vec4(static_cast<float>(r[i][0] * s[0]), static_cast<float>(r[i][1] * s[1]),
                         static_cast<float>(r[i][2] * s[2]), p[i]);
    }
    return m;
}

std::string rotationProblem(const Quat& q) {
    if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z) || !std::isfinite(q.w))
        return "rotation is not finite";
    const double n2 = double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w;
    if (!(n2 > 1e-12)) return "rotation is a zero quaternion";
    return {};
}

} // namespace spindrift
