// Shape sampling: where a particle is born and its initial direction, in emitter space, for
// every shape kind and emit_from mode of docs/effect-format.md ("Shape"). The table as
// implemented, with the draws each shape uses, is in docs/kernels.md.
//
// sdSampleEmitterShape is the sample every birth takes: sdSampleShape for the analytic shapes, and
// for kShapeMesh the point sdMeshPointIndex picks, read through a MeshPointsRef, given to
// sdMeshShapeSample (sdSampleShape alone returns the origin and +Y for a mesh).
//
// Birth code, not per-step code: it branches on the (per-emitter uniform) shape kind.
#ifndef SPINDRIFT_KERNELS_SHAPE_H
#define SPINDRIFT_KERNELS_SHAPE_H

#include "effect_records.h"
#include "random.h"
#include "sd_math.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// The effect's mesh surface points as kernels read them: points[i] (SD_READONLY_REF).
SD_READONLY_REF(MeshPointsRef, MeshPointRecord, points, 16);

// Emitter space; direction has unit length.
struct ShapeSample {
    vec3 position;
    vec3 direction;
};

// Below this the blend of randomize_direction has no usable direction and the random one is used.
SD_CONST float kMinDirectionLength2 = 1.0e-12f;
// A frustum flatter than this (relative change of radius over its height) is sampled as a
// cylinder: the inverse-CDF formula would divide by a vanishing radius difference.
SD_CONST float kMinConeFlare = 1.0e-3f;

SD_FUNC ShapeSample sdShapeSample(vec3 position, vec3 direction) {
    ShapeSample s;
    s.position = position;
    s.direction = direction;
    return s;
}

// The unit vector at `angle` around +Y in the XZ plane, from +X toward -Z (counter-clockwise
// seen from above), as arc_deg is defined.
SD_FUNC vec3 sdRingDirection(float angle) {
    float s;
    float c;
    sdSinCos(angle, s, c);
    return vec3(c, 0.0f, -s);
}

// Cube root for x >= 0 (0 for x <= 0), relative error ~1e-6; used where a volume is sampled.
SD_FUNC float sdCbrt(float x) {
    return x > 0.0f ? sdExp(sdLog(x) * (1.0f / 3.0f)) : 0.0f;
}

// Blends `direction` toward the random unit vector `random_dir` by amount (0 keeps it exactly,
// 1 gives random_dir) and renormalises; a blend that cancels out gives random_dir.
SD_FUNC vec3 sdRandomizeDirection(vec3 direction, vec3 random_dir, float amount) {
    if (amount <= 0.0f) return direction;
    vec3 v = direction * (1.0f - amount) + random_dir * amount;
    float len2 = dot(v, v);
    return len2 > kMinDirectionLength2 ? v / sqrt(len2) : random_dir;
}

// line: along X, centred. volume: anywhere on the segment; edge: one of its two ends.
SD_FUNC ShapeSample sdSampleLine(SD_IN(EmitterRecord) e, float u0) {
    float half_length = 0.5f * e.shape_length;
    float x = e.emit_from == kEmitFromEdge ? (u0 < 0.5f ? -half_length : half_length)
                                           : (2.0f * u0 - 1.0f) * half_length;
    return sdShapeSample(vec3(x, 0.0f, 0.0f), vec3(0.0f, 1.0f, 0.0f));
}

// box: full extents shape_size.xyz, centred. Faces and edges are picked in proportion to their
// area and length, so shell and edge samples are uniform over the surface and the edges.
SD_FUNC ShapeSample sdSampleBox(SD_IN(EmitterRecord) e, float u0, float u1, float u2, float u3) {
    vec3 size = vec3(e.shape_size);
    vec3 h = size * 0.5f;
    vec3 up = vec3(0.0f, 1.0f, 0.0f);
    if (e.emit_from == kEmitFromShell) {
        float area_x = size.y * size.z; // the two faces normal to X
        float area_y = size.z * size.x;
        float area_z = size.x * size.y;
        float pick = u0 * (area_x + area_y + area_z);
        float side = u3 < 0.5f ? -1.0f : 1.0f;
        float a = 2.0f * u1 - 1.0f;
        float b = 2.0f * u2 - 1.0f;
        if (pick < area_x) return sdShapeSample(vec3(side * h.x, a * h.y, b * h.z), up);
        if (pick < area_x + area_y) return sdShapeSample(vec3(b * h.x, side * h.y, a * h.z), up);
        return sdShapeSample(vec3(a * h.x, b * h.y, side * h.z), up);
    }
    if (e.emit_from == kEmitFromEdge) {
        // Four edges run along each axis; u3 picks one of the four by two sign bits.
        float pick = u0 * (size.x + size.y + size.z);
        int corner = int(u3 * 4.0f);
        float s1 = (corner & 1) != 0 ? 1.0f : -1.0f;
        float s2 = (corner & 2) != 0 ? 1.0f : -1.0f;
        float a = 2.0f * u1 - 1.0f;
        if (pick < size.x) return sdShapeSample(vec3(a * h.x, s1 * h.y, s2 * h.z), up);
        if (pick < size.x + size.y) return sdShapeSample(vec3(s1 * h.x, a * h.y, s2 * h.z), up);
        return sdShapeSample(vec3(s1 * h.x, s2 * h.y, a * h.z), up);
    }
    return sdShapeSample(vec3(2.0f * u0 - 1.0f, 2.0f * u1 - 1.0f, 2.0f * u2 - 1.0f) * h, up);
}

