// The C API's plain structs and the C++ runtime's types: conversions both ways, and the layout
// checks of the structs the C API hands out by pointer into C++ storage (particles and strip
// points are the C++ records themselves, not copies).
#pragma once

#include <cstddef>
#include <type_traits>

#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"
#include "spindrift/spindrift.h"

namespace spindrift::capi {

// Frozen: spindrift_particle is Particle and DrawParticle, spindrift_strip_point DrawStripPoint.
#define SPINDRIFT_SAME_FIELD(c_type, cpp_type, c_field, cpp_field)                                 \
    static_assert(offsetof(c_type, c_field) == offsetof(cpp_type, cpp_field))
static_assert(sizeof(spindrift_particle) == 64 && sizeof(DrawParticle) == 64 &&
              sizeof(Particle) == 64);
static_assert(std::is_standard_layout_v<DrawParticle> && std::is_standard_layout_v<Particle>);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, position, position);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, size_m, size_m);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, color, color);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, velocity_m_per_s, velocity_m_per_s);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, rotation_rad, rotation_rad);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, normalized_age, normalized_age);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, flipbook_frame, flipbook_frame);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, emitter_index, emitter_index);
SPINDRIFT_SAME_FIELD(spindrift_particle, DrawParticle, key, key);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, position, position);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, size_m, size_m);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, color, color);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, velocity_m_per_s, velocity_m_per_s);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, rotation_rad, rotation_rad);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, normalized_age, normalized_age);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, flipbook_frame, flipbook_frame);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, emitter_index, emitter_index);
SPINDRIFT_SAME_FIELD(spindrift_particle, Particle, key, key);
static_assert(sizeof(spindrift_strip_point) == 48 && sizeof(DrawStripPoint) == 48);
static_assert(std::is_standard_layout_v<DrawStripPoint>);
SPINDRIFT_SAME_FIELD(spindrift_strip_point, DrawStripPoint, position, position);
SPINDRIFT_SAME_FIELD(spindrift_strip_point, DrawStripPoint, width_m, width_m);
SPINDRIFT_SAME_FIELD(spindrift_strip_point, DrawStripPoint, color, color);
SPINDRIFT_SAME_FIELD(spindrift_strip_point, DrawStripPoint, tangent, tangent);
SPINDRIFT_SAME_FIELD(spindrift_strip_point, DrawStripPoint, u, u);
#undef SPINDRIFT_SAME_FIELD

inline Vec3 toCpp(const spindrift_vec3& v) {
    return {v.x, v.y, v.z};
}
inline Quat toCpp(const spindrift_quat& q) {
    return {q.x, q.y, q.z, q.w};
}
inline Color toCpp(const spindrift_color& c) {
    return {c.r, c.g, c.b, c.a};
}
inline InstanceTransform toCpp(const spindrift_transform& t) {
    return {toCpp(t.position), toCpp(t.rotation), toCpp(t.scale)};
}
inline spindrift_vec3 toC(const Vec3& v) {
    return {v.x, v.y, v.z};
}
inline spindrift_quat toC(const Quat& q) {
    return {q.x, q.y, q.z, q.w};
}
inline spindrift_color toC(const Color& c) {
    return {c.r, c.g, c.b, c.a};
}
inline spindrift_transform toC(const InstanceTransform& t) {
    return {toC(t.position), toC(t.rotation), toC(t.scale)};
}

inline DrawView toCpp(const spindrift_draw_view& v) {
    DrawView out;
    out.eye = toCpp(v.eye);
    out.forward = toCpp(v.forward);
    out.up = toCpp(v.up);
    out.fov_y_deg = v.fov_y_deg;
    out.aspect = v.aspect;
    out.near_m = v.near_m;
    out.far_m = v.far_m;
    out.viewport_width = v.viewport_width;
    out.viewport_height = v.viewport_height;
    out.order_independent = v.order_independent;
    return out;
}

} // namespace spindrift::capi
