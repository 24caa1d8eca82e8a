#include "runtime/world_scalability.h"

#include <algorithm>
#include <cmath>

#include "runtime/transform_rows.h"

namespace spindrift {

namespace {

constexpr uint64_t kNoCell = ~uint64_t{0};

// Cells far past any reachable coordinate are clamped: positions are finite (checked by the
// world) but may be huge.
int32_t cellIndex(float v) {
    const double c = std::floor(static_cast<double>(v) / static_cast<double>(kSpatialCellMetres));
    return static_cast<int32_t>(std::clamp(c, -1e9, 1e9));
}

uint64_t cellKey(int32_t cx, int32_t cz) {
    return (uint64_t{static_cast<uint32_t>(cx)} << 32) | uint64_t{static_cast<uint32_t>(cz)};
}

vec3 toVec3(const Vec3& v) {
    return vec3(v.x, v.y, v.z);
}

} // namespace

void SpatialBuckets::place(uint32_t slot, const Vec3& position) {
    const uint64_t key = cellKey(cellIndex(position.x), cellIndex(position.z));
    if (slot >= cell_of_.size()) cell_of_.resize(size_t{slot} + 1, kNoCell);
    if (cell_of_[slot] == key) return;
    remove(slot);
    cells_[key].push_back(slot);
    cell_of_[slot] = key;
}

void SpatialBuckets::remove(uint32_t slot) {
    if (slot >= cell_of_.size() || cell_of_[slot] == kNoCell) return;
    auto it = cells_.find(cell_of_[slot]);
    if (it != cells_.end()) {
        std::vector<uint32_t>& list = it->second;
        const auto at = std::find(list.begin(), list.end(), slot);
        if (at != list.end()) {
            *at = list.back();
            list.pop_back();
        }
        if (list.empty()) cells_.erase(it);
    }
    cell_of_[slot] = kNoCell;
}

bool SpatialBuckets::contains(uint32_t slot) const {
    return slot < cell_of_.size() && cell_of_[slot] != kNoCell;
}

void SpatialBuckets::gather(const Vec3& center, float radius, std::vector<uint32_t>& out) const {
    if (cells_.empty() || !(radius >= 0)) return;
    const int32_t x0 = cellIndex(center.x - radius), x1 = cellIndex(center.x + radius);
    const int32_t z0 = cellIndex(center.z - radius), z1 = cellIndex(center.z + radius);
    const uint64_t span = uint64_t(int64_t{x1} - x0 + 1) * uint64_t(int64_t{z1} - z0 + 1);
    if (span > cells_.size()) {
        // Fewer cells hold instances than the disc covers: walk those instead.
        for (const auto& [key, list] : cells_) {
            const auto cx = static_cast<int32_t>(static_cast<uint32_t>(key >> 32));
            const auto cz = static_cast<int32_t>(static_cast<uint32_t>(key));
            if (cx < x0 || cx > x1 || cz < z0 || cz > z1) continue;
            out.insert(out.end(), list.begin(), list.end());
        }
        return;
    }
    for (int32_t cx = x0; cx <= x1; ++cx) {
        for (int32_t cz = z0; cz <= z1; ++cz) {
            const auto it = cells_.find(cellKey(cx, cz));
            if (it != cells_.end()) out.insert(out.end(), it->second.begin(), it->second.end());
        }
    }
}

CullFrustum cullFrustumOf(const DrawView& view) {
    const vec3 eye = toVec3(view.eye);
    const vec3 f = normalize(toVec3(view.forward));
    const vec3 r = normalize(cross(f, toVec3(view.up)));
    const vec3 u = cross(r, f);
    const float half_y = std::tan(view.fov_y_deg * 0.5f * 3.14159265358979f / 180.0f);
    const float half_x = half_y * view.aspect;
    auto plane = [&](const vec3& n) { return vec4(n, -dot(n, eye)); };
    CullFrustum c;
    c.planes[0] = vec4(f, -dot(f, eye) - view.near_m); // near
    c.planes[1] = vec4(-f, dot(f, eye) + view.far_m);  // far
    // Side planes through the eye; normals point inwards.
    c.planes[2] = plane(normalize(r + f * half_x));  // left: r + f*tan
    c.planes[3] = plane(normalize(-r + f * half_x)); // right
    c.planes[4] = plane(normalize(u + f * half_y));  // bottom
    c.planes[5] = plane(normalize(-u + f * half_y)); // top
    return c;
}

bool sphereOutside(const CullFrustum& frustum, const vec3& center, float radius) {
    for (const vec4& p : frustum.planes) {
        if (dot(vec3(p), center) + p.w < -radius) return true;
    }
    return false;
}

BoundingSphere instanceSphere(const vec4& bounds_center, const vec4& bounds_half_extents,
                              const Rows3x4& rows) {
    const vec4 c(vec3(bounds_center), 1.0f);
    BoundingSphere s;
    s.center = vec3(dot(rows.rows[0], c), dot(rows.rows[1], c), dot(rows.rows[2], c));
    // The longest axis the rows stretch by: the largest column length of their 3x3 part (for a
    // transform, translate * rotate * scale, its largest |scale|).
    float scale = 0;
    for (int j = 0; j < 3; ++j) {
        const vec3 column(rows.rows[0][j], rows.rows[1][j], rows.rows[2][j]);
        scale = std::max(scale, length(column));
    }
    s.radius = length(vec3(bounds_half_extents)) * scale;
    return s;
}

BoundingSphere instanceSphere(const vec4& bounds_center, const vec4& bounds_half_extents,
                              const InstanceTransform& transform) {
    return instanceSphere(bounds_center, bounds_half_extents, rowsOf(transform));
}

float birthFade(float distance, float sleep_distance_m, float fade_band_m) {
    if (!(sleep_distance_m > 0) || !(fade_band_m > 0)) return 1.0f;
    return std::clamp((sleep_distance_m - distance) / fade_band_m, 0.0f, 1.0f);
}

uint32_t applyBudgets(std::span<BudgetCandidate> candidates, const WorldBudgets& budgets) {
    uint64_t awake = candidates.size();
    uint64_t live = 0;
    for (const BudgetCandidate& c : candidates) live += c.live;
    auto over = [&] {
        return (budgets.max_awake_instances != 0 && awake > budgets.max_awake_instances) ||
               (budgets.max_live_particles != 0 && live > budgets.max_live_particles);
    };
    if (!over()) return 0;
    std::vector<BudgetCandidate*> order;
    order.reserve(candidates.size());
    for (BudgetCandidate& c : candidates)
        if (!c.important) order.push_back(&c);
    std::sort(order.begin(), order.end(), [](const BudgetCandidate* a, const BudgetCandidate* b) {
        if (a->distance != b->distance) return a->distance > b->distance;
        return a->slot > b->slot;
    });
    uint32_t slept = 0;
    for (BudgetCandidate* c : order) {
        if (!over()) break;
        c->asleep = true;
        awake -= 1;
        live -= c->live;
        slept += 1;
    }
    return slept;
}

} // namespace spindrift
