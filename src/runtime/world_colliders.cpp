#include "runtime/world_colliders.h"

#include <cmath>

#include "runtime/transform_rows.h"

namespace spindrift {
namespace {

static_assert(kAllCollisionGroups == kAllCollisionGroupsMask);
static_assert(kMaxHeightfieldSide * kMaxHeightfieldSide == kMaxHeightfieldSamples);

constexpr uint32_t kSamplesPerRecord = 16;

bool finite(float v) {
    return std::isfinite(v);
}

bool positive(float v) {
    return std::isfinite(v) && v > 0;
}

// The collider's frame: rotation's x and y axes (its z is their cross product in the kernels).
void setFrame(const WorldCollider& c, ColliderRecord& r) {
    InstanceTransform t;
    t.rotation = c.rotation;
    const Rows3x4 m = rowsOf(t);
    r.axis_u = vec4(m.rows[0].x, m.rows[1].x, m.rows[2].x, 0.0f);
    r.axis_v = vec4(m.rows[0].y, m.rows[1].y, m.rows[2].y, 0.0f);
}

// What is wrong with one collider, or empty.
std::string colliderProblem(const WorldCollider& c) {
    if (static_cast<uint32_t>(c.shape) > static_cast<uint32_t>(ColliderShape::heightfield))
        return "shape " + std::to_string(static_cast<uint32_t>(c.shape)) + " is not a shape";
    if (c.groups == 0 || (c.groups & ~kAllCollisionGroups) != 0)
        return "groups must be a non-zero mask of bits 0..23";
    if (!finite(c.position)) return "position is not finite";
    if (std::string problem = rotationProblem(c.rotation); !problem.empty()) return problem;
    switch (c.shape) {
    case ColliderShape::plane:
        return {};
    case ColliderShape::sphere:
        return positive(c.radius) ? std::string() : "radius must be finite and > 0";
    case ColliderShape::box:
        if (!positive(c.half_extents.x) || !positive(c.half_extents.y) ||
            !positive(c.half_extents.z))
            return "half_extents must be finite and > 0";
        return {};
    case ColliderShape::capsule:
        if (!positive(c.radius)) return "radius must be finite and > 0";
        if (!finite(c.half_height) || c.half_height < 0)
            return "half_height must be finite and >= 0";
        return {};
    case ColliderShape::cylinder:
        if (!positive(c.radius)) return "radius must be finite and > 0";
        if (!positive(c.half_height)) return "half_height must be finite and > 0";
        return {};
    case ColliderShape::heightfield:
        if (c.heights == nullptr) return "heights is null";
        if (c.columns < 2 || c.columns > kMaxHeightfieldSide || c.rows < 2 ||
            c.rows > kMaxHeightfieldSide)
            return "columns and rows must each be in 2..64";
        if (!positive(c.cell_size_x) || !positive(c.cell_size_z))
            return "cell sizes must be finite and > 0";
        for (uint32_t k = 0; k < c.columns * c.rows; ++k) {
            if (!finite(c.heights[k])) return "heights[" + std::to_string(k) + "] is not finite";
        }
        return {};
    }
    return {};
}

uint32_t recordsOf(const WorldCollider& c) {
    if (c.shape != ColliderShape::heightfield) return 1;
    return 1 + (c.columns * c.rows + kSamplesPerRecord - 1) / kSamplesPerRecord;
}

void appendRecords(const WorldCollider& c, std::vector<ColliderRecord>& out) {
    ColliderRecord r{};
    r.position = vec4(c.position.x, c.position.y, c.position.z, 0.0f);
    setFrame(c, r);
    switch (c.shape) {
    case ColliderShape::plane:
        r.kind = kColliderPlane;
        r.extent = r.axis_v; // the normal: rotation * +Y
        r.axis_u = vec4(0.0f);
        r.axis_v = vec4(0.0f);
        break;
    case ColliderShape::sphere:
        r.kind = kColliderSphere;
        r.flags = c.inside ? kColliderFlagInside : 0u;
        r.radius = c.radius;
        r.axis_u = vec4(0.0f);
        r.axis_v = vec4(0.0f);
        break;
    case ColliderShape::box:
        r.kind = kColliderOrientedBox;
        r.extent = vec4(c.half_extents.x, c.half_extents.y, c.half_extents.z, 0.0f);
        break;
    case ColliderShape::capsule:
    case ColliderShape::cylinder:
        r.kind = c.shape == ColliderShape::capsule ? kColliderCapsule : kColliderCylinder;
        r.radius = c.radius;
        r.extent = vec4(c.half_height, 0.0f, 0.0f, 0.0f);
        break;
    case ColliderShape::heightfield: {
        r.kind = kColliderHeightfield;
        r.extent = vec4(c.cell_size_x, c.cell_size_z, static_cast<float>(c.columns),
                        static_cast<float>(c.rows));
        r.payload = recordsOf(c) - 1;
        out.push_back(r);
        const uint32_t samples = c.columns * c.rows;
        for (uint32_t first = 0; first < samples; first += kSamplesPerRecord) {
            float v[kSamplesPerRecord] = {};
            for (uint32_t k = 0; k < kSamplesPerRecord && first + k < samples; ++k) {
                v[k] = c.heights[first + k];
            }
            ColliderRecord p{};
            p.kind = kColliderPayload;
            p.position = vec4(v[0], v[1], v[2], v[3]);
            p.extent = vec4(v[4], v[5], v[6], v[7]);
            p.axis_u = vec4(v[8], v[9], v[10], v[11]);
            p.axis_v = vec4(v[12], v[13], v[14], v[15]);
            out.push_back(p);
        }
        return;
    }
    }
    out.push_back(r);
}

} // namespace

bool buildWorldColliders(const WorldCollider* colliders, uint32_t count, WorldInputs& out,
                         std::string& problem) {
    if (count > kMaxWorldColliders) {
        problem = std::to_string(count) + " colliders: a world holds at most " +
                  std::to_string(kMaxWorldColliders);
        return false;
    }
    if (count > 0 && colliders == nullptr) {
        problem = "colliders is null";
        return false;
    }
    uint64_t records = 0;
    for (uint32_t i = 0; i < count; ++i) {
        problem = colliderProblem(colliders[i]);
        if (!problem.empty()) {
            problem = "collider " + std::to_string(i) + ": " + problem;
            return false;
        }
        records += recordsOf(colliders[i]);
    }
    if (records > kMaxWorldColliderRecords) {
        problem = "the colliders take " + std::to_string(records) +
                  " records (a heightfield one per 16 samples, plus one): a world holds at most " +
                  std::to_string(kMaxWorldColliderRecords);
        return false;
    }
    out.colliders.clear();
    out.collider_records.clear();
    for (uint32_t i = 0; i < count; ++i) {
        WorldColliderEntry entry;
        entry.groups = colliders[i].groups;
        entry.first = static_cast<uint32_t>(out.collider_records.size());
        appendRecords(colliders[i], out.collider_records);
        entry.records = static_cast<uint32_t>(out.collider_records.size()) - entry.first;
        out.colliders.push_back(entry);
    }
    return true;
}

std::string attractorProblem(const WorldAttractor& a) {
    if (!finite(a.position)) return "position is not finite";
    if (!finite(a.strength)) return "strength is not finite";
    if (!positive(a.radius)) return "radius must be finite and > 0";
    if (!finite(a.falloff) || a.falloff < 0) return "falloff must be finite and >= 0";
    if (a.groups == 0 || (a.groups & ~kAllCollisionGroups) != 0)
        return "groups must be a non-zero mask of bits 0..23";
    return {};
}

uint32_t selectWorldAttractors(const std::vector<WorldAttractor>& given, const Vec3& camera,
                               WorldInputs& out) {
    static_assert(kActiveAttractors == kActiveWorldAttractors);
    // Partial selection by (distance, index): at most 16 kept, so an insertion into a sorted
    // short list; the host's list is at most kMaxWorldAttractorsGiven.
    struct Kept {
        double d2;
        uint32_t index;
    };
    Kept kept[kActiveWorldAttractors];
    uint32_t count = 0;
    for (uint32_t i = 0; i < given.size(); ++i) {
        const Vec3& p = given[i].position;
        const double dx = double(p.x) - camera.x, dy = double(p.y) - camera.y,
                     dz = double(p.z) - camera.z;
        const Kept k{dx * dx + dy * dy + dz * dz, i};
        if (count == kActiveWorldAttractors && !(k.d2 < kept[count - 1].d2)) continue;
        uint32_t at = count < kActiveWorldAttractors ? count++ : count - 1;
        while (at > 0 && k.d2 < kept[at - 1].d2) {
            kept[at] = kept[at - 1];
            --at;
        }
        kept[at] = k;
    }
    out.attractors.clear();
    for (uint32_t k = 0; k < count; ++k) {
        const WorldAttractor& a = given[kept[k].index];
        WorldAttractorEntry entry;
        entry.field = ForceFieldRecord{};
        entry.field.shape = kForceFieldPoint;
        entry.field.strength = a.strength;
        entry.field.radius = a.radius;
        entry.field.falloff = a.falloff;
        entry.field.position = vec4(a.position.x, a.position.y, a.position.z, 0.0f);
        entry.groups = a.groups;
        out.attractors.push_back(entry);
    }
    return static_cast<uint32_t>(given.size()) - count;
}

float sampleDistanceField(const float position[3], float gradient[3], void* user) {
    const auto* target = static_cast<const DistanceFieldTarget*>(user);
    Vec3 g{0, 1, 0};
    const float d = target->field(Vec3{position[0], position[1], position[2]}, &g, target->user);
    gradient[0] = g.x;
    gradient[1] = g.y;
    gradient[2] = g.z;
    return d;
}

} // namespace spindrift
