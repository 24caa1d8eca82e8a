// What a World does to stay within its means (include/spindrift/runtime.h, "Scalability";
// docs/runtime-api.md): the rules that decide, once per update, which instances sleep, how far
// their births have faded and which are out of view, as free functions over plain data. The
// world keeps the per-instance state; these keep the rules in one place and testable alone.
//
// - Spatial buckets: instances that sleep by distance live in 32 m cells of the ground plane
//   (x, z). An update looks only at the cells within reach of the camera; an instance in any
//   other cell is asleep without being looked at, so a frame's cost follows what is near.
// - Distance: past its effect's sleep distance an instance sleeps; inside the fade band its
//   births fade linearly to none at the sleep distance.
// - Culling: an instance whose bounds (a sphere around the effect's authored box, placed by the
//   instance's transform) lie wholly outside the cull view's frustum is culled: hidden, and asleep
//   if its effect says so.
// - Budgets: past the world's live-particle or awake-instance budget, the farthest awake
//   instances that are not important sleep first; an important one never does.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "driver/placement.h"
#include "kernels/sd_math.h"
#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

namespace spindrift {

// The ground-plane grid of instances that sleep by distance.
class SpatialBuckets {
public:
    // Puts slot `slot` in the cell of `position` (moving it if it was elsewhere).
    void place(uint32_t slot, const Vec3& position);
    void remove(uint32_t slot);
    bool contains(uint32_t slot) const;
    // Appends the slots of every cell that overlaps the disc of `radius` around `center` (x, z):
    // a superset of the slots within radius, in no particular order.
    void gather(const Vec3& center, float radius, std::vector<uint32_t>& out) const;
    size_t cellCount() const { return cells_.size(); }

private:
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells_;
    std::vector<uint64_t> cell_of_; // per slot; kNoCell when not placed
};

// The six inward planes of a view's frustum (xyz normal, w offset: inside when dot + w >= 0).
struct CullFrustum {
    vec4 planes[6];
};
// From a view drawViewProblem accepts.
CullFrustum cullFrustumOf(const DrawView& view);
// Whether the sphere lies wholly outside the frustum.
bool sphereOutside(const CullFrustum& frustum, const vec3& center, float radius);

// The instance's bounding sphere in world space: the effect's authored box (effect space) placed
// by the transform; the radius scaled by the largest axis scale.
struct BoundingSphere {
    vec3 center{0.0f};
    float radius = 0;
};
BoundingSphere instanceSphere(const vec4& bounds_center, const vec4& bounds_half_extents,
                              const Rows3x4& world_from_effect);
BoundingSphere instanceSphere(const vec4& bounds_center, const vec4& bounds_half_extents,
                              const InstanceTransform& transform);

// Births at `distance` from the camera: 1 inside the fade band's near edge, falling linearly to
// 0 at sleep_distance_m (no band: 1 up to the sleep distance). sleep_distance_m 0: always 1.
float birthFade(float distance, float sleep_distance_m, float fade_band_m);

// One awake instance as the budgets see it.
struct BudgetCandidate {
    uint32_t slot = 0;
    float distance = 0;
    uint64_t live = 0;
    bool important = false;
    bool asleep = false; // set by applyBudgets
};
// Puts the farthest non-important candidates to sleep until the awake ones fit both budgets
// (0: no budget); ties go by slot, the later first. Returns how many it put to sleep.
uint32_t applyBudgets(std::span<BudgetCandidate> candidates, const WorldBudgets& budgets);

} // namespace spindrift
