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

// The contact with a ColliderRecord (kCollider*); unknown kinds never touch.
SD_FUNC CollisionContact sdColliderContact(ColliderRecord c, vec3 p, float radius) {
    if (c.kind == kColliderPlane)
        return sdContactPlane(vec3(c.position), vec3(c.extent), p, radius);
    if (c.kind == kColliderSphere)
        return sdContactSphere(vec3(c.position), c.radius, (c.flags & kColliderFlagInside) != 0u, p,
                               radius);
    if (c.kind == kColliderBox) return sdContactBox(vec3(c.position), vec3(c.extent), p, radius);
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
SD_FUNC CollisionResult sdCollide(ColliderRecord collider, uint response, float bounce,
                                  float friction, vec3 p, vec3 v, float radius) {
    return sdRespond(sdColliderContact(collider, p, radius), response, bounce, friction, p, v);
}

// The lifetime after one contact: lifetime_loss is the fraction of the (current) lifetime
// removed, so loss 1 makes the particle die at the end of this step.
SD_FUNC float sdLifetimeAfterContact(float lifetime_s, float lifetime_loss) {
    return lifetime_s * (1.0f - lifetime_loss);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_COLLISION_H
