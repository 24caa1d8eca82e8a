// What a world looks like from a camera: the draw list (World::drawList), for any renderer.
//
// A DrawList is the world's particles as batches in draw order, one batch per drawn emitter of
// each instance (or several, when the view's back-to-front order interleaves it with others; see
// Order): billboard particles, strip vertices (ribbons and beams) or mesh instances, each
// with its blend mode, render settings and sort information. A host with its own renderer draws
// the batches in order; Spindrift's own renderer draws the same list (so `spindrift render` and
// a game that embeds Spindrift draw the same thing).
//
//     spindrift::DrawView view;
//     view.eye = camera_position;
//     view.forward = camera_forward;
//     spindrift::DrawList list;              // keep it: its storage is reused frame to frame
//     each frame, after world.update(dt):
//         world.drawList(view, list);
//         for (const spindrift::DrawBatch& b : list.batches()) drawBatch(b);
//
// Order. Instances farthest from view.eye first (the distance of the instance's origin, ties in
// the world's slot order); within an instance, emitters in compiled order (EffectInfo::emitters);
// within a billboard or mesh batch, the particles in the emitter's sort mode for this view
// (DrawSort; back_to_front for alpha blending).
// Then one back-to-front order over the view: the batches that must be drawn back to front
// (billboards and meshes sorted back_to_front, blend other than opaque; strips blended alpha or
// premultiplied, whose segments are then sorted by their middle point, sorted set) are merged
// into one order across emitters and effects, so the particles of two effects that interpenetrate
// are drawn interleaved, farthest first. An emitter whose particles interleave with another's
// then appears as several batches, each a stretch of its particles (or strip segments) in the
// one order: draw the batches in order and every such particle is in its place. (Only emitters
// whose particles can cover one pixel are interleaved: seen from view.eye, with each billboard's
// size and stretch, each strip's width; meshes always. Effects side by side at like distances
// stay one batch each, which draws the same image.) Batches that are not in that order keep
// their place after the batches before them. At most 4096 batches are made this way; past that
// the farthest part is drawn emitter by emitter and counted (DrawListStats::order_coarsened_items).
// Device-resident batches (sorted on the GPU, per emitter) do not join: they are drawn whole in
// their instance's place.
//
// Several views (split screen, stereo, a shadow or reflection view) draw the same state: call
// drawList once per view, each into its own DrawList. Nothing is simulated by drawList; each list
// is sorted for its own eye.
//
// Lifetime. A batch's spans point into the list's own storage and into the world's instances.
// They stay valid until the world changes (update, advanceTo, seek, any control call, create,
// destroy, a reload) or the list is filled again. Lists of two views of one unchanged world are
// valid together.
//
// Device-resident batches. A GPU-simulated instance whose world runs it on a renderer's Vulkan
// device (Spindrift's own renderer; a host's device with the embedding API) keeps its particles
// there: its batches have device_resident set, no particles or vertices, particle_count the live
// count last known (a frame or two late) and device_max_count the most the device may hold; the
// renderer that owns the device draws them from its buffers. In every other case (a world on the
// CPU backend, or GPU instances on a device of their own, the default) drawList reads the GPU
// instances' particles back and they appear as ordinary batches: a host without Vulkan interop
// never sees a device-resident batch.
//
// Textures and meshes are named by the batch's effect and emitter: EffectInfo::textures and
// EffectInfo::meshes give each emitter's file (a PNG, sRGB colour; an OBJ), resolved against the
// effect file's folder. An emitter without a texture draws a soft disc (billboards) or a soft
// band (strips); see docs/rendering.md for the shading Spindrift's renderer applies.
//
// Colours are linear RGBA with straight alpha; positions are world space, metres. The instance's
// tint and size scale (World::setTint, setSizeScale) are applied: multiplied into the particles'
// colour and size and the strip vertices' colour and width of ordinary batches; a device-resident
// batch carries them (DrawBatch::tint, size_scale) for the renderer that draws it from the device
// to multiply in the same way as it reads each record, as Spindrift's renderer does.
//
// Threads: as World. This header is self-contained (standard library and spindrift/runtime.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "spindrift/diagnostic.h"
#include "spindrift/export.h"
#include "spindrift/runtime.h"

