// The draw list's inside (include/spindrift/draw_list.h): how a world's instances become batches
// in draw order, and the engine's form of each batch that Spindrift's renderer draws
// (render/draw_list_batches.h). The public DrawBatch and the engine's DrawEntry are made together,
// one pair per drawn emitter (the view's one order may cut one into several), from the same records
// and the same parameter functions (billboardParams, stripParams, meshParams): what a host draws is
// what the preview draws.
//
// Per instance, farthest from the eye first: a GPU part drawn from the device submits its draw
// output (records, GPU-sorted orders for this eye, strips), then every part's host records are
// written (writeHostDrawRecords: the CPU part's, a read-back GPU part's). Per emitter, in compiled
// order: billboards and meshes take the records, sorted into the list's storage for this eye when
// the emitter sorts (so two views never reorder each other's records, and the instance's records
// stay in slot order); beams and ribbons become strip points and segments in the list's storage
// (appendBeamStrips, writeRibbonStrips). Last, the batches that must be drawn back to front are
// merged into the view's one order across emitters and effects (runtime/draw_list_order.h). Storage
// grows to the largest frame and is reused: a warm list allocates nothing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpu/draw_output.h"
#include "gpu/ribbon_strips.h"
#include "kernels/draw_record.h"
#include "kernels/strip.h"
#include "render/particle_sort.h"
#include "render/shader/billboard.h"
#include "render/shader/mesh.h"
#include "render/shader/strip_draw.h"
#include "runtime/draw_order.h"
#include "runtime/effect_instance.h"
#include "spindrift/draw_list.h"

namespace spindrift {

// One visible instance as World::drawList hands it over.
struct DrawInstance {
    InstanceHandle handle;
    EffectId effect;
    EffectInstance* fx = nullptr;
    Vec3 origin; // where the instance is: the order key's position
    // The instance's overrides (World::setTint, setSizeScale): applied to copies of its records
    // and to its strip points; an instance without them is drawn from its records directly. A
    // device entry hands them to the renderer (DrawEntry::tint, size_scale).
    vec4 tint{1.0f};
    float size_scale = 1;
};

// A batch as Spindrift's renderer draws it (the same index as the public batch).
struct DrawEntry {
    uint32_t render_type = kRenderBillboard; // kRender*
    BillboardParams billboard{};             // billboards
    StripParams strip{};                     // ribbons and beams
    MeshParams mesh{};                       // meshes
    std::span<const DrawRecord> records;     // host billboards and meshes, draw order
    std::span<const StripPoint> points;      // host strips
    std::span<const uint32_t> segments;
    // Host ribbons: each point's world velocity (render::StripBatch::velocities, motion vectors);
    // empty for beams, which stand still.
    std::span<const vec4> velocities;
    bool device = false; // drawn from the device: the sources below
    gpu::GpuDrawSource device_records{};
    gpu::GpuStripSource device_strips{};
    // A device entry's instance overrides, which the renderer applies as it reads each record or
    // point (render::BillboardBatch::overrides); host entries carry them in their records: 1.
    vec4 tint{1.0f};
    float size_scale = 1;
    // The emitter's particle lights (render.lights; count 0: none): the scene player chooses them
    // from a host entry's light_records (render/particle_lights.h): all of the emitter's records,
    // even when the view's one order cuts `records` into stretches (then the emitter's first
    // stretch holds them and the others none, so an emitter gives its lights once, chosen from
    // every particle).
    ParticleLightRecord particle_lights{};
    std::span<const DrawRecord> light_records;
};

struct DrawList::Impl {
    std::vector<DrawBatch> batches;
    std::vector<DrawEntry> entries;
    DrawListStats stats;
    std::vector<Diagnostic> diagnostics;

    // Per drawn instance, in draw order: its handle and its host strip points (the player shows
    // them per instance).
    struct InstancePoints {
        InstanceHandle handle;
        std::span<const StripPoint> points;
    };
    std::vector<InstancePoints> instance_points;

    // Storage and work space, reused from build to build.
    std::vector<DrawRecord> sorted; // sorting emitters' records in this view's order
    std::vector<StripPoint> points; // strip points of every host strip batch
    std::vector<vec4> velocities;   // as long as points: a ribbon point's particle velocity
    std::vector<uint32_t> segments; // their segments, each batch's counted from its first point
    render::SortScratch scratch;
    std::vector<uint32_t> order;
    std::vector<std::pair<float, uint32_t>> instance_order; // (distance, index)
    gpu::GpuDrawRequest request;
    // Where each entry's storage lies until the build ends (the vectors may move while growing).
    struct Pending {
        size_t sorted_first = SIZE_MAX; // SIZE_MAX: records are the instance's own
        size_t point_first = 0, point_count = 0, segment_first = 0, segment_count = 0;
    };
    std::vector<Pending> pending;
    struct PendingInstance {
        InstanceHandle handle;
        size_t point_first = 0, point_count = 0;
    };
    std::vector<PendingInstance> pending_instances;

    // The view's one back-to-front order (runtime/draw_list_order.h): per joined batch its run of
    // keys, the merge's segments and the batches rebuilt from them (copied back).
    struct OrderWork {
        std::vector<uint32_t> keys;
        std::vector<OrderRun> runs;
        std::vector<uint32_t> run_batch;  // per run: its batch
        std::vector<int32_t> batch_run;   // per batch: its run, or -1
        std::vector<uint64_t> strip_sort; // (key << 32 | segment position) of one strip batch
        std::vector<uint32_t> strip_segments;
        // Per run, the cone of directions from the eye its items cover (a bounding sphere's):
        // unit direction, sine and cosine of the half angle; everywhere when the eye is inside.
        struct Cone {
            vec3 direction{0.0f};
            float sin_half = 0, cos_half = 1;
            bool everywhere = false;
        };
        std::vector<Cone> cones;
        std::vector<uint32_t> sweep, active;              // runs by first key; runs still in depth
        std::vector<std::pair<uint32_t, uint32_t>> pairs; // neighbours, both ways
        std::vector<uint32_t> neighbour_first, neighbour_runs;
        std::vector<OrderSegment> segments;
        std::vector<uint32_t> run_last_segment; // per run: the segment holding its last item
        OrderMergeScratch merge;
        std::vector<DrawBatch> batches;
        std::vector<DrawEntry> entries;
    };
    OrderWork order_work;
};

// Empty when the view is usable; else what is wrong with it (World::drawList's contract).
std::string drawViewProblem(const DrawView& view);

// Empties the list (no batch, zero stats).
void clearDrawList(DrawList& list);

// Builds the list for `view` from `instances` (World::drawList's visible instances, slot order).
void buildDrawList(const DrawView& view, std::span<const DrawInstance> instances, DrawList& list);

// Whether a batch of blend `blend` (kBlend*) is composited order-independently when the view asks
// for it (DrawView::order_independent): alpha and premultiplied batches. Their order does not
// change the image, so sorting them is wasted work. render::drawsThroughOit is this rule.
bool blendsOrderIndependently(bool order_independent, uint32_t blend);

} // namespace spindrift
