// Collision of a particle with one world-space collider (docs/effect-format.md, "collision").
// The particle is a sphere of radius size * radius_scale at its position AFTER the step's move.
// On contact it is pushed out along the contact normal to touch the surface, and the response
// is applied: bounce reflects the approaching normal velocity scaled by `bounce` and scales the
// tangential part by (1 - friction); stick zeroes the velocity; kill sets the kill flag.
// A particle moving away from the surface (or resting on it) keeps its velocity. A contact is
// reported whatever the response (lifetime_loss and collision events are the caller's, through
// sdLifetimeAfterContact). The caller applies the colliders of an op in order.
//
// Collision is a surface test at the end of the step, not a swept test: a particle that crosses
// a thin collider (a sphere smaller than its step) within one step is not caught.
#ifndef SPINDRIFT_KERNELS_COLLISION_H
#define SPINDRIFT_KERNELS_COLLISION_H

#include "effect_records.h"
#include "shared_types.h"
#include "transform.h"

SD_BEGIN_NAMESPACE

// The effect's colliders as kernels read them: colliders[i] (SD_READONLY_REF).
SD_READONLY_REF(CollidersRef, ColliderRecord, colliders, 16);

struct CollisionContact {
    bool hit;
    vec3 normal; // unit, pointing to where the particle is allowed to be
    float depth; // how far to push along normal, >= 0
};

SD_FUNC CollisionContact sdContact(bool hit, vec3 normal, float depth) {
    CollisionContact c;
    c.hit = hit;
    c.normal = normal;
    c.depth = hit ? depth : 0.0f;
    return c;
}

// Plane through `point` with unit `normal`; particles live on the side the normal points to.
SD_FUNC CollisionContact sdContactPlane(vec3 point, vec3 normal, vec3 p, float radius) {
    float s = dot(p - point, normal) - radius;
    return sdContact(s < 0.0f, normal, -s);
}

// Sphere: outside (inside false) keeps particles out of the ball, inside keeps them in it.
// A particle exactly at the centre is pushed along +Y (outside) or is in contact only when the
// particle is larger than the sphere (inside).
SD_FUNC CollisionContact sdContactSphere(vec3 center, float sphere_radius, bool inside, vec3 p,
                                         float radius) {
    vec3 rel = p - center;
    float d = length(rel);
    vec3 out_dir = d > 0.0f ? rel / max(d, 1.0e-30f) : vec3(0.0f, 1.0f, 0.0f);
    if (inside) {
        float limit = max(sphere_radius - radius, 0.0f);
        return sdContact(d > limit, -out_dir, d - limit);
    }
    float limit = sphere_radius + radius;
    return sdContact(d < limit, out_dir, limit - d);
}

// Solid axis-aligned box (particles kept outside). From outside: the normal runs from the
// closest point of the box; with the centre inside the box: out through the nearest face.
SD_FUNC CollisionContact sdContactBox(vec3 center, vec3 half_extents, vec3 p, float radius) {
    vec3 q = p - center;
    vec3 closest = clamp(q, -half_extents, half_extents);
    vec3 delta = q - closest;
    float dist = length(delta);
    if (dist > 0.0f) return sdContact(dist < radius, delta / dist, radius - dist);
    vec3 room = half_extents - abs(q); // distance to each face pair, >= 0
    vec3 n = vec3(q.x < 0.0f ? -1.0f : 1.0f, 0.0f, 0.0f);
    float depth = room.x;
    if (room.y < depth) {
        n = vec3(0.0f, q.y < 0.0f ? -1.0f : 1.0f, 0.0f);
        depth = room.y;
    }
    if (room.z < depth) {
        n = vec3(0.0f, 0.0f, q.z < 0.0f ? -1.0f : 1.0f);
        depth = room.z;
    }
    return sdContact(true, n, depth + radius);
}

