// The draw list (include/spindrift/draw_list.h, runtime/draw_list.h): a world's instances as
// batches in draw order for one view. The rules are at the top of runtime/draw_list.h.
#include "runtime/draw_list.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>

#include "driver/placement.h"
#include "render/beam_strips.h"
#include "render/billboard_params.h"
#include "render/mesh_params.h"
#include "render/strip_params.h"
#include "runtime/draw_list_order.h"
#include "runtime/transform_rows.h"

namespace spindrift {

// The public structs are the engine's records seen through public vocabulary types: the same
// bytes, so a host reads the records the renderer uploads, without a copy.
static_assert(std::is_standard_layout_v<DrawParticle> &&
              std::is_trivially_copyable_v<DrawParticle>);
static_assert(sizeof(DrawParticle) == sizeof(DrawRecord));
static_assert(offsetof(DrawParticle, position) == offsetof(DrawRecord, position_size));
static_assert(offsetof(DrawParticle, size_m) == offsetof(DrawRecord, position_size) + 12);
static_assert(offsetof(DrawParticle, color) == offsetof(DrawRecord, color));
static_assert(offsetof(DrawParticle, velocity_m_per_s) == offsetof(DrawRecord, velocity_rotation));
static_assert(offsetof(DrawParticle, rotation_rad) == offsetof(DrawRecord, velocity_rotation) + 12);
static_assert(offsetof(DrawParticle, normalized_age) == offsetof(DrawRecord, normalized_age));
static_assert(offsetof(DrawParticle, flipbook_frame) == offsetof(DrawRecord, flipbook_frame));
static_assert(offsetof(DrawParticle, emitter_index) == offsetof(DrawRecord, emitter_index));
static_assert(offsetof(DrawParticle, key) == offsetof(DrawRecord, key));
static_assert(std::is_standard_layout_v<DrawStripPoint> &&
              std::is_trivially_copyable_v<DrawStripPoint>);
static_assert(sizeof(DrawStripPoint) == sizeof(StripPoint));
static_assert(offsetof(DrawStripPoint, position) == offsetof(StripPoint, position_width));
static_assert(offsetof(DrawStripPoint, width_m) == offsetof(StripPoint, position_width) + 12);
static_assert(offsetof(DrawStripPoint, color) == offsetof(StripPoint, color));
static_assert(offsetof(DrawStripPoint, tangent) == offsetof(StripPoint, tangent_u));
static_assert(offsetof(DrawStripPoint, u) == offsetof(StripPoint, tangent_u) + 12);

// The public enums are the compiled records' values (frozen on both sides).
static_assert(uint32_t(DrawBlend::additive) == kBlendAdditive);
static_assert(uint32_t(DrawBlend::premultiplied) == kBlendPremultiplied);
static_assert(uint32_t(DrawBlend::alpha) == kBlendAlpha);
static_assert(uint32_t(DrawBlend::opaque) == kBlendOpaque);
static_assert(uint32_t(DrawAlignment::camera) == kAlignCamera);
static_assert(uint32_t(DrawAlignment::velocity_stretch) == kAlignVelocityStretch);
static_assert(uint32_t(DrawAlignment::axis) == kAlignAxis);
static_assert(uint32_t(DrawAlignment::fixed) == kAlignFixed);
static_assert(uint32_t(DrawSort::none) == kSortNone);
static_assert(uint32_t(DrawSort::back_to_front) == kSortBackToFront);
static_assert(uint32_t(DrawSort::front_to_back) == kSortFrontToBack);
static_assert(uint32_t(DrawSort::oldest_first) == kSortOldestFirst);
static_assert(uint32_t(DrawSort::newest_first) == kSortNewestFirst);

namespace {

// Billboards and meshes draw their records one by one (sorted by the emitter's mode); ribbons and
// beams draw strips.
bool drawsRecords(uint32_t render_type) {
    return render_type == kRenderBillboard || render_type == kRenderMesh;
}

vec3 vecOf(const Vec3& v) {
    return vec3(v.x, v.y, v.z);
}

// In double, rounded once: the order key the scene player has always used.
float distanceTo(const Vec3& a, const vec3& b) {
    const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
    return static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz));
}

