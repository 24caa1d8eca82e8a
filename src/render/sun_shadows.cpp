#include "render/sun_shadows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <variant>

#include "render/particle_pass.h"
#include "render/view_globals.h"

namespace spindrift::render {

namespace {

// The practical split's weight of the logarithmic split (Zhang et al. 2006).
constexpr double kLogSplitWeight = 0.75;
// A cascade's radius is rounded up to this many parts of a metre, so float noise in the frustum
// maths cannot change the texel size from frame to frame.
constexpr float kRadiusSteps_per_m = 64.0f;
// The opacity map's smallest half side and depth range (m): one particle still gets a map.
constexpr float kMinOpacityExtent_m = 0.05f;

vec3 toVec3(const Float3& f) {
    return vec3(f.x, f.y, f.z);
}

// The sun's fixed axes: forward away from the sun, right and up across it, chosen from the sun
// alone (not the camera), so turning the camera does not turn the maps.
void sunAxes(const FrameView& view, vec3& right, vec3& up, vec3& forward) {
    vec3 toward = toVec3(view.sun.direction);
    const float l = length(toward);
    toward = l > 1.0e-20f ? toward / l : vec3(0.0f, 1.0f, 0.0f);
    forward = -toward;
    shadowAxes(forward, right, up);
}

// The orthographic view whose map covers [x0, x1] x [y0, y1] across the sun and [z0, z1] along
// it (coordinates on the sun's axes).
SunView orthoView(vec3 right, vec3 up, vec3 forward, float x0, float x1, float y0, float y1,
                  float z0, float z1) {
    SunView v;
    v.right = right;
    v.up = up;
    v.forward = forward;
    v.half_width_m = 0.5f * (x1 - x0);
    v.half_height_m = 0.5f * (y1 - y0);
    v.depth_m = z1 - z0;
    const float cx = 0.5f * (x0 + x1);
    const float cy = 0.5f * (y0 + y1);
    v.eye = right * cx + up * cy + forward * z0;
    const float sx = 1.0f / v.half_width_m;
    const float sy = 1.0f / v.half_height_m;
    const float sz = 1.0f / v.depth_m;
    // clip = (sx (r.p - cx), sy (u.p - cy), sz (f.p - z0), 1): rows, as columns below.
    v.clip_c[0] = vec4(right.x * sx, up.x * sy, forward.x * sz, 0.0f);
    v.clip_c[1] = vec4(right.y * sx, up.y * sy, forward.y * sz, 0.0f);
    v.clip_c[2] = vec4(right.z * sx, up.z * sy, forward.z * sz, 0.0f);
    v.clip_c[3] = vec4(-cx * sx, -cy * sy, -z0 * sz, 1.0f);
    return v;
}

struct Box {
    vec3 lo{std::numeric_limits<float>::max()};
    vec3 hi{-std::numeric_limits<float>::max()};
    bool empty() const { return !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z); }
};

void addSphere(Box& box, vec3 p, float radius, vec3 right, vec3 up, vec3 forward) {
    const vec3 q(dot(p, right), dot(p, up), dot(p, forward));
    if (!std::isfinite(q.x + q.y + q.z + radius)) return;
    box.lo = min(box.lo, q - vec3(radius));
    box.hi = max(box.hi, q + vec3(radius));
}

// The host records and strip points of the casting batches, as a box on the sun's axes (each
// record a sphere of its size: its quad, turned any way, stays inside; each strip point a sphere
// of half its width: a segment's band lies in the hull of its two ends' spheres).
Box hostCasterBox(std::span<const DrawBatch> batches, vec3 right, vec3 up, vec3 forward) {
    Box box;
    for (const DrawBatch& entry : batches) {
        if (!castsOpacityShadow(entry)) continue;
        if (const StripBatch* s = std::get_if<StripBatch>(&entry)) {
            for (const StripPoint& p : s->points) {
                addSphere(box, vec3(p.position_width), 0.5f * std::abs(p.position_width.w), right,
                          up, forward);
            }
            continue;
        }
        for (const DrawRecord& r : hostRecords(entry)) {
            addSphere(box, vec3(r.position_size), std::abs(r.position_size.w), right, up, forward);
        }
    }
    return box;
}

} // namespace