namespace spindrift {

// The camera a list is built for.
struct DrawView {
    Vec3 eye;                    // camera position, world space: what sorting measures from
    Vec3 forward{0, 0, -1};      // viewing direction (any finite non-zero length)
    Vec3 up{0, 1, 0};            // roughly up; not parallel to forward
    float fov_y_deg = 45;        // vertical field of view, (0, 180)
    float aspect = 16.0f / 9.0f; // viewport width / height, > 0
    float near_m = 0.05f;        // 0 < near_m < far_m
    float far_m = 500;
    uint32_t viewport_width = 1280; // pixels, >= 1
    uint32_t viewport_height = 720;
    // The host composites alpha and premultiplied batches order-independently (weighted blended
    // OIT): their order does not change the image, so their particles are not sorted (sorted
    // false; counted in DrawListStats::sort_skipped_particles). Additive and opaque batches are
    // sorted by their mode either way.
    bool order_independent = false;
};

// FROZEN values: the effect format's render enums (docs/effect-format.md, "render").
enum class DrawKind : uint8_t {
    billboards = 0, // camera-facing (or aligned) quads, one per particle
    strips = 1,     // camera-facing bands along polylines: ribbons (trails) and beams
    meshes = 2,     // the emitter's mesh, once per particle
};

enum class DrawBlend : uint8_t {
    additive = 0,      // dst + src x alpha
    premultiplied = 1, // dst x (1 - alpha) + src (colour already multiplied by alpha)
    alpha = 2,         // dst x (1 - alpha) + src x alpha
    opaque = 3,        // meshes only: no blending, depth written
};

// How a billboard quad is oriented (the quad's size is the particle's size_m).
enum class DrawAlignment : uint8_t {
    camera = 0,           // faces the camera, turned by rotation_rad
    velocity_stretch = 1, // long axis along the velocity, stretched by speed x stretch_s
    axis = 2,             // long axis along DrawBatch::axis, turned about it toward the camera
    fixed = 3,            // a decal whose normal is DrawBatch::axis, turned by rotation_rad
};

enum class DrawSort : uint8_t {
    none = 0,          // the simulation's order
    back_to_front = 1, // farthest from the eye first
    front_to_back = 2,
    oldest_first = 3, // largest normalized_age first
    newest_first = 4,
};

// One particle of a billboard or mesh batch (64 bytes, the layout the GPU reads).
struct DrawParticle {
    Vec3 position; // world space, metres
    float size_m = 0;
    Color color; // linear, straight alpha, every colour op applied
    Vec3 velocity_m_per_s;
    float rotation_rad = 0;
    float normalized_age = 0;   // age / lifetime, [0, 1]
    float flipbook_frame = 0;   // [0, frames): whole part the frame, fraction the blend weight
    uint32_t emitter_index = 0; // compiled order
    uint32_t key = 0;           // the particle's stable random key
};

// One point of a strip polyline (48 bytes).
struct DrawStripPoint {
    Vec3 position;     // world space, metres
    float width_m = 0; // full width of the band here
    Color color;       // linear, straight alpha
    Vec3 tangent;      // unit direction of the polyline here
    float u = 0;       // texture coordinate along the strip
};

struct DrawBatch {
    DrawKind kind = DrawKind::billboards;
    DrawBlend blend = DrawBlend::additive;
    DrawSort sort = DrawSort::none; // the emitter's sort mode
    bool sorted = false; // particles (strips: segments, back to front) in `sort` order for this eye
    bool lit = false;    // shaded by the scene's lights (sun, ambient, sky, point and spot)
    // Lit billboards: render.lighting per_particle. The lights are gathered once per particle, at
    // its centre, as wrapped lobes (docs/rendering.md, "Lighting per particle"), not per pixel.
    bool lit_per_particle = false;
    bool device_resident = false; // see the top of this header
    InstanceHandle instance;
    EffectId effect;
    uint32_t emitter_index = 0;    // compiled order: EffectInfo::emitters, ::textures, ::meshes
    float instance_distance_m = 0; // from view.eye to the instance's origin (the order key)

