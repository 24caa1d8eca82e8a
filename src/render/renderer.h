// The Vulkan renderer: one frame of a scene (ground, opaque primitives, particle batches) drawn
// offscreen and read back as an image. Headless; runs on a real GPU or on Mesa's lavapipe.
//
// The renderer draws what it is given and decides nothing about the simulation: the caller (the
// scene player, a host engine) steps the effects, writes DrawRecords, orders the batches and
// sorts the records of sorting emitters. The Vulkan objects stay behind this header (STYLE: no
// Vulkan types in interfaces above src/vulkan/ and src/render/).
//
// Colour: every input colour is linear. Textures are PNG colour in sRGB encoding (sampled
// through an _SRGB format, so the shader sees linear values); alpha is linear. The frame is
// rendered in linear HDR, bloomed, exposed and tone mapped as FrameView says, and written out
// sRGB-encoded, 8 bits per channel, alpha 255.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "image/image.h"
#include "image/mip_chain.h"
#include "kernels/draw_record.h"
#include "render/resource_handle.h"
#include "render/shader/billboard.h"
#include "render/shader/mesh.h"
#include "render/shader/strip_draw.h"
#include "spindrift/diagnostic.h"
#include "spindrift/scene_desc.h"

namespace spindrift::vk {
struct Context; // vulkan/context.h
}