void shadowAxes(vec3 forward, vec3& right, vec3& up) {
    const vec3 hint = std::abs(forward.y) < 0.9f ? vec3(0.0f, 1.0f, 0.0f) : vec3(0.0f, 0.0f, 1.0f);
    right = normalize(cross(forward, hint));
    up = cross(right, forward);
}

std::string shadowProblem(const ShadowDesc& s) {
    auto within = [](uint32_t v, uint32_t lo, uint32_t hi) { return v >= lo && v <= hi; };
    if (!within(s.resolution, kMinShadowResolution, kMaxShadowResolution) ||
        !within(s.opacity_resolution, kMinShadowResolution, kMaxShadowResolution)) {
        return "shadows: resolution and opacity_resolution must be in [" +
               std::to_string(kMinShadowResolution) + ", " + std::to_string(kMaxShadowResolution) +
               "] (got " + std::to_string(s.resolution) + " and " +
               std::to_string(s.opacity_resolution) + ")";
    }
    if (!within(s.cascades, 1, kMaxShadowCascades)) {
        return "shadows: cascades must be in [1, " + std::to_string(kMaxShadowCascades) +
               "] (got " + std::to_string(s.cascades) + ")";
    }
    if (!std::isfinite(s.max_distance) || s.max_distance <= 0.0f ||
        s.max_distance > kMaxShadowDistance_m) {
        return "shadows: max_distance must be in (0, " + std::to_string(kMaxShadowDistance_m) +
               "] (got " + std::to_string(s.max_distance) + ")";
    }
    if (!std::isfinite(s.bias) || s.bias < 0.0f || s.bias > kMaxShadowBias_m) {
        return "shadows: bias must be in [0, " + std::to_string(kMaxShadowBias_m) + "] (got " +
               std::to_string(s.bias) + ")";
    }
    return {};
}

namespace {

bool castsShadow(bool draws, uint32_t blend) {
    return draws && (blend == kBlendAlpha || blend == kBlendPremultiplied);
}

bool isCutout(uint32_t render_flags) {
    return (render_flags & kRenderFlagShadowCutout) != 0;
}

} // namespace

bool castsOpacityShadow(const BillboardBatch& batch) {
    return castsShadow(drawsAnything(batch), batch.params.blend) &&
           !isCutout(batch.params.render_flags);
}

bool castsOpacityShadow(const StripBatch& batch) {
    return castsShadow(drawsAnything(batch), batch.params.blend) &&
           !isCutout(batch.params.render_flags);
}

bool castsCutoutShadow(const BillboardBatch& batch) {
    return castsShadow(drawsAnything(batch), batch.params.blend) &&
           isCutout(batch.params.render_flags);
}

bool castsCutoutShadow(const StripBatch& batch) {
    return castsShadow(drawsAnything(batch), batch.params.blend) &&
           isCutout(batch.params.render_flags);
}

bool castsOpacityShadow(const DrawBatch& batch) {
    return std::visit(
        [](const auto& b) {
            if constexpr (std::is_same_v<std::decay_t<decltype(b)>, MeshBatch>) {
                return false;
            } else {
                return castsOpacityShadow(b);
            }
        },
        batch);
}

bool castsCutoutShadow(const DrawBatch& batch) {
    return std::visit(
        [](const auto& b) {
            if constexpr (std::is_same_v<std::decay_t<decltype(b)>, MeshBatch>) {
                return false;
            } else {
                return castsCutoutShadow(b);
            }
        },
        batch);
}

float opacityCasterReach(std::span<const DrawBatch> batches, vec3 origin, vec3 forward) {
    for (const DrawBatch& entry : batches) {
        if (castsOpacityShadow(entry) && onDevice(entry)) {
            return std::numeric_limits<float>::infinity();
        }
    }
    vec3 right;
    vec3 up;
    shadowAxes(forward, right, up);
    const Box box = hostCasterBox(batches, right, up, forward);
    if (box.empty()) return -std::numeric_limits<float>::infinity();
    return box.hi.z - dot(origin, forward);
}