std::span<const DrawParticle> particlesOf(std::span<const DrawRecord> records) {
    return {reinterpret_cast<const DrawParticle*>(records.data()), records.size()};
}

std::span<const DrawStripPoint> verticesOf(std::span<const StripPoint> points) {
    return {reinterpret_cast<const DrawStripPoint*>(points.data()), points.size()};
}

DrawKind kindOf(uint32_t render_type) {
    if (render_type == kRenderMesh) return DrawKind::meshes;
    if (render_type == kRenderRibbon || render_type == kRenderBeam) return DrawKind::strips;
    return DrawKind::billboards;
}

// The public batch of an emitter, its render settings from the same parameters the renderer
// reads (entry), so the two cannot disagree.
DrawBatch publicBatch(const DrawInstance& d, uint32_t e, const EmitterRecord& emitter,
                      const DrawEntry& entry, float distance) {
    DrawBatch b;
    b.kind = kindOf(emitter.render_type);
    b.blend = static_cast<DrawBlend>(emitter.blend);
    b.sort = static_cast<DrawSort>(emitter.sort);
    b.lit = (emitter.render_flags & kRenderFlagLit) != 0;
    b.lit_per_particle = (emitter.render_flags & kRenderFlagLitPerParticle) != 0;
    b.device_resident = entry.device;
    b.instance = d.handle;
    b.effect = d.effect;
    b.emitter_index = e;
    b.instance_distance_m = distance;
    const BillboardParams& p = entry.billboard;
    b.alignment = static_cast<DrawAlignment>(p.alignment);
    b.axis = {p.axis_stretch.x, p.axis_stretch.y, p.axis_stretch.z};
    b.stretch_s = p.axis_stretch.w;
    b.flipbook_frames = p.flipbook_frames;
    b.flipbook_columns = p.flipbook_columns;
    b.flipbook_rows = p.flipbook_rows;
    b.flipbook_blend = (emitter.render_flags & kRenderFlagFrameBlend) != 0;
    b.soft_fade_m = emitter.soft_fade_distance;
    b.mesh_scale = entry.mesh.scale;
    b.mesh_tumble_rad_per_s = entry.mesh.tumble_rad_per_s;
    b.emissive = emitter.emission.x;
    b.emissive_share = emitter.emission.y;
    b.distortion = emitter.emission.z;
    return b;
}

// A GPU part drawn from the device: submits its draw records, its GPU-sorted orders for this eye
// and its strips (beams with the frame's curve and jitter cycle, as appendBeamStrips takes them
// on the host). A failure stops the instance (reported once).
void submitInstanceDraw(DrawList::Impl& list, EffectInstance& fx, const DrawView& view) {
    if (fx.failed) return;
    const CompiledEffect& effect = *fx.effect;
    const size_t n = effect.emitters.size();
    gpu::GpuDrawRequest& request = list.request;
    request.eye = vecOf(view.eye);
    request.sort_modes.assign(n, kSortNone);
    request.beams.assign(n, BeamFrame{});
    const auto sim_time_s = static_cast<float>(simulationTime(fx));
    for (uint32_t e = 0; e < n; ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        if (emitter.render_type == kRenderBeam) {
            BeamFrame& beam = request.beams[e];
            beam.curve = render::beamCurve(emitter, fx.world_from_effect);
            beam.jitter_cycle = sdBeamJitterCycle(sim_time_s, beam.curve.end_frequency.w);
        }
        // Emitters composited order-independently need no order: their sort would be wasted.
        const bool sorts = drawsRecords(emitter.render_type) &&
                           !blendsOrderIndependently(view.order_independent, emitter.blend);
        request.sort_modes[e] = sorts ? emitter.sort : uint32_t{kSortNone};
        if (!sorts && emitter.sort != kSortNone) {
            list.stats.sort_skipped_particles += emitterLive(fx, e);
        }
    }
    spindrift::submitDeviceDraw(fx, request, list.diagnostics);
}