namespace spindrift::render {

struct RendererConfig {
    uint32_t width = 1280; // pixels, [kMinResolution, kMaxResolution]
    uint32_t height = 720;
    // Which Vulkan device: "" picks the first discrete GPU, else the first integrated GPU, else
    // the first other device (lavapipe is a CPU device); a decimal number is an index into
    // listDevices(); anything else is a case-insensitive substring of the device name.
    std::string device;
    // Enables VK_LAYER_KHRONOS_validation (an error when the layer is missing). Every message it
    // reports is kept (validationMessages); the tests fail on any.
    bool validation = false;
};

struct DeviceInfo {
    uint32_t index = 0;
    std::string name;   // VkPhysicalDeviceProperties::deviceName
    std::string type;   // "discrete", "integrated", "virtual", "cpu" or "other"
    std::string driver; // driver name and info, when the device reports them
    uint32_t api_version = 0;
};

// The Vulkan devices present. With no Vulkan loader or driver, an error diagnostic names what
// is missing (and how to install lavapipe) and the list is empty.
std::vector<DeviceInfo> listDevices(std::vector<Diagnostic>& diagnostics);

class Renderer;

void destroyRenderer(Renderer* renderer);
struct RendererDeleter {
    void operator()(Renderer* r) const { destroyRenderer(r); }
};
using RendererPtr = std::unique_ptr<Renderer, RendererDeleter>;

// Creates the device, the offscreen targets and the pipelines. On failure (no Vulkan, no device,
// no device matching config.device, validation layer missing, a Vulkan call failing) returns
// nullptr and appends an error naming the cause; never throws, never aborts.
RendererPtr createRenderer(const RendererConfig& config, std::vector<Diagnostic>& diagnostics);

const DeviceInfo& rendererDevice(const Renderer& renderer);
// The renderer's Vulkan instance and device, for GPU simulation instances that should run on it
// (gpu::GpuConfig::shared_device) so the renderer draws their particles from the device.
std::shared_ptr<vk::Context> rendererContext(const Renderer& renderer);
// Validation-layer messages (warnings and errors) since the renderer was created, in order.
const std::vector<std::string>& validationMessages(const Renderer& renderer);

// Textures are uploaded once and named by a typed handle (TextureHandle: slot index and
// generation, render/resource_handle.h) that only the renderer that gave it understands;
// kNoTexture draws the procedural soft disc.
inline constexpr uint32_t kMaxTextures = 256;
// Uploads image (RGBA8: sRGB colour, or with TextureEncoding::data the displacement field a
// distortion billboard reads, as stored). Returns kNoTexture and appends an error (naming label,
// e.g. the file path) when the image is malformed or kMaxTextures are already loaded.
TextureHandle addTexture(Renderer& renderer, const Image& image, const std::string& label,
                         std::vector<Diagnostic>& diagnostics,
                         TextureEncoding encoding = TextureEncoding::color);

// Meshes (triangle lists, render/shader/mesh.h) are uploaded once and named by a typed handle
// (MeshHandle) that only the renderer that gave it understands.
inline constexpr uint32_t kMaxMeshes = 256;
// Uploads a mesh (mesh/obj_reader.h gives one: 1..kMaxMeshTriangles triangles, finite, unit
// normals). Returns its handle, or kNoMesh and an error naming label (e.g. the file path) when
// the vertex count is 0 or not a multiple of 3, kMaxMeshes are already loaded, or a Vulkan call
// fails.
MeshHandle addMesh(Renderer& renderer, std::span<const MeshVertex> vertices,
                   const std::string& label, std::vector<Diagnostic>& diagnostics);

// Which path draws the billboard batches of an offscreen frame (docs/rendering.md, "Compute
// rasteriser"): the graphics pipeline (vertex-pulled quads, blending in the raster), the compute
// rasteriser (tiles, per-tile blending in shared memory: for compute parts such as the H200,
// whose raster is weak, and for very large counts), or automatic: the compute rasteriser for the
// batches of at least FrameView::compute_raster_threshold particles (by default the device's:
// render/raster_threshold.h). Both give the same image within rounding. A host frame
// (vulkan_renderer.h) always uses the graphics path.
enum class RasterPath : uint8_t { graphics = 0, compute = 1, automatic = 2 };
// automatic's threshold on a device with a strong raster pipeline, in particles per batch: below
// it the compute path's fixed cost (its own binning submission, the sort's passes) outweighs what
// it saves.
inline constexpr uint64_t kDefaultComputeRasterThreshold = uint64_t{1} << 18;
// FrameView::compute_raster_threshold's default: the renderer's device's threshold
// (deviceComputeRasterThreshold, render/raster_threshold.h). Any other value is the threshold.
inline constexpr uint64_t kDeviceComputeRasterThreshold = 0;

// Motion vectors for hosts with temporal anti-aliasing (docs/rendering.md, "Motion vectors";
// render/shader/motion.h). Off by default: a frame without them records, allocates and reads back
// nothing more. With them, beside the colour the frame writes per pixel the screen-space motion
// of what the pixel shows: its position in this frame minus its position in the previous frame,
// in pixels of this frame, x to the right, y down (the image's rows, top to bottom); a TAA host
// reads its history at pixel - motion.
// - The opaque scene (ground, primitives, opaque meshes) and the background: the camera's motion,
//   reprojected from the opaque depth with previous_camera (the background as infinitely far:
//   only the camera's turn moves it). Without a previous camera, 0.
// - Particles, each point moved back along its particle's velocity over interval_s (previous =
//   position - velocity x interval_s), seen by the previous camera (the current one without it):
//   billboards (the quad's shape as now); mesh particles (each vertex under the previous
//   placement: the centre moved back, the tumble turned back by its rate, the record's rotation
//   and size as now); ribbons (every point of a particle's polyline by that particle's velocity:
//   the ribbon's look is measured from its head, so it moves with the particle; StripBatch::
//   velocities, DeviceStrips::records); beams stand still (their points come from the emitter's
//   curve, whose previous ends are not kept: the camera's motion of their surface). A fragment
//   writes where its coverage (the alpha it blends with; 1 for opaque meshes) is at least
//   coverage_threshold: opaque meshes first (where they are the visible surface), then the rest
//   in the frame's batch order (sorted: the nearest such particle wins); below it, the pixel keeps
//   what is behind. Additive batches add light and cover nothing: they write no motion unless
//   additive_writes. Distortion billboards write none (the pixel keeps what is behind).
struct MotionVectorsDesc {
    bool enabled = false;
    // The previous frame's camera (its pose and vertical field of view; near, far and aspect are
    // this frame's), valid as FrameView's own. Without one the camera's motion is 0.
    bool has_previous_camera = false;
    CameraPose previous_camera;
    float previous_fov_deg = 45;
    // Seconds between the previous frame and this one: particles move velocity x interval_s.
    // Finite, in [0, kMaxMotionIntervalS].
    float interval_s = 1.0f / 60.0f;
    // Finite, in [0, 1]. 0: every fragment of a batch that writes motion writes it.
    float coverage_threshold = 0.5f;
    bool additive_writes = false;
    // Every motion written is multiplied by this, per axis: (1, 1) writes the convention's pixels
    // (docs/rendering.md, "Motion vectors"); a host frame's motion image takes its host's own
    // convention: (1 / width, 1 / height) for UV, negated for previous minus current, (2 / width,
    // 2 / height) for NDC. Finite, each in [-kMaxMotionOutputScale, kMaxMotionOutputScale].
    vec2 output_scale = vec2(1.0f);
};
inline constexpr float kMaxMotionIntervalS = 1.0f;
inline constexpr float kMaxMotionOutputScale = 1000.0f;

// A frame's motion vectors (MotionVectorsDesc): width x height pixels, rows top to bottom, two
// floats each (x, y in pixels), read back from half floats.
struct MotionImage {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<float> xy;
};

// Depth-buffer collision's input (docs/rendering.md, "Scene depth for collision"): an offscreen
// frame asked for it copies its opaque linear depth (the ground, scene primitives and opaque
// meshes; kSceneDepthCleared where none) at the end of its draws into a device buffer the GPU
// simulation reads at an address (device) and also into host memory CPU instances read
// (device_and_host). lastSceneDepth hands it to the next frame's steps: one frame late, as in a
// game. A host frame copies nothing.
enum class SceneDepthOutput : uint8_t { none = 0, device = 1, device_and_host = 2 };

// What the frame looks at and is lit by.
// A segment of the line overlay (FrameView::overlay): world space, one pixel wide, drawn over the
// finished frame (after the HDR post) with no depth test and no blending, so each pixel it
// covers reads back as exactly `color`. The editor's gizmos (docs/editor.md, "Gizmos").
struct OverlayLine {
    Float3 from;
    Float3 to;
    Float3 color{1, 1, 1}; // display colour as the image holds it (sRGB-encoded), each in [0, 1]
};
// Segments one frame's overlay may hold; renderFrame refuses more.
inline constexpr uint32_t kMaxOverlayLines = 1u << 16;

struct FrameView {
    CameraPose camera;  // scene_desc.h: eye, target, up (world space)
    float fov_deg = 45; // vertical
    float near_m = 0.05f;
    float far_m = 500;
    Float3 background{0.02f, 0.02f, 0.03f};
    GroundDesc ground;
    std::span<const PrimitiveDesc> primitives;
    SunDesc sun;
    // Sun shadows (scene_desc.h, docs/rendering.md "Shadows"): off here, like the post: the
    // renderer draws what it is told, and a scene's defaults turn them on (frameView,
    // render/scene_player.h). Each value in the scene format's range, else renderFrame refuses
    // the frame. A host frame (vulkan_renderer.h) draws them too: its lit particles and meshes
    // receive; the host's own surfaces are its engine's business.
    ShadowDesc shadows{false};
    Float3 ambient{0.12f, 0.12f, 0.15f};
    // Direction-dependent ambient (scene_desc.h, SkyDesc; docs/rendering.md, "Sky light"), added
    // to ambient; valid as the scene format holds it (else renderFrame refuses the frame). Black
    // by default: nothing.
    SkyDesc sky;
    // Point and spot lights (scene_desc.h), each valid as the scene format holds it (else
    // renderFrame refuses the frame). The first kMaxFrameLights (render/shader/lighting.h) light
    // the frame, in this order; the rest are dropped and counted (FrameStats::lights_dropped). A
    // scene player puts the scene's lights first, then its instances' particle lights.
    std::span<const LightDesc> lights;
    // How alpha-blended and premultiplied batches composite (scene_desc.h): sorted draws them in
    // the order given; weighted_oit draws them through weighted-blended order-independent
    // transparency, where their order (batches and records) does not matter (drawsThroughOit).
    Transparency transparency = Transparency::sorted;
    // HDR post (docs/rendering.md, "Colour pipeline"; scene_desc.h): bloom, exposure and tone
    // mapping on the GPU between the drawing and the readback. Off here (no tone map, no bloom,
    // exposure 2^0): the renderer draws what it is told, and the frame is read back as drawn; a
    // scene's defaults turn them on (frameView, render/scene_player.h).
    ExposureDesc exposure;
    Tonemap tonemap = Tonemap::none;
    BloomDesc bloom{0.0f, 6};
    // Scene seconds of the frame. Automatic exposure adapts by the time since the renderer's
    // previous frame when continues_previous says this frame follows it in one sequence (a
    // video's next frame, the viewer's next frame) and that time is in (0, 1] s; otherwise it
    // starts at the converged value (a still, the first frame, a seek, another scene): a still is
    // the same whatever the renderer drew before, and frame T of a sequence rendered from its
    // start is the same every run.
    float time_s = 0;
    bool continues_previous = false;
    // Billboards: graphics, compute or automatic (RasterPath). Batches drawn through OIT
    // (weighted_oit) always take the graphics path.
    RasterPath raster = RasterPath::graphics;
    uint64_t compute_raster_threshold = kDeviceComputeRasterThreshold;
    // The most (tile, particle) pairs the compute rasteriser bins in a frame, at most (and by
    // default) kMaxComputeRasterPairs (render/compute_raster.h: 16 bytes a pair with the sort's
    // scratch); a frame needing more is refused with raster compute and drawn by the graphics
    // path with automatic (FrameStats::raster_fallbacks).
    uint64_t compute_raster_max_pairs = uint64_t{1} << 28;
    // Motion vectors beside the colour (MotionVectorsDesc); off by default. A frame that asks for
    // them must be rendered with a MotionImage to hold them (renderFrame).
    MotionVectorsDesc motion;
    // The opaque linear depth for depth-buffer collision (SceneDepthOutput); none by default.
    SceneDepthOutput scene_depth = SceneDepthOutput::none;
    // Half-resolution particles (scene_desc.h, ParticleResolution; docs/rendering.md
    // "Half-resolution particles"; render/half_res_pass.h): with half, the billboards and strips
    // of the frame's particle phase (blended into the frame in sorted order: not those drawn
    // through OIT, not distortion billboards, not batches the compute rasteriser draws) draw into
    // a layer of half the width and height, tested against and soft-faded by the nearest depth of
    // each 2 x 2 block, and the layer is blended over the frame after the phase's other batches
    // (blended meshes, compute-drawn billboards) with a depth-aware upsample. Offscreen frames
    // only; off (full) by default: a frame at full resolution records nothing more.
    ParticleResolution particle_resolution = ParticleResolution::full;
    // Drawn last, over the tone-mapped frame (OverlayLine); offscreen frames only (a host frame
    // counts them in FrameStats::overlay_not_drawn). Every coordinate finite, every colour
    // channel in [0, 1], at most kMaxOverlayLines, else renderFrame refuses the frame.
    std::span<const OverlayLine> overlay;
};

// What the last frame copied: valid only when that frame asked and succeeded. The buffers stay
// as they are until the next frame that asks (a frame of another size frees them after waiting
// for the device); host is null without the host copy.
struct SceneDepthCopy {
    bool valid = false;
    uint64_t device_address = 0; // on the renderer's device (rendererContext)
    const float* host = nullptr; // width x height, rows from the top
    uint32_t width = 0;
    uint32_t height = 0;
    Float3 eye;
    Float3 forward; // unit
    Float3 up;      // unit, perpendicular to forward: the image's up
    float fov_deg = 0;
    float near_m = 0;
};
const SceneDepthCopy& lastSceneDepth(const Renderer& renderer);

// Billboard records that stay on the renderer's device (a GPU simulation instance on
// rendererContext, gpu::drawSource): the renderer draws min(*count, max_records) of them with an
// indirect draw, reading nothing back. Addresses are buffer device addresses on the renderer's
// device; the device work that wrote them must have been submitted before renderFrame.
struct DeviceRecords {
    // DrawRecords, world space: one run at `records` (chunk_records 0), or spread over chunks of
    // chunk_records records each, `records` then being a table of the chunks' addresses (uint64)
    // whose first chunk holds record 0 at first_in_chunk (kernels/draw_record.h,
    // sdDrawRecordPlace). Either way one draw, sorted or not.
    uint64_t records = 0;
    uint32_t chunk_records = 0;
    uint32_t first_in_chunk = 0;
    uint64_t count = 0;       // a uint32: how many to draw
    uint64_t order = 0;       // 0, or uint32 record indices: the draw order
    uint32_t max_records = 0; // the most drawn (records and order hold at least this)
};

// Whether a batch of blend mode `blend` (kBlend*) is drawn through weighted-blended OIT when the
// frame's transparency is `transparency`: alpha and premultiplied batches in weighted_oit mode.
// Such a batch's draw order does not change the image, so sorting its records is wasted work:
// the scene player skips the sort for them (and counts what it skipped). Additive batches are
// drawn with their own blending in every mode.
bool drawsThroughOit(Transparency transparency, uint32_t blend);

// Whether a billboard batch bends the frame behind it (render.distortion, kRenderFlagDistortion:
// docs/rendering.md, "Distortion") instead of drawing colour: drawn after every other particle,
// from a copy of the frame, on the graphics path only.
inline bool isDistortion(const BillboardParams& params) {
    return (params.render_flags & kRenderFlagDistortion) != 0u;
}

// Whether a billboard batch writes motion vectors in a frame that draws them (MotionVectorsDesc):
// every one but distortion billboards and, unless additive_writes, additive ones.
inline bool writesMotion(const BillboardParams& params, const MotionVectorsDesc& motion) {
    if (isDistortion(params)) return false;
    return params.blend != kBlendAdditive || motion.additive_writes;
}
// Strips and mesh particles: every one but, unless additive_writes, additive ones.
inline bool writesMotion(const StripParams& params, const MotionVectorsDesc& motion) {
    return params.blend != kBlendAdditive || motion.additive_writes;
}
inline bool writesMotion(const MeshParams& params, const MotionVectorsDesc& motion) {
    return params.blend != kBlendAdditive || motion.additive_writes;
}

// How an emitter's texture is uploaded: a distortion emitter's displacement field as data (never
// sRGB-decoded), any other as colour.
inline TextureEncoding textureEncoding(const EmitterRecord& emitter) {
    return (emitter.render_flags & kRenderFlagDistortion) != 0u ? TextureEncoding::data
                                                                : TextureEncoding::color;
}

// One emitter's billboards. params come from billboardParams (render/billboard_params.h), the
// one function that turns an emitter's render settings into what the shaders read; the renderer
// sets params.textured from texture (1 unless kNoTexture). records are drawn in the order
// given: the caller has already sorted them when the emitter sorts. Records are in world space.
// A batch either has host records or (device.records != 0, records empty) device records.
struct BillboardBatch {
    BillboardParams params{};
    TextureHandle texture = kNoTexture;
    std::span<const DrawRecord> records;
    DeviceRecords device; // Multiplied into each record's colour and size as it is drawn
                          // (render/shader/billboard.h,
    // DrawOverrides): a device-resident batch's instance tint and size scale; host records carry
    // them already (the draw list applies them), so 1. Finite and >= 0.
    DrawOverrides overrides{vec4(1.0f), 1.0f, 0u, 0u, 0u};
};

// Strip polylines that stay on the renderer's device (a GPU simulation's ribbons,
// gpu::deviceStripSource), in fixed blocks: polyline i (i < min(*count, max_strips)) has
// point_counts[i] points (fewer than 2: none drawn) at points[i x points_per_strip], head first.
// The renderer draws points_per_strip - 1 segments per polyline with an indirect draw whose count
// comes from *count, the segments past a polyline's points as zero-area triangles; it reads
// nothing back. Addresses as in DeviceRecords.
struct DeviceStrips {
    uint64_t points = 0;           // StripPoints, world space
    uint64_t point_counts = 0;     // a uint per polyline
    uint64_t count = 0;            // a uint32: how many polylines
    uint32_t points_per_strip = 0; // >= 2
    uint32_t max_strips = 0;       // the most drawn (points and point_counts hold at least this)
    // Motion vectors only (MotionVectorsDesc): the polylines' DrawRecords, polyline i's particle
    // being record i, addressed as DeviceRecords::records, chunk_records and first_in_chunk (at
    // least max_strips of them); each polyline moves by its record's velocity. 0: the points
    // stand still (beams).
    uint64_t records = 0;
    uint32_t chunk_records = 0;
    uint32_t first_in_chunk = 0;
};

// One emitter's strips (ribbons or beams): polylines drawn as camera-facing bands
// (render/shader/strip_draw.h). params come from stripParams (render/strip_params.h); the renderer
// sets params.textured from texture. points hold the polylines, each head first; segments hold, per
// drawn segment, the index in points of its first point (the segment joins points[i] and
// points[i + 1]). Segments are drawn in the order given (the draw list sorts alpha-blended
// strips' segments by their middle point: runtime/draw_list_order.h).
// Points are in world space. A batch either has host points and segments or (device.points != 0,
// points and segments empty) device strips.
struct StripBatch {
    StripParams params{};
    TextureHandle texture = kNoTexture;
    std::span<const StripPoint> points;
    std::span<const uint32_t> segments;
    DeviceStrips device; // Multiplied into each point's colour and width as it is drawn
                         // (render/shader/billboard.h,
    // DrawOverrides): a device-resident batch's instance tint and size scale; host points carry
    // them already (the draw list applies them), so 1. Finite and >= 0.
    DrawOverrides overrides{vec4(1.0f), 1.0f, 0u, 0u, 0u};
    // Motion vectors only (MotionVectorsDesc): host points' world velocities (xyz, m/s; w unused),
    // one per point (else renderFrame refuses the batch), or empty: the points stand still
    // (beams). A ribbon's points all carry their particle's velocity (writeRibbonStrips).
    std::span<const vec4> velocities{};
};

// One emitter's mesh particles: every record draws the mesh `mesh` (addMesh), placed by
// sdMeshPlacement (render/shader/mesh.h: position, size x scale, tumble), coloured by the record's
// colour, lit by the sun and ambient when params.render_flags has kRenderFlagLit, with
// params.blend; back faces culled, depth tested and not written. params come from meshParams
// (render/mesh_params.h); the renderer sets params.vertex_count from the mesh. Records are drawn
// in the order given (sorted by the caller when the emitter sorts), in world space; a batch
// either has host records or (device.records != 0, records empty) device records.
struct MeshBatch {
    MeshParams params{};
    MeshHandle mesh = kNoMesh;
    std::span<const DrawRecord> records;
    DeviceRecords device;
    // From addTexture, sampled at each vertex's (u, v) and multiplied by the particle's colour;
    // kNoTexture: the colour alone.
    TextureHandle texture = kNoTexture; // Multiplied into each record's colour and size as it is
                                        // drawn (render/shader/billboard.h,
    // DrawOverrides): a device-resident batch's instance tint and size scale; host records carry
    // them already (the draw list applies them), so 1. Finite and >= 0.
    DrawOverrides overrides{vec4(1.0f), 1.0f, 0u, 0u, 0u};
};

// One entry of a frame's draw list: billboards, strips or meshes. renderFrame draws the entries
// in the order given, whatever their kind.
using DrawBatch = std::variant<BillboardBatch, StripBatch, MeshBatch>;

// The host draw records of a batch (billboards, meshes); empty for strips and device batches.
std::span<const DrawRecord> hostRecords(const DrawBatch& batch);

struct FrameStats {
    uint64_t particles_drawn = 0; // billboard records from the host
    uint64_t device_batches = 0;  // billboard batches drawn from device records (counts unread)
    uint64_t device_strip_batches = 0; // strip batches drawn from device strips (counts unread)
    uint64_t strip_segments = 0;       // strip segments from the host
    uint64_t oit_records = 0;          // of particles_drawn and mesh_particles, drawn through OIT
    uint64_t oit_segments = 0;         // of strip_segments, drawn through OIT
    uint64_t mesh_particles = 0;       // mesh records from the host (each draws its mesh)
    uint64_t device_mesh_batches = 0;  // mesh batches drawn from device records (counts unread)
    uint32_t batches = 0;
    double gpu_ms = 0;      // GPU time of the frame's passes (timestamp queries), 0 if unsupported
    double gpu_post_ms = 0; // of gpu_ms, the HDR post (bloom, exposure, tone map)
    double gpu_readback_ms = 0; // of gpu_ms, the copy of the frame to host-visible memory
    float exposure = 1;         // the exposure multiplier the frame used (automatic: as adapted)
    // The compute rasteriser (RasterPath): the billboard batches it drew, their (tile, particle)
    // pairs, 1 when automatic sent the frame's batches to the graphics path because they would
    // have needed more than kMaxComputeRasterPairs pairs, and the GPU time of its binning
    // submission before the frame (projection and scan; included in gpu_ms).
    uint32_t raster_batches = 0;
    uint64_t raster_pairs = 0;
    uint32_t raster_fallbacks = 0;
    double gpu_raster_bin_ms = 0;
    // Point and spot lights (FrameView::lights): those the frame shaded with, and those past
    // kMaxFrameLights it dropped.
    uint32_t lights_drawn = 0;
    uint32_t lights_dropped = 0;
    // Sun shadows (FrameView::shadows): the cascades drawn (0: none), the blended billboard and
    // strip batches drawn into the opacity map, 1 when one of them has device records or points
    // (then the map covers the last cascade's whole extent).
    uint32_t shadow_cascades = 0;
    uint32_t shadow_opacity_batches = 0;
    uint32_t shadow_opacity_device = 0;
    uint32_t shadow_cutout_batches = 0; // billboard and strip batches cast as cutouts (cascades)
    // Point- and spot-light shadows (LightDesc::shadows, docs/rendering.md "Shadows of local
    // lights"): the lights drawn with shadow maps, and those whose tiles no longer fitted the
    // kLocalShadowTiles of the atlas (they shade unshadowed).
    uint32_t local_shadows = 0;
    uint32_t local_shadows_dropped = 0;
    // The blended billboard and strip batches drawn into the local lights' opacity atlas (each
    // into every tile in use; 0 without local shadows).
    uint32_t local_shadow_opacity_batches = 0;
    // Distortion billboards (docs/rendering.md, "Distortion"): the batches drawn, and those a
    // host frame left out (it has no copy of the host's colour to read).
    uint32_t distortion_batches = 0;
    uint32_t distortion_not_drawn = 0;
    // Motion vectors (FrameView::motion): the batches that wrote their particles' motion
    // (writesMotion: billboards, strips and meshes), and of them the strip and the mesh batches.
    uint32_t motion_batches = 0;
    uint32_t motion_strip_batches = 0;
    uint32_t motion_mesh_batches = 0;
    // Half-resolution particles (FrameView::particle_resolution): the billboard and strip batches
    // drawn into the half-resolution layer.
    uint32_t half_res_batches = 0;
    // The line overlay (FrameView::overlay): the segments drawn, and 1 when a host frame left
    // them out.
    uint32_t overlay_lines = 0;
    uint32_t overlay_not_drawn = 0;
};

// Per frame, all batches together: the most draw records (billboards and meshes), strip points
// and strip segments from the host, and batches from the device (billboard records, strips and
// meshes together).
inline constexpr uint64_t kMaxDrawRecords = 1u << 24;
inline constexpr uint32_t kMaxDeviceBatches = 4096;
inline constexpr uint64_t kMaxStripPoints = 1u << 22;
inline constexpr uint64_t kMaxStripSegments = 1u << 22;

// Draws one frame: clear to the background, the ground and primitives (opaque, lit by sun and
// ambient), then the batches in order with their blend modes, and reads it back into out. With
// view.transparency weighted_oit, the batches drawsThroughOit names are accumulated into the OIT
// targets (in any order) after the other batches are drawn, and composited over the frame last
// (docs/rendering.md, "Transparency"). out is width x height, see Colour above. Returns false with
// an error diagnostic if a Vulkan call fails, the view is invalid (fov outside [1, 179], near/far
// not 0 < near < far, post settings outside the scene format's ranges) or a batch is malformed (a
// texture handle other than kNoTexture that is unknown to this renderer or stale, an unknown enum,
// a flipbook count of 0, a segment whose index does not leave room for its second point, a mesh
// handle that is kNoMesh, unknown or stale, more than kMaxDrawRecords records, kMaxStripPoints
// points or kMaxStripSegments segments in all, a batch whose overrides are not finite and >= 0, a
// batch with both host and device records or device records without a count, device strips without
// a count or point counts or with fewer than 2 points per strip, more than kMaxDeviceBatches device
// batches). Synchronous: returns when the frame is in out. Not thread-safe: one thread at a time
// per renderer. docs/rendering.md describes the passes and equations.
bool renderFrame(Renderer& renderer, const FrameView& view, std::span<const DrawBatch> batches,
                 Image& out, FrameStats& stats, std::vector<Diagnostic>& diagnostics);

// renderFrame, and with view.motion.enabled the frame's motion vectors into motion (resized to
// the frame); motion is left as it is when the view does not ask for them. A view that asks for
// motion vectors with motion null, or whose motion settings are out of range (a non-finite or
// out-of-range interval, threshold or previous camera), is refused with an error naming the field.
bool renderFrame(Renderer& renderer, const FrameView& view, std::span<const DrawBatch> batches,
                 Image& out, MotionImage* motion, FrameStats& stats,
                 std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::render