// sphere (upper_half false) and hemisphere (true): direction outward from the centre, uniform
// over the sphere (y >= 0 for the hemisphere); volume radius R cbrt(u) is uniform in the ball.
// The hemisphere's edge is its rim circle in the XZ plane.
SD_FUNC ShapeSample sdSampleBall(SD_IN(EmitterRecord) e, bool upper_half, float u0, float u1,
                                 float u2) {
    float radius = e.shape_radius;
    if (upper_half && e.emit_from == kEmitFromEdge) {
        vec3 d = sdRingDirection(kTwoPi * u0);
        return sdShapeSample(d * radius, d);
    }
    float y = upper_half ? 1.0f - u0 : 1.0f - 2.0f * u0; // (0, 1] or (-1, 1]
    float ring = sqrt(max(1.0f - y * y, 0.0f));
    vec3 flat_dir = sdRingDirection(kTwoPi * u1);
    vec3 d = vec3(flat_dir.x * ring, y, flat_dir.z * ring);
    float r = e.emit_from == kEmitFromShell ? radius : radius * min(sdCbrt(u2), 1.0f);
    return sdShapeSample(d * r, d);
}

// cone: a frustum with base disc shape_radius (a) at the origin in XZ, height shape_length along
// +Y, half angle shape_angle_rad, so the top radius is b = a + length tan(angle). Volume: height
// drawn by the inverse CDF of the disc area (rho^3 uniform), then uniform in that disc; shell:
// height by the lateral area (rho^2 uniform); edge: the base rim. The azimuth covers the arc
// shape_size.w. Direction: +Y tilted outward by angle * (r / rho), which is the design's
// angle * (r_base / radius) carried along the generatrix (straight up on the axis, the full
// angle on the lateral surface and the rim).
SD_FUNC ShapeSample sdSampleCone(SD_IN(EmitterRecord) e, float u0, float u1, float u2) {
    float a = e.shape_radius;
    float height = e.shape_length;
    float sin_angle;
    float cos_angle;
    sdSinCos(e.shape_angle_rad, sin_angle, cos_angle);
    float b = a + height * (sin_angle / cos_angle);
    bool flared = (b - a) > kMinConeFlare * b;
    float t = 0.0f; // height fraction
    if (e.emit_from == kEmitFromVolume) {
        float a3 = a * a * a;
        float rho = sdCbrt(a3 + u0 * (b * b * b - a3));
        t = flared ? (rho - a) / (b - a) : u0;
    } else if (e.emit_from == kEmitFromShell) {
        float a2 = a * a;
        float rho = sqrt(a2 + u0 * (b * b - a2));
        t = flared ? (rho - a) / (b - a) : u0;
    }
    t = clamp(t, 0.0f, 1.0f);
    float rho_t = a + (b - a) * t;
    float r = e.emit_from == kEmitFromVolume ? rho_t * sqrt(u1) : rho_t;
    vec3 radial = sdRingDirection(e.shape_size.w * u2);
    float tilt_fraction = rho_t > 0.0f ? min(r / rho_t, 1.0f) : 0.0f;
    float ts;
    float tc;
    sdSinCos(e.shape_angle_rad * tilt_fraction, ts, tc);
    vec3 position = vec3(radial.x * r, t * height, radial.z * r);
    return sdShapeSample(position, vec3(radial.x * ts, tc, radial.z * ts));
}