// Emitter e of a GPU part drawn from the device: one entry over all its draw-record chunks
// (billboards, meshes) or its strips; false when it can hold nothing.
bool deviceEntry(const EffectInstance& fx, uint32_t e, DrawEntry& entry, uint64_t& live) {
    const EmitterRecord& emitter = fx.effect->emitters[e];
    live = emitterLive(fx, e);
    entry.device = true;
    if (emitter.render_type == kRenderRibbon || emitter.render_type == kRenderBeam) {
        entry.device_strips = gpu::deviceStripSource(*fx.gpu, e);
        // A ribbon's polyline i is its particle's draw record i: motion vectors read its
        // velocity there (render::DeviceStrips::records). Beams stand still.
        if (emitter.render_type == kRenderRibbon)
            entry.device_records = gpu::drawSource(*fx.gpu, e);
        return entry.device_strips.max_strips != 0;
    }
    entry.device_records = gpu::drawSource(*fx.gpu, e);
    return entry.device_records.max_records != 0;
}

// Adds one entry and its public batch; the pending storage is resolved at the end of the build.
void addBatch(DrawList::Impl& list, const DrawInstance& d, uint32_t e, float distance,
              DrawEntry entry, const DrawList::Impl::Pending& pending, bool sorted,
              uint64_t particles) {
    const EmitterRecord& emitter = d.fx->effect->emitters[e];
    entry.render_type = emitter.render_type;
    entry.billboard = render::billboardParams(emitter, d.fx->world_from_effect);
    entry.strip = render::stripParams(emitter);
    entry.mesh = render::meshParams(emitter);
    entry.particle_lights = particleLights(*d.fx->effect, e);
    DrawBatch batch = publicBatch(d, e, emitter, entry, distance);
    batch.sorted = sorted;
    batch.particle_count = particles;
    if (entry.device) {
        batch.device_max_count = drawsRecords(emitter.render_type)
                                     ? entry.device_records.max_records
                                     : entry.device_strips.max_strips;
        // Nothing on the host to multiply: whoever draws from the device applies them.
        entry.tint = d.tint;
        entry.size_scale = d.size_scale;
        batch.tint = {d.tint.x, d.tint.y, d.tint.z, d.tint.w};
        batch.size_scale = d.size_scale;
        list.stats.device_batches += 1;
    }
    list.entries.push_back(entry);
    list.batches.push_back(batch);
    list.pending.push_back(pending);
}

