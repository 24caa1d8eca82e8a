#include "driver/placement.h"

#include <cmath>

#include "kernels/transform.h"

namespace spindrift {

vec3 transformPoint(const Rows3x4& m, vec3 p) {
    return sdTransformPoint(m.rows[0], m.rows[1], m.rows[2], p);
}

vec3 transformVector(const Rows3x4& m, vec3 v) {
    return sdTransformVector(m.rows[0], m.rows[1], m.rows[2], v);
}

Rows3x4 composeTransforms(const Rows3x4& a, const Rows3x4& b) {
    Rows3x4 out;
    for (int r = 0; r < 3; ++r) {
        const vec4& ar = a.rows[r];
        for (int c = 0; c < 4; ++c) {
            float v = ar.x * b.rows[0][c] + ar.y * b.rows[1][c] + ar.z * b.rows[2][c];
            if (c == 3) v += ar.w;
            out.rows[r][c] = v;
        }
    }
    return out;
}

Rows3x4 blendTransforms(const Rows3x4& a, const Rows3x4& b, float t) {
    Rows3x4 out;
    for (int r = 0; r < 3; ++r) out.rows[r] = a.rows[r] * (1.0f - t) + b.rows[r] * t;
    return out;
}

Rows3x4 makeRigidTransform(float x, float y, float z, float yaw_rad) {
    const float c = std::cos(yaw_rad);
    const float s = std::sin(yaw_rad);
    Rows3x4 m;
    m.rows[0] = vec4(c, 0, s, x);
    m.rows[1] = vec4(0, 1, 0, y);
    m.rows[2] = vec4(-s, 0, c, z);
    return m;
}

Rows3x4 simFromEmitter(const Rows3x4& world_from_effect, const EmitterRecord& emitter,
                       uint32_t space) {
    Rows3x4 parent_from_emitter;
    parent_from_emitter.rows[0] = emitter.transform_row0;
    parent_from_emitter.rows[1] = emitter.transform_row1;
    parent_from_emitter.rows[2] = emitter.transform_row2;
    if (space == kSpaceLocal) return parent_from_emitter;
    return composeTransforms(world_from_effect, parent_from_emitter);
}

Rows3x4 simFromWorld(const Rows3x4& world_from_effect, uint32_t space) {
    if (space != kSpaceLocal) return Rows3x4{};
    // Inverse of a rigid transform: transpose the rotation, translation -R^T t.
    const Rows3x4& m = world_from_effect;
    Rows3x4 out;
    const vec3 t(m.rows[0].w, m.rows[1].w, m.rows[2].w);
    for (int r = 0; r < 3; ++r) {
        const vec3 column(m.rows[0][r], m.rows[1][r], m.rows[2][r]);
        out.rows[r] = vec4(column, -(column.x * t.x + column.y * t.y + column.z * t.z));
    }
    return out;
}

Rows3x4 worldFromSim(const Rows3x4& world_from_effect, uint32_t space) {
    return space == kSpaceLocal ? world_from_effect : Rows3x4{};
}

} // namespace spindrift