// A point in the collider's frame (axis_u, axis_v, cross(axis_u, axis_v)) around its position.
SD_FUNC vec3 sdColliderLocal(ColliderRecord c, vec3 p) {
    vec3 d = p - vec3(c.position);
    vec3 w = cross(vec3(c.axis_u), vec3(c.axis_v));
    return vec3(dot(d, vec3(c.axis_u)), dot(d, vec3(c.axis_v)), dot(d, w));
}

// A direction of the collider's frame back in the space of its position.
SD_FUNC vec3 sdColliderWorldDirection(ColliderRecord c, vec3 n) {
    vec3 w = cross(vec3(c.axis_u), vec3(c.axis_v));
    return vec3(c.axis_u) * n.x + vec3(c.axis_v) * n.y + w * n.z;
}

// Solid box of any orientation: the axis-aligned test in the box's frame.
SD_FUNC CollisionContact sdContactOrientedBox(ColliderRecord c, vec3 p, float radius) {
    CollisionContact local =
        sdContactBox(vec3(0.0f), vec3(c.extent), sdColliderLocal(c, p), radius);
    return sdContact(local.hit, sdColliderWorldDirection(c, local.normal), local.depth);
}

// Solid capsule: a sphere of c.radius around the nearest point of the segment of half length
// extent.x along axis_v.
SD_FUNC CollisionContact sdContactCapsule(ColliderRecord c, vec3 p, float radius) {
    float along = clamp(dot(p - vec3(c.position), vec3(c.axis_v)), -c.extent.x, c.extent.x);
    return sdContactSphere(vec3(c.position) + vec3(c.axis_v) * along, c.radius, false, p, radius);
}

// Solid capped cylinder of radius c.radius and half height extent.x along axis_v: the box test
// in the plane of the axis and the particle (radial distance, height).
SD_FUNC CollisionContact sdContactCylinder(ColliderRecord c, vec3 p, float radius) {
    vec3 q = sdColliderLocal(c, p);
    float rho = length(vec2(q.x, q.z));
    vec2 radial = rho > 0.0f ? vec2(q.x, q.z) / max(rho, 1.0e-30f) : vec2(1.0f, 0.0f);
    vec2 half_size = vec2(c.radius, c.extent.x);
    vec2 r2 = vec2(rho, q.y);
    vec2 delta = r2 - vec2(min(rho, half_size.x), clamp(q.y, -half_size.y, half_size.y));
    float dist = length(delta);
    vec2 n2 = vec2(0.0f, 1.0f);
    float depth = 0.0f;
    bool hit = true;
    if (dist > 0.0f) {
        n2 = delta / dist;
        depth = radius - dist;
        hit = dist < radius;
    } else {
        float side = half_size.x - rho;
        float cap = half_size.y - abs(q.y);
        n2 = side < cap ? vec2(1.0f, 0.0f) : vec2(0.0f, q.y < 0.0f ? -1.0f : 1.0f);
        depth = min(side, cap) + radius;
    }
    vec3 n = vec3(radial.x * n2.x, n2.y, radial.y * n2.x);
    return sdContact(hit, sdColliderWorldDirection(c, n), depth);
}

// Sample k of the heightfield whose record is colliders[index]: its payload records hold the
// samples row by row (x fastest), 16 floats each, in position, extent, axis_u, axis_v order.
SD_FUNC float sdHeightSample(CollidersRef colliders, uint index, uint k) {
    ColliderRecord r = colliders.colliders[index + 1u + k / 16u];
    uint part = (k % 16u) / 4u;
    vec4 v = part == 0u ? r.position : (part == 1u ? r.extent : (part == 2u ? r.axis_u : r.axis_v));
    return v[k % 4u];
}