// The instance's emitters, in compiled order.
void addInstance(DrawList::Impl& list, const DrawView& view, const DrawInstance& d,
                 float distance) {
    EffectInstance& fx = *d.fx;
    if (fx.draws_from_device) submitInstanceDraw(list, fx, view);
    if (!writeHostDrawRecords(fx, list.diagnostics) || fx.failed) return;
    const CompiledEffect& effect = *fx.effect;
    const vec3 eye = vecOf(view.eye);
    const auto sim_time_s = static_cast<float>(simulationTime(fx));
    const size_t batches_before = list.batches.size();
    DrawList::Impl::PendingInstance instance_points{d.handle, list.points.size(), 0};
    const bool overrides = d.size_scale != 1.0f || d.tint != vec4(1.0f);
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        DrawEntry entry;
        DrawList::Impl::Pending pending;
        if (emitterBackend(fx, e) == Backend::gpu && fx.draws_from_device) {
            uint64_t live = 0;
            const bool drawn = deviceEntry(fx, e, entry, live);
            const bool strips = !drawsRecords(emitter.render_type);
            // A strip emitter that can hold nothing counts nothing; a record emitter counts its
            // live particles either way (as the scene player always has).
            if (!strips || drawn) list.stats.particles += live;
            if (drawn) addBatch(list, d, e, distance, entry, pending, false, live);
            continue;
        }
        const std::span<const DrawRecord> records = hostDrawRecords(fx, e);
        const size_t count = records.size();
        if (count == 0) continue;
        if (drawsRecords(emitter.render_type)) {
            bool sorted = false;
            const bool reorders = render::sortReorders(emitter.sort);
            if (reorders && !blendsOrderIndependently(view.order_independent, emitter.blend)) {
                // Sorted into the list's storage: the instance's records stay as written, so
                // another view's list of the same state is unaffected.
                list.order.resize(count);
                render::particleDrawOrder(records, emitter.sort, eye, list.scratch, list.order);
                pending.sorted_first = list.sorted.size();
                for (const uint32_t i : list.order) list.sorted.push_back(records[i]);
                list.stats.sorted_particles += count;
                sorted = true;
            } else {
                if (reorders) list.stats.sort_skipped_particles += count;
                if (overrides) {
                    // Copied so the overrides apply to this list only.
                    pending.sorted_first = list.sorted.size();
                    list.sorted.insert(list.sorted.end(), records.begin(), records.end());
                } else {
                    entry.records = records;
                }
            }
            if (overrides) {
                for (size_t i = pending.sorted_first; i < list.sorted.size(); ++i) {
                    DrawRecord& r = list.sorted[i];
                    r.position_size.w *= d.size_scale;
                    r.color *= d.tint;
                }
            }
            addBatch(list, d, e, distance, entry, pending, sorted, count);
            list.stats.particles += count;
        } else {
            pending.point_first = list.points.size();
            pending.segment_first = list.segments.size();
            if (emitter.render_type == kRenderBeam) {
                const BeamCurve curve = render::beamCurve(emitter, fx.world_from_effect);
                render::appendBeamStrips(curve,
                                         sdBeamJitterCycle(sim_time_s, curve.end_frequency.w),
                                         records, list.points, list.segments);
            } else {
                writeRibbonStrips(fx, e, list.points, list.segments, &list.velocities);
            }
            // Beams stand still (their points come from the emitter's curve): zeros keep the
            // velocities as long as the points, and their entry gets none (resolveStorage).
            list.velocities.resize(list.points.size(), vec4(0.0f));
            pending.point_count = list.points.size() - pending.point_first;
            pending.segment_count = list.segments.size() - pending.segment_first;
            for (size_t i = pending.point_first; overrides && i < list.points.size(); ++i) {
                list.points[i].position_width.w *= d.size_scale;
                list.points[i].color *= d.tint;
            }
            if (pending.segment_count == 0) {
                list.points.resize(pending.point_first);
                list.velocities.resize(pending.point_first);
                continue;
            }
            list.stats.strip_segments += pending.segment_count;
            addBatch(list, d, e, distance, entry, pending, false, count);
            list.stats.particles += count;
        }
    }
    if (list.batches.size() > batches_before) list.stats.instances_drawn += 1;
    instance_points.point_count = list.points.size() - instance_points.point_first;
    list.pending_instances.push_back(instance_points);
}

// Points every host span at the storage, now that it no longer grows.
void resolveStorage(DrawList::Impl& list) {
    for (size_t i = 0; i < list.entries.size(); ++i) {
        DrawEntry& entry = list.entries[i];
        DrawBatch& batch = list.batches[i];
        const DrawList::Impl::Pending& p = list.pending[i];
        if (entry.device) continue;
        if (drawsRecords(entry.render_type)) {
            if (p.sorted_first != SIZE_MAX) {
                entry.records = std::span<const DrawRecord>(list.sorted)
                                    .subspan(p.sorted_first, size_t(batch.particle_count));
            }
            batch.particles = particlesOf(entry.records);
            entry.light_records = entry.records;
        } else {
            entry.points =
                std::span<const StripPoint>(list.points).subspan(p.point_first, p.point_count);
            entry.segments =
                std::span<const uint32_t>(list.segments).subspan(p.segment_first, p.segment_count);
            if (entry.render_type == kRenderRibbon) {
                entry.velocities =
                    std::span<const vec4>(list.velocities).subspan(p.point_first, p.point_count);
            }
            batch.vertices = verticesOf(entry.points);
            batch.segments = entry.segments;
        }
    }
    list.instance_points.clear();
    for (const DrawList::Impl::PendingInstance& p : list.pending_instances) {
        list.instance_points.push_back(
            {p.handle,
             std::span<const StripPoint>(list.points).subspan(p.point_first, p.point_count)});
    }
}

} // namespace

bool blendsOrderIndependently(bool order_independent, uint32_t blend) {
    return order_independent && (blend == kBlendAlpha || blend == kBlendPremultiplied);
}