    // Billboards and meshes: the particles in draw order.
    std::span<const DrawParticle> particles;
    // Strips: points, each polyline's consecutive and head (newest, or the beam's start) first;
    // segments: per drawn segment the index in vertices of its first point (it joins vertices[i]
    // and vertices[i + 1]).
    std::span<const DrawStripPoint> vertices;
    std::span<const uint32_t> segments;
    // Particles drawn: particles.size(), or for strips the particles the strips come from (on
    // the emitter's first batch when the order splits it; 0 on the others), or for a
    // device-resident batch the live count last known.
    uint64_t particle_count = 0;
    uint32_t device_max_count = 0; // device-resident only: the most it may draw
    // Device-resident only: the instance's colour tint and size scale, which the renderer
    // multiplies into each record's colour and size (a strip point's colour and width) as it
    // draws them. Ordinary batches have them in their particles and vertices already: 1.
    Color tint;
    float size_scale = 1;

    // Billboards.
    DrawAlignment alignment = DrawAlignment::camera;
    Vec3 axis{0, 1, 0};           // world-space unit axis (axis, fixed)
    float stretch_s = 0;          // velocity_stretch
    uint32_t flipbook_frames = 1; // the texture's cells used, row by row
    uint32_t flipbook_columns = 1;
    uint32_t flipbook_rows = 1;
    bool flipbook_blend = false; // blend toward the next frame by flipbook_frame's fraction
    float soft_fade_m = 0;       // billboards and strips: fade over this depth near surfaces

    // Meshes: the mesh scaled by size_m x mesh_scale, tumbling about a per-particle axis.
    float mesh_scale = 1;
    float mesh_tumble_rad_per_s = 0;

    // Every kind: the emitter's render.emissive (the colour's multiplier in an HDR frame, >= 0)
    // and render.emissive_share (the part drawn additively beside the premultiplied-over part, in
    // [0, 1], other than 0 only with blend premultiplied): docs/rendering.md, "Emissive".
    float emissive = 1;
    float emissive_share = 0;
    // Billboards: render.distortion. Above 0 the batch draws no colour: each quad bends the image
    // behind it (heat haze; docs/rendering.md, "Distortion") and a host renderer must draw it as
    // such, after everything else, from a copy of its frame, or leave it out; never as colour.
    // The quad's texture (EffectInfo::textures) then holds a displacement field, not colour.
    float distortion = 0;
};

// What building the list did (this list only).
struct DrawListStats {
    uint32_t instances_drawn = 0;        // instances with at least one batch
    uint64_t particles = 0;              // billboard, mesh and strip particles (device: last known)
    uint64_t strip_segments = 0;         // strip segments built on the host
    uint64_t sorted_particles = 0;       // particles put in order for this view
    uint64_t sort_skipped_particles = 0; // of sorting emitters, left unsorted (order_independent)
    uint32_t device_batches = 0;         // device-resident batches
    // The view's one back-to-front order across emitters and effects (see Order above):
    uint64_t sorted_strip_segments = 0; // strip segments sorted by their middle point
    uint32_t order_emitters = 0;        // emitters' batches that joined the one order
    uint32_t order_batches = 0;         // the batches the order made of them
    // Past kMaxDrawOrderSegments (4096) batches the order's farthest part is drawn emitter by
    // emitter: how many batches the exact order needed, and the particles and strip segments
    // drawn out of it (0 when the order is exact).
    uint64_t order_exact_batches = 0;
    uint64_t order_coarsened_items = 0;
};

// A list and its storage, reused from frame to frame. Move-only; a moved-from list may only be
// assigned to or destroyed.
class SPINDRIFT_API DrawList {
public:
    DrawList();
    ~DrawList();
    DrawList(DrawList&&) noexcept;
    DrawList& operator=(DrawList&&) noexcept;
    DrawList(const DrawList&) = delete;
    DrawList& operator=(const DrawList&) = delete;

    std::span<const DrawBatch> batches() const;
    const DrawListStats& stats() const;
    // Failures while building (a GPU instance's device failing: once per instance, which then
    // draws nothing). Empty when the last build had none.
    const std::vector<Diagnostic>& diagnostics() const;

    // The runtime's own access (defined in src/runtime).
    struct Impl;
    Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
};

// The four corners of a billboard particle's quad as Spindrift's renderer places it for `view`
// (alignment, rotation, stretch), counter-clockwise from (-1, -1) to (-1, 1) in the quad's own
// axes; texture v = 0 is at the last two. False (corners untouched) when batch is not a
// billboard batch.
SPINDRIFT_API bool billboardCorners(const DrawView& view, const DrawBatch& batch,
                                    const DrawParticle& particle, Vec3 corners[4]);

} // namespace spindrift