bool onDevice(const DrawBatch& batch) {
    if (const StripBatch* s = std::get_if<StripBatch>(&batch)) return s->device.points != 0;
    if (const BillboardBatch* b = std::get_if<BillboardBatch>(&batch)) {
        return b->device.records != 0;
    }
    return std::get<MeshBatch>(batch).device.records != 0;
}

std::array<float, kShadowCascadeCapacity> cascadeSplits(float near_m, float far_m, uint32_t count) {
    std::array<float, kShadowCascadeCapacity> out{};
    count = std::clamp(count, 1u, kShadowCascadeCapacity);
    for (uint32_t i = 0; i < kShadowCascadeCapacity; ++i) {
        const double t = static_cast<double>(std::min(i + 1, count)) / count;
        const double uniform = near_m + (far_m - near_m) * t;
        const double logarithmic = near_m * std::pow(static_cast<double>(far_m) / near_m, t);
        out[i] =
            static_cast<float>(kLogSplitWeight * logarithmic + (1.0 - kLogSplitWeight) * uniform);
    }
    out[count - 1] = far_m;
    for (uint32_t i = count; i < kShadowCascadeCapacity; ++i) out[i] = far_m;
    return out;
}

SunShadowFit fitSunShadows(const FrameView& view, uint32_t width, uint32_t height,
                           std::span<const DrawBatch> batches) {
    SunShadowFit fit;
    const ShadowDesc& s = view.shadows;
    if (!s.enabled || view.sun.intensity <= 0.0f) return fit;
    const FrameGlobals camera = viewGlobals(view, width, height);
    const vec3 eye(camera.eye);
    const vec3 camera_forward(camera.camera_forward);
    vec3 right;
    vec3 up;
    vec3 forward;
    sunAxes(view, right, up, forward);

    const uint32_t count = std::clamp(s.cascades, 1u, kShadowCascadeCapacity);
    const uint32_t resolution =
        std::clamp(s.resolution, kMinShadowResolution, kMaxShadowResolution);
    const float near_m = view.near_m;
    const float far_m = std::max(std::min(s.max_distance, view.far_m), near_m * 1.001f);
    const std::array<float, kShadowCascadeCapacity> splits = cascadeSplits(near_m, far_m, count);
    const double kDegToRad = 3.14159265358979323846 / 180.0;
    const double ty = std::tan(static_cast<double>(view.fov_deg) * 0.5 * kDegToRad);
    const double tx = ty * static_cast<double>(width) / static_cast<double>(height);
    const double k2 = tx * tx + ty * ty;
    // How far toward the sun a cascade's depth range reaches past its sphere: casters up to the
    // shadow distance away still cast into it.
    const float reach = far_m;

    FrameShadows& f = fit.shadows;
    float slice_near = near_m;
    for (uint32_t c = 0; c < count; ++c) {
        const double n = slice_near;
        const double fa = splits[c];
        // The smallest sphere around the slice's corners has its centre on the view axis, where
        // the nearest and farthest corners are equally far (or at the far plane's centre).
        const double z = std::min(0.5 * (fa + n) * (1.0 + k2), fa);
        const double r_far = std::sqrt((fa - z) * (fa - z) + fa * fa * k2);
        const double r_near = std::sqrt((z - n) * (z - n) + n * n * k2);
        float radius = static_cast<float>(std::max(r_far, r_near));
        radius = std::ceil(radius * kRadiusSteps_per_m) / kRadiusSteps_per_m;
        const float texel = 2.0f * radius / static_cast<float>(resolution);
        const vec3 centre = eye + camera_forward * static_cast<float>(z);
        // Snapped to whole texels across the sun: a still caster lands on the same texels.
        const float cx = std::floor(dot(centre, right) / texel) * texel;
        const float cy = std::floor(dot(centre, up) / texel) * texel;
        const float cz = dot(centre, forward);
        const SunView v = orthoView(right, up, forward, cx - radius, cx + radius, cy - radius,
                                    cy + radius, cz - radius - reach, cz + radius);
        fit.cascade_views[c] = v;
        for (uint32_t k = 0; k < 4; ++k) f.cascade_c[4 * c + k] = v.clip_c[k];
        f.cascade_far[static_cast<int>(c)] = splits[c];
        f.cascade_texel_m[static_cast<int>(c)] = texel;
        f.cascade_depth_m[static_cast<int>(c)] = v.depth_m;
        slice_near = splits[c];
    }
    for (uint32_t c = count; c < kShadowCascadeCapacity; ++c) {
        f.cascade_far[static_cast<int>(c)] = far_m;
        f.cascade_texel_m[static_cast<int>(c)] = f.cascade_texel_m[static_cast<int>(count - 1)];
        f.cascade_depth_m[static_cast<int>(c)] = f.cascade_depth_m[static_cast<int>(count - 1)];
    }
    const float fade = far_m * kShadowFadeFraction;
    f.params = vec4(std::clamp(s.bias, 0.0f, kMaxShadowBias_m), far_m - fade, fade,
                    1.0f / static_cast<float>(resolution));
    fit.cascades = count;

    // The opacity map: over the casting host records, or the last cascade's whole extent when a
    // casting batch's records stay on the device.
    for (const DrawBatch& entry : batches) {
        if (castsCutoutShadow(entry)) ++fit.cutout_batches;
        if (!castsOpacityShadow(entry)) continue;
        ++fit.opacity_batches;
        if (onDevice(entry)) fit.opacity_device = true;
    }
    Box box = hostCasterBox(batches, right, up, forward);
    const SunView& last = fit.cascade_views[count - 1];
    const float lx = dot(last.eye, right);
    const float ly = dot(last.eye, up);
    const float lz = dot(last.eye, forward);
    if (fit.opacity_device) {
        box.lo = min(box.lo, vec3(lx - last.half_width_m, ly - last.half_height_m, lz));
        box.hi =
            max(box.hi, vec3(lx + last.half_width_m, ly + last.half_height_m, lz + last.depth_m));
    }
    // Nothing past the last cascade's extent across the sun is drawn in the map.
    box.lo.x = std::max(box.lo.x, lx - last.half_width_m);
    box.hi.x = std::min(box.hi.x, lx + last.half_width_m);
    box.lo.y = std::max(box.lo.y, ly - last.half_height_m);
    box.hi.y = std::min(box.hi.y, ly + last.half_height_m);
    if (fit.opacity_batches > 0 && !box.empty()) {
        const vec3 mid = 0.5f * (box.lo + box.hi);
        const vec3 half = max(0.5f * (box.hi - box.lo), vec3(kMinOpacityExtent_m));
        fit.opacity = true;
        fit.opacity_view =
            orthoView(right, up, forward, mid.x - half.x, mid.x + half.x, mid.y - half.y,
                      mid.y + half.y, mid.z - half.z, mid.z + half.z);
        for (uint32_t k = 0; k < 4; ++k) f.opacity_c[k] = fit.opacity_view.clip_c[k];
    }
    f.config = uvec4(count, fit.opacity ? 1u : 0u, resolution, 0u);
    return fit;
}

FrameGlobals sunViewGlobals(const FrameGlobals& camera, const SunView& view, uint32_t width,
                            uint32_t height) {
    FrameGlobals g = camera;
    g.clip_from_world_c0 = view.clip_c[0];
    g.clip_from_world_c1 = view.clip_c[1];
    g.clip_from_world_c2 = view.clip_c[2];
    g.clip_from_world_c3 = view.clip_c[3];
    g.eye = vec4(view.eye, 0.0f);
    g.camera_right = vec4(view.right, view.depth_m);
    g.camera_up = vec4(view.up, 0.0f);
    g.camera_forward = vec4(view.forward, 0.0f);
    g.viewport = vec4(static_cast<float>(width), static_cast<float>(height),
                      1.0f / static_cast<float>(width), 1.0f / static_cast<float>(height));
    g.light_count = uvec4(0u);
    g.shadows = FrameShadows{};
    return g;
}

} // namespace spindrift::render