// Heightfield: a grid of heights (bilinear between samples) over the plane of axis_u and
// cross(axis_u, axis_v), height along axis_v; particles are kept above it. Outside the grid
// nothing touches. The normal is the surface's (from the bilinear slopes); the push is along it
// by the vertical overlap times the normal's height component.
SD_FUNC CollisionContact sdContactHeightfield(CollidersRef colliders, uint index, vec3 p,
                                              float radius) {
    ColliderRecord c = colliders.colliders[index];
    vec3 q = sdColliderLocal(c, p);
    uint columns = uint(c.extent.z);
    uint rows = uint(c.extent.w);
    float gx = q.x / c.extent.x;
    float gz = q.z / c.extent.y;
    bool inside = gx >= 0.0f && gz >= 0.0f && gx <= float(columns - 1u) && gz <= float(rows - 1u);
    if (!inside || columns < 2u || rows < 2u) return sdContact(false, vec3(0.0f, 1.0f, 0.0f), 0.0f);
    uint x0 = min(uint(gx), columns - 2u);
    uint z0 = min(uint(gz), rows - 2u);
    float fx = gx - float(x0);
    float fz = gz - float(z0);
    float h00 = sdHeightSample(colliders, index, z0 * columns + x0);
    float h10 = sdHeightSample(colliders, index, z0 * columns + x0 + 1u);
    float h01 = sdHeightSample(colliders, index, (z0 + 1u) * columns + x0);
    float h11 = sdHeightSample(colliders, index, (z0 + 1u) * columns + x0 + 1u);
    float h0 = h00 + (h10 - h00) * fx;
    float h1 = h01 + (h11 - h01) * fx;
    float h = h0 + (h1 - h0) * fz;
    float dhdx = ((h10 - h00) + ((h11 - h01) - (h10 - h00)) * fz) / c.extent.x;
    float dhdz = (h1 - h0) / c.extent.y;
    vec3 n = normalize(vec3(-dhdx, 1.0f, -dhdz));
    float overlap = h + radius - q.y;
    return sdContact(overlap > 0.0f, sdColliderWorldDirection(c, n), overlap * n.y);
}

// The scene depth (kColliderSceneDepth): the linear depth of the opaque scene as a camera saw it,
// width x height floats row by row from the top (metres along the camera's forward axis;
// kSceneDepthNone where the camera saw no surface), at a host pointer (CPU) or a buffer device
// address (GPU). Its records:
//   colliders[index]:     kind kColliderSceneDepth, radius = thickness (m), payload = 1;
//                         position = eye (xyz), tan_x; extent = forward (xyz, unit), tan_y;
//                         axis_u = right (xyz, unit), width; axis_v = up (xyz, unit), height
//                         (tan_x, tan_y: the view's half extents per metre of depth)
//   colliders[index + 1]: kind kColliderPayload, flags and payload = the samples' address (low,
//                         high word), radius = the camera's near plane (m); position, extent and
//                         axis_u = world_from_sim rows (the particle's space into the camera's)
#ifdef __cplusplus
SD_FUNC float sdSceneDepthLoad(uint address_low, uint address_high, uint index) {
    const uintptr_t address = static_cast<uintptr_t>((uint64_t{address_high} << 32) | address_low);
    return reinterpret_cast<const float*>(address)[index];
}
#else
SD_READONLY_REF(SceneDepthSamplesRef, float, samples, 4);
float sdSceneDepthLoad(uint address_low, uint address_high, uint index) {
    return SceneDepthSamplesRef(uvec2(address_low, address_high)).samples[index];
}
#endif

struct SceneDepthView {
    vec3 eye;
    vec3 forward;
    vec3 right;
    vec3 up;
    float tan_x;
    float tan_y;
    uint width;
    uint height;
    uint address_low;
    uint address_high;
};

SD_FUNC float sdSceneDepthAt(SceneDepthView v, uint x, uint y) {
    return sdSceneDepthLoad(v.address_low, v.address_high, y * v.width + x);
}

// The point a pixel's centre sees at linear depth `depth`.
SD_FUNC vec3 sdSceneDepthPoint(SceneDepthView v, uint x, uint y, float depth) {
    float ndc_x = (float(x) + 0.5f) / float(v.width) * 2.0f - 1.0f;
    float ndc_y = (float(y) + 0.5f) / float(v.height) * 2.0f - 1.0f;
    vec3 ray = v.forward + v.right * (ndc_x * v.tan_x) - v.up * (ndc_y * v.tan_y);
    return v.eye + ray * depth;
}

