// Draw lists through the C API: the C++ DrawList's batches as C structs whose data pointers are
// the list's own spans (particles and strip points are the C++ records, layouts pinned in
// capi_convert.h), made once per fill so reading them costs nothing.
#include <cstring>

#include "capi/call_guard.h"
#include "capi/capi_convert.h"
#include "capi/capi_objects.h"
#include "spindrift/spindrift.h"

using namespace spindrift;
using namespace spindrift::capi;

namespace {

spindrift_draw_batch batchOf(const DrawBatch& b) {
    spindrift_draw_batch c{};
    c.kind = static_cast<uint32_t>(b.kind);
    c.blend = static_cast<uint32_t>(b.blend);
    c.sort = static_cast<uint32_t>(b.sort);
    c.sorted = b.sorted;
    c.lit = b.lit;
    c.device_resident = b.device_resident;
    c.flipbook_blend = b.flipbook_blend;
    c.instance.id = b.instance.value;
    c.effect = b.effect.value;
    c.emitter_index = b.emitter_index;
    c.instance_distance_m = b.instance_distance_m;
    c.alignment = static_cast<uint32_t>(b.alignment);
    c.particles = b.particles.empty()
                      ? nullptr
                      : reinterpret_cast<const spindrift_draw_particle*>(b.particles.data());
    c.particle_length = b.particles.size();
    c.vertices = b.vertices.empty()
                     ? nullptr
                     : reinterpret_cast<const spindrift_strip_point*>(b.vertices.data());
    c.vertex_length = b.vertices.size();
    c.segments = b.segments.empty() ? nullptr : b.segments.data();
    c.segment_length = b.segments.size();
    c.particle_count = b.particle_count;
    c.device_max_count = b.device_max_count;
    c.axis = toC(b.axis);
    c.stretch_s = b.stretch_s;
    c.flipbook_frames = b.flipbook_frames;
    c.flipbook_columns = b.flipbook_columns;
    c.flipbook_rows = b.flipbook_rows;
    c.soft_fade_m = b.soft_fade_m;
    c.mesh_scale = b.mesh_scale;
    c.mesh_tumble_rad_per_s = b.mesh_tumble_rad_per_s;
    c.emissive = b.emissive;
    c.emissive_share = b.emissive_share;
    c.distortion = b.distortion;
    c.lit_per_particle = b.lit_per_particle;
    return c;
}

} // namespace

extern "C" {

SPINDRIFT_API spindrift_result spindrift_default_draw_view(spindrift_draw_view* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const DrawView d;
        *out = spindrift_draw_view{};
        out->struct_size = sizeof(spindrift_draw_view);
        out->eye = toC(d.eye);
        out->forward = toC(d.forward);
        out->up = toC(d.up);
        out->fov_y_deg = d.fov_y_deg;
        out->aspect = d.aspect;
        out->near_m = d.near_m;
        out->far_m = d.far_m;
        out->viewport_width = d.viewport_width;
        out->viewport_height = d.viewport_height;
        out->order_independent = d.order_independent;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_draw_list_create(spindrift_draw_list* out_list) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_list, "out_list"); r != SPINDRIFT_OK)
            return r;
        return makeObject<DrawListObject>(out_list->id);
    });
}

SPINDRIFT_API spindrift_result spindrift_draw_list_destroy(spindrift_draw_list list) {
    return guarded(__func__, [&] {
        if (list.id == 0) return SPINDRIFT_OK;
        void* object = nullptr;
        const HandleLookup lookup = unregisterObject(list.id, ObjectKind::draw_list, object);
        if (lookup != HandleLookup::live)
            return handleError(lookup, ObjectKind::draw_list, list.id);
        hostDelete(static_cast<DrawListObject*>(object));
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_world_draw_list(spindrift_world world,
                                                         const spindrift_draw_view* view,
                                                         spindrift_draw_list list) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(view, "view"); r != SPINDRIFT_OK) return r;
        WorldObject* w;
        if (const spindrift_result r = resolve(world.id, w); r != SPINDRIFT_OK) return r;
        DrawListObject* l;
        if (const spindrift_result r = resolve(list.id, l); r != SPINDRIFT_OK) return r;
        l->batches.clear();
        const RuntimeError e = w->world.drawList(toCpp(*view), l->list);
        const std::span<const DrawBatch> batches = l->list.batches();
        l->batches.resize(batches.size());
        for (size_t i = 0; i < batches.size(); ++i) l->batches[i] = batchOf(batches[i]);
        return fromRuntime(e, w->world.lastErrorMessage());
    });
}