std::string drawViewProblem(const DrawView& view) {
    if (!finite(view.eye)) return "draw view eye is not finite";
    if (!finite(view.forward) || !finite(view.up)) return "draw view forward or up is not finite";
    const vec3 f = vecOf(view.forward);
    const vec3 u = vecOf(view.up);
    if (!(length(f) > 0)) return "draw view forward is a zero vector";
    if (!(length(cross(normalize(f), u)) > 1e-6f))
        return "draw view up is zero or parallel to forward";
    if (!(view.fov_y_deg > 0 && view.fov_y_deg < 180))
        return "draw view fov_y_deg must be in (0, 180)";
    if (!(view.aspect > 0) || !std::isfinite(view.aspect))
        return "draw view aspect must be finite and > 0";
    if (!(view.near_m > 0 && view.near_m < view.far_m) || !std::isfinite(view.far_m))
        return "draw view near_m and far_m must be finite with 0 < near_m < far_m";
    if (view.viewport_width == 0 || view.viewport_height == 0)
        return "draw view viewport must be at least 1 x 1 pixels";
    return {};
}

void clearDrawList(DrawList& out) {
    DrawList::Impl& list = out.impl();
    list.batches.clear();
    list.entries.clear();
    list.pending.clear();
    list.pending_instances.clear();
    list.instance_points.clear();
    list.sorted.clear();
    list.points.clear();
    list.velocities.clear();
    list.segments.clear();
    list.diagnostics.clear();
    list.stats = DrawListStats{};
}

void buildDrawList(const DrawView& view, std::span<const DrawInstance> instances, DrawList& out) {
    clearDrawList(out);
    DrawList::Impl& list = out.impl();
    // Farthest first, ties in slot order.
    const vec3 eye = vecOf(view.eye);
    list.instance_order.clear();
    for (uint32_t i = 0; i < instances.size(); ++i)
        list.instance_order.emplace_back(distanceTo(instances[i].origin, eye), i);
    std::sort(list.instance_order.begin(), list.instance_order.end(),
              [](const auto& a, const auto& b) {
                  return a.first > b.first || (a.first == b.first && a.second < b.second);
              });
    for (const auto& [distance, i] : list.instance_order)
        addInstance(list, view, instances[i], distance);
    resolveStorage(list);
    orderAcrossBatches(view, list);
}

DrawList::DrawList() : impl_(std::make_unique<Impl>()) {}
DrawList::~DrawList() = default;
DrawList::DrawList(DrawList&&) noexcept = default;
DrawList& DrawList::operator=(DrawList&&) noexcept = default;

std::span<const DrawBatch> DrawList::batches() const {
    return impl_->batches;
}

const DrawListStats& DrawList::stats() const {
    return impl_->stats;
}

const std::vector<Diagnostic>& DrawList::diagnostics() const {
    return impl_->diagnostics;
}

bool billboardCorners(const DrawView& view, const DrawBatch& batch, const DrawParticle& particle,
                      Vec3 corners[4]) {
    if (batch.kind != DrawKind::billboards) return false;
    // The camera basis as the renderer builds it from eye, forward and up.
    const vec3 forward = normalize(vecOf(view.forward));
    const vec3 right = normalize(cross(forward, vecOf(view.up)));
    const vec3 up = cross(right, forward);
    BillboardParams p{};
    p.axis_stretch = vec4(batch.axis.x, batch.axis.y, batch.axis.z, batch.stretch_s);
    p.alignment = static_cast<uint32_t>(batch.alignment);
    DrawRecord r{};
    r.position_size =
        vec4(particle.position.x, particle.position.y, particle.position.z, particle.size_m);
    r.velocity_rotation = vec4(particle.velocity_m_per_s.x, particle.velocity_m_per_s.y,
                               particle.velocity_m_per_s.z, particle.rotation_rad);
    const BillboardQuad q = sdBillboardQuad(r, p, vecOf(view.eye), right, up);
    const vec2 c[4] = {vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, 1)};
    for (int i = 0; i < 4; ++i) {
        const vec3 v = sdQuadPoint(q, c[i]);
        corners[i] = {v.x, v.y, v.z};
    }
    return true;
}

} // namespace spindrift