// circle: in XZ over the arc shape_size.w; volume: the disc (r = R sqrt(u), uniform in area);
// edge: the circumference. Direction radial.
SD_FUNC ShapeSample sdSampleCircle(SD_IN(EmitterRecord) e, float u0, float u1) {
    vec3 radial = sdRingDirection(e.shape_size.w * u0);
    float r = e.emit_from == kEmitFromEdge ? e.shape_radius : e.shape_radius * sqrt(u1);
    return sdShapeSample(radial * r, radial);
}

// torus: ring of shape_radius in XZ over the arc shape_size.w, tube of shape_tube_radius.
// Uniform in the ring angle and the tube angle (and in the tube's cross-section area for volume);
// not weighted by the ring's larger outer circumference. Direction outward from the tube's
// centre line.
SD_FUNC ShapeSample sdSampleTorus(SD_IN(EmitterRecord) e, float u0, float u1, float u2) {
    vec3 radial = sdRingDirection(e.shape_size.w * u0);
    float s;
    float c;
    sdSinCos(kTwoPi * u1, s, c);
    vec3 n = radial * c + vec3(0.0f, s, 0.0f);
    float r = e.emit_from == kEmitFromShell ? e.shape_tube_radius : e.shape_tube_radius * sqrt(u2);
    return sdShapeSample(radial * e.shape_radius + n * r, n);
}

// The sample for every shape kind but mesh (see the note at the top), with randomize_direction
// applied. Unknown kinds (never produced by the compiler) give the origin and +Y.
SD_FUNC ShapeSample sdSampleShape(SD_IN(EmitterRecord) e, uint key) {
    float u0 = sdRandom01(key, kDrawShape0);
    float u1 = sdRandom01(key, kDrawShape1);
    float u2 = sdRandom01(key, kDrawShape2);
    float u3 = sdRandom01(key, kDrawShape3);
    vec3 random_dir = sdRandomUnitVector(key, kDrawDirection0);
    ShapeSample s = sdShapeSample(vec3(0.0f), vec3(0.0f, 1.0f, 0.0f));
    uint kind = e.shape_kind;
    if (kind == kShapePoint)
        s = sdShapeSample(vec3(0.0f), random_dir);
    else if (kind == kShapeLine)
        s = sdSampleLine(e, u0);
    else if (kind == kShapeBox)
        s = sdSampleBox(e, u0, u1, u2, u3);
    else if (kind == kShapeSphere)
        s = sdSampleBall(e, false, u0, u1, u2);
    else if (kind == kShapeHemisphere)
        s = sdSampleBall(e, true, u0, u1, u2);
    else if (kind == kShapeCone)
        s = sdSampleCone(e, u0, u1, u2);
    else if (kind == kShapeCircle)
        s = sdSampleCircle(e, u0, u1);
    else if (kind == kShapeTorus)
        s = sdSampleTorus(e, u0, u1, u2);
    s.direction = sdRandomizeDirection(s.direction, random_dir, e.randomize_direction);
    return s;
}

// Which mesh point a particle is born at: uniform over 0..mesh_point_count - 1 (relative to
// mesh_point_first; bias below count / 2^24). 0 when the emitter has no points.
SD_FUNC uint sdMeshPointIndex(SD_IN(EmitterRecord) e, uint key) {
    uint count = e.mesh_point_count;
    uint pick = uint(int(sdRandom01(key, kDrawShape0) * float(int(count))));
    return count > 0u ? min(pick, count - 1u) : 0u;
}

// The sample at a fetched mesh point: its position, its (unit) normal as the direction, with
// randomize_direction applied.
SD_FUNC ShapeSample sdMeshShapeSample(SD_IN(EmitterRecord) e, uint key, vec4 point_position,
                                      vec4 point_normal) {
    vec3 random_dir = sdRandomUnitVector(key, kDrawDirection0);
    vec3 direction = sdRandomizeDirection(vec3(point_normal), random_dir, e.randomize_direction);
    return sdShapeSample(vec3(point_position), direction);
}

// The emitter's shape sampled for the particle with this key: a mesh surface's point read through
// mesh_points (the effect's points; only a mesh emitter reads it), any other shape analytically.
SD_FUNC ShapeSample sdSampleEmitterShape(SD_IN(EmitterRecord) e, uint key,
                                         MeshPointsRef mesh_points) {
    if (e.shape_kind != kShapeMesh) return sdSampleShape(e, key);
    MeshPointRecord point = mesh_points.points[e.mesh_point_first + sdMeshPointIndex(e, key)];
    return sdMeshShapeSample(e, key, point.position, point.normal);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_SHAPE_H