SPINDRIFT_API spindrift_result spindrift_draw_list_batches(spindrift_draw_list list,
                                                           uint32_t batch_size,
                                                           const spindrift_draw_batch** out_batches,
                                                           uint32_t* out_count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_batches, "out_batches");
            r != SPINDRIFT_OK)
            return r;
        if (const spindrift_result r = requirePointer(out_count, "out_count"); r != SPINDRIFT_OK)
            return r;
        *out_batches = nullptr;
        *out_count = 0;
        if (batch_size != sizeof(spindrift_draw_batch)) {
            return fail(SPINDRIFT_ERROR_STRUCT_SIZE,
                        "batch_size is %u; this library's spindrift_draw_batch is %zu bytes",
                        batch_size, sizeof(spindrift_draw_batch));
        }
        DrawListObject* l;
        if (const spindrift_result r = resolve(list.id, l); r != SPINDRIFT_OK) return r;
        *out_batches = l->batches.size() == 0 ? nullptr : l->batches.data();
        *out_count = static_cast<uint32_t>(l->batches.size());
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_draw_list_stats_get(spindrift_draw_list list,
                                                             spindrift_draw_list_stats* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        DrawListObject* l;
        if (const spindrift_result r = resolve(list.id, l); r != SPINDRIFT_OK) return r;
        const DrawListStats& s = l->list.stats();
        out->instances_drawn = s.instances_drawn;
        out->device_batches = s.device_batches;
        out->particles = s.particles;
        out->strip_segments = s.strip_segments;
        out->sorted_particles = s.sorted_particles;
        out->sort_skipped_particles = s.sort_skipped_particles;
        out->order_emitters = s.order_emitters;
        out->order_batches = s.order_batches;
        out->sorted_strip_segments = s.sorted_strip_segments;
        out->order_exact_batches = s.order_exact_batches;
        out->order_coarsened_items = s.order_coarsened_items;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_billboard_corners(const spindrift_draw_view* view,
                                                           const spindrift_draw_batch* batch,
                                                           const spindrift_draw_particle* particle,
                                                           spindrift_vec3 out_corners[4]) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(view, "view"); r != SPINDRIFT_OK) return r;
        if (const spindrift_result r = requirePointer(batch, "batch"); r != SPINDRIFT_OK) return r;
        if (const spindrift_result r = requirePointer(particle, "particle"); r != SPINDRIFT_OK)
            return r;
        if (const spindrift_result r = requirePointer(out_corners, "out_corners");
            r != SPINDRIFT_OK)
            return r;
        if (batch->kind != SPINDRIFT_DRAW_BILLBOARDS) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "batch->kind is %u; corners are only for billboard batches (0)",
                        batch->kind);
        }
        if (batch->alignment > SPINDRIFT_ALIGN_FIXED) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "batch->alignment is %u; expected 0..3",
                        batch->alignment);
        }
        DrawBatch b;
        b.kind = DrawKind::billboards;
        b.alignment = static_cast<DrawAlignment>(batch->alignment);
        b.axis = toCpp(batch->axis);
        b.stretch_s = batch->stretch_s;
        DrawParticle p;
        static_assert(sizeof p == sizeof *particle);
        std::memcpy(static_cast<void*>(&p), particle, sizeof p);
        Vec3 corners[4];
        billboardCorners(toCpp(*view), b, p, corners);
        for (int i = 0; i < 4; ++i) out_corners[i] = toC(corners[i]);
        return SPINDRIFT_OK;
    });
}

} // extern "C"