// Whether pixel (x + dx, y + dy) is in the image and has a surface; its depth in `depth`.
SD_FUNC bool sdSceneDepthNeighbour(SceneDepthView v, uint x, uint y, int dx, int dy,
                                   SD_OUT(float) depth) {
    int nx = int(x) + dx;
    int ny = int(y) + dy;
    depth = kSceneDepthNone;
    if (nx < 0 || ny < 0 || nx >= int(v.width) || ny >= int(v.height)) return false;
    depth = sdSceneDepthAt(v, uint(nx), uint(ny));
    return depth < kSceneDepthNone * 0.5f;
}

// The step along one image axis to the neighbour whose depth is closer to `depth` (the same
// surface, not across a silhouette): the point difference in the +axis direction, or zero.
SD_FUNC vec3 sdSceneDepthTangent(SceneDepthView v, uint x, uint y, float depth, int dx, int dy) {
    float before;
    float after;
    bool has_before = sdSceneDepthNeighbour(v, x, y, -dx, -dy, before);
    bool has_after = sdSceneDepthNeighbour(v, x, y, dx, dy, after);
    vec3 here = sdSceneDepthPoint(v, x, y, depth);
    bool take_after = has_after && (!has_before || abs(after - depth) <= abs(before - depth));
    if (take_after) return sdSceneDepthPoint(v, uint(int(x) + dx), uint(int(y) + dy), after) - here;
    if (has_before)
        return here - sdSceneDepthPoint(v, uint(int(x) - dx), uint(int(y) - dy), before);
    return vec3(0.0f);
}

// Scene depth: the particle, seen by the depth's camera, meets the surface at its pixel. The
// surface is the plane through the point the pixel's centre sees (exact for a flat surface
// wherever the particle falls in the pixel), its normal from the depth's gradient (the neighbours
// on the same side of a silhouette; facing the camera where the pixel has none). A particle in
// front of the surface by less than its radius, or behind it by at most the thickness, is in
// contact and pushed out along the normal; one further behind is hidden by the surface, not in it,
// and passes. Outside the camera's view, in front of its near plane, or where it saw no surface,
// nothing touches: the depth knows only what the camera saw. The contact comes back in simulation
// space (the normal through the transpose of world_from_sim's linear part, the push scaled to
// match).
SD_FUNC CollisionContact sdContactSceneDepth(CollidersRef colliders, uint index, vec3 p_sim,
                                             float radius) {
    ColliderRecord c = colliders.colliders[index];
    ColliderRecord t = colliders.colliders[index + 1u];
    CollisionContact none = sdContact(false, vec3(0.0f, 1.0f, 0.0f), 0.0f);
    SceneDepthView v;
    v.eye = vec3(c.position);
    v.forward = vec3(c.extent);
    v.right = vec3(c.axis_u);
    v.up = vec3(c.axis_v);
    v.tan_x = c.position.w;
    v.tan_y = c.extent.w;
    v.width = uint(c.axis_u.w);
    v.height = uint(c.axis_v.w);
    v.address_low = t.flags;
    v.address_high = t.payload;
    vec3 p = sdTransformPoint(t.position, t.extent, t.axis_u, p_sim);
    vec3 d = p - v.eye;
    float z = dot(d, v.forward);
    if (!(z > t.radius) || v.width == 0u || v.height == 0u) return none;
    float ndc_x = dot(d, v.right) / (z * v.tan_x);
    float ndc_y = -dot(d, v.up) / (z * v.tan_y);
    if (!(abs(ndc_x) < 1.0f) || !(abs(ndc_y) < 1.0f)) return none;
    uint x = min(uint((ndc_x * 0.5f + 0.5f) * float(v.width)), v.width - 1u);
    uint y = min(uint((ndc_y * 0.5f + 0.5f) * float(v.height)), v.height - 1u);
    float depth = sdSceneDepthAt(v, x, y);
    if (!(depth < kSceneDepthNone * 0.5f)) return none;
    vec3 surface = sdSceneDepthPoint(v, x, y, depth);
    vec3 normal =
        cross(sdSceneDepthTangent(v, x, y, depth, 0, 1), sdSceneDepthTangent(v, x, y, depth, 1, 0));
    float normal_length = length(normal);
    normal = normal_length > 0.0f ? normal / normal_length : -d / length(d);
    if (dot(normal, d) > 0.0f) normal = -normal; // towards the camera
    float above = dot(p - surface, normal);      // metres in front of the surface
    if (above < -c.radius) return none;          // hidden behind it
    vec3 m = sdInverseTransformVector(t.position, t.extent, t.axis_u, normal); // L^T n
    float m_length = length(m);
    if (!(m_length > 0.0f)) return none;
    float above_sim = above / m_length;
    return sdContact(above_sim < radius, m / m_length, radius - above_sim);
}

// The contact with colliders[index] (kCollider*); unknown kinds and payload never touch.
SD_FUNC CollisionContact sdColliderContact(CollidersRef colliders, uint index, vec3 p,
                                           float radius) {
    // The authored kinds read only the fields they use: no copy of the whole record on the
    // per-particle path (the CPU's hot loop).
    uint kind = colliders.colliders[index].kind;
    vec3 position = vec3(colliders.colliders[index].position);
    if (kind == kColliderPlane)
        return sdContactPlane(position, vec3(colliders.colliders[index].extent), p, radius);
    if (kind == kColliderSphere)
        return sdContactSphere(position, colliders.colliders[index].radius,
                               (colliders.colliders[index].flags & kColliderFlagInside) != 0u, p,
                               radius);
    if (kind == kColliderBox)
        return sdContactBox(position, vec3(colliders.colliders[index].extent), p, radius);
    if (kind == kColliderOrientedBox)
        return sdContactOrientedBox(colliders.colliders[index], p, radius);
    if (kind == kColliderCapsule) return sdContactCapsule(colliders.colliders[index], p, radius);
    if (kind == kColliderCylinder) return sdContactCylinder(colliders.colliders[index], p, radius);
    if (kind == kColliderHeightfield) return sdContactHeightfield(colliders, index, p, radius);
    if (kind == kColliderSceneDepth) return sdContactSceneDepth(colliders, index, p, radius);
    return sdContact(false, vec3(0.0f, 1.0f, 0.0f), 0.0f);
}

struct CollisionResult {
    vec3 position;
    vec3 velocity;
    vec3 normal; // the contact normal (unit), meaningful only with a contact
    bool contact;
    bool kill; // response kill and a contact
};

// The response to a contact (kResponse*; bounce and friction in [0, 1]).
SD_FUNC CollisionResult sdRespond(CollisionContact c, uint response, float bounce, float friction,
                                  vec3 p, vec3 v) {
    CollisionResult r;
    r.contact = c.hit;
    r.kill = c.hit && response == kResponseKill;
    r.normal = c.normal;
    r.position = p + c.normal * c.depth; // depth is 0 without a contact
    float vn = dot(v, c.normal);
    vec3 normal_part = c.normal * vn;
    vec3 tangent_part = v - normal_part;
    vec3 bounced = tangent_part * (1.0f - friction) - normal_part * bounce;
    vec3 responded = response == kResponseStick
                         ? vec3(0.0f)
                         : (response == kResponseBounce && vn < 0.0f ? bounced : v);
    r.velocity = c.hit ? responded : v;
    return r;
}

// One collider: contact test and response.
SD_FUNC CollisionResult sdCollide(CollidersRef colliders, uint index, uint response, float bounce,
                                  float friction, vec3 p, vec3 v, float radius) {
    return sdRespond(sdColliderContact(colliders, index, p, radius), response, bounce, friction, p,
                     v);
}

// The lifetime after one contact: lifetime_loss is the fraction of the (current) lifetime
// removed, so loss 1 makes the particle die at the end of this step.
SD_FUNC float sdLifetimeAfterContact(float lifetime_s, float lifetime_loss) {
    return lifetime_s * (1.0f - lifetime_loss);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_COLLISION_H
