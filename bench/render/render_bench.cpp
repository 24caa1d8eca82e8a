// The renderer's frame time: 100k billboards at 1280x720 and 1920x1080, against an empty frame
// (clear, ground, readback) of the same size measured in the same run (DESIGN rule 8). Alpha
// blending two ways: sorted back to front on the CPU every frame, or weighted-blended OIT with no
// sort (docs/rendering.md, "Transparency"). Wall time per frame is what a caller of
// renderFrame waits (record upload, draw, readback of the image); gpu_ms is the device time of
// the passes (timestamp queries) up to and with the copy of the frame into host-visible memory,
// of which post_ms is the HDR post and readback_ms the copy. The sorted alpha frame is also drawn
// cut into 512 and 4096 batches (what the draw list's one order across effects makes of
// interleaved emitters), against the same frame in one batch. The HDR post
// (bloom, exposure, tone map; docs/rendering.md, "Colour pipeline") is measured as the same
// frames with the scene format's default post (ACES, bloom 0.05 over 6 levels) and with automatic
// exposure on top, against the frame without it, in the same run. Point lights (docs/rendering.md,
// "Lights"): 100k lit alpha discs under 0, 16 and 64 point lights of 3 m and 1 m range, the
// 0-light frame the reference in the same run (each lit pixel visits its light cluster's lights).
// Textured additive billboards (a 128-texel glow with its mip chain) against the soft discs.
//
// Device: SPINDRIFT_BENCH_DEVICE (as `spindrift render --device`; empty picks the first GPU,
// else lavapipe). Run: build/bin/render_bench  (docs/benchmarks.md has the figures). The last
// argument of each benchmark is the frame height (720: 1280x720, 1080: 1920x1080).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "kernels/random.h"
#include "render/billboard_params.h"
#include "render/particle_sort.h"
#include "render/renderer.h"

namespace spindrift::render {
namespace {

// One renderer per frame size, made on first use and kept for the run; main() destroys them
// before it returns. Left to static destruction they outlived the driver: this map is built on
// the first call, before createRenderer loads the Vulkan driver, so exit() destroyed it after
// the driver's own exit-time teardown had run, and destroying the devices then crashed
// (NVIDIA's driver, on the H200).
std::map<uint32_t, RendererPtr>& renderers() {
    static std::map<uint32_t, RendererPtr> shared;
    return shared;
}

Renderer* sharedRenderer(uint32_t height) {
    std::map<uint32_t, RendererPtr>& by_height = renderers();
    auto found = by_height.find(height);
    if (found != by_height.end()) return found->second.get();
    RendererConfig config;
    config.width = height * 16 / 9;
    config.height = height;
    const char* device = std::getenv("SPINDRIFT_BENCH_DEVICE");
    config.device = device != nullptr ? device : "";
    std::vector<Diagnostic> diagnostics;
    RendererPtr r = createRenderer(config, diagnostics);
    for (const Diagnostic& d : diagnostics)
        std::fprintf(stderr, "%s\n", formatDiagnostic(d).c_str());
    if (r) {
        std::fprintf(stderr, "render_bench: device %s, %ux%u\n", rendererDevice(*r).name.c_str(),
                     config.width, config.height);
    }
    return by_height.emplace(height, std::move(r)).first->second.get();
}

FrameView benchView() {
    FrameView view;
    view.camera.eye = {0, 2, 9};
    view.camera.target = {0, 1.5f, 0};
    view.camera.up = {0, 1, 0};
    return view;
}

BillboardParams paramsFor(uint32_t blend) {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.axis = vec4(0, 1, 0, 0);
    e.blend = blend;
    e.alignment = kAlignCamera;
    e.emission = vec4(1, 0, 0, 0); // emissive 1: the colour as given
    return billboardParams(e, Rows3x4{});
}

// count particles spread through a 8 x 4 x 4 m box in front of the camera, edge `size` metres,
// colours and ages varied; the same every run.
std::vector<DrawRecord> particles(size_t count, float size) {
    std::vector<DrawRecord> records(count);
    for (size_t i = 0; i < count; ++i) {
        const uint key = sdParticleKey(1u, 0u, static_cast<uint>(i), 0u);
        const vec3 p(8.0f * sdRandom01(key, 0u) - 4.0f, 4.0f * sdRandom01(key, 1u) - 0.5f,
                     4.0f * sdRandom01(key, 2u) - 2.0f);
        const vec4 color(sdRandom01(key, 3u), 0.5f, sdRandom01(key, 4u), 0.6f);
        records[i] = sdDrawRecord(p, size, color, vec3(0), 6.28f * sdRandom01(key, 5u),
                                  sdRandom01(key, 6u), 0.0f, 0u, key);
    }
    return records;
}

// Frames of `height` lines. sort_records: sorted back to front on the
// CPU before each frame, as the scene player does for sorted alpha emitters.
// post: 0 none, 1 the scene defaults (ACES, bloom), 2 those with automatic exposure. sun false: no
// sun (so no sun shadows either).
void runFrames(benchmark::State& state, std::span<const DrawBatch> batches,
               std::vector<DrawRecord>* sort_records, Transparency transparency,
               int64_t height_lines, int64_t post = 0, RasterPath raster = RasterPath::graphics,
               std::span<const LightDesc> lights = {}, const ShadowDesc* shadows = nullptr,
               const MotionVectorsDesc* motion = nullptr,
               ParticleResolution particle_resolution = ParticleResolution::full, bool sun = true) {
    const auto height = static_cast<uint32_t>(height_lines);
    Renderer* renderer = sharedRenderer(height);
    if (renderer == nullptr) {
        state.SkipWithError("no Vulkan device (see stderr)");
        return;
    }
    FrameView view = benchView();
    view.transparency = transparency;
    view.raster = raster;
    view.lights = lights;
    view.particle_resolution = particle_resolution;
    if (!sun) view.sun.intensity = 0;
    // The shadow cases: a box and a sphere on the ground among the particles, the shadows as
    // given (enabled false: the reference frame of the same scene).
    const PrimitiveDesc casters[] = {
        PrimitiveDesc{
            PrimitiveKind::box, {-2, 0.75f, 0}, {1.5f, 1.5f, 1.5f}, 0.5f, {0.6f, 0.5f, 0.4f}},
        PrimitiveDesc{PrimitiveKind::sphere, {2, 1, 0.5f}, {1, 1, 1}, 1.0f, {0.5f, 0.6f, 0.7f}}};
    if (shadows != nullptr) {
        view.primitives = casters;
        view.shadows = *shadows;
    }
    if (post != 0) {
        const SceneDesc scene;
        view.tonemap = scene.tonemap;
        view.bloom = scene.bloom;
        if (post == 2) view.exposure.mode = ExposureMode::automatic;
    }
    MotionImage motion_image;
    if (motion != nullptr) view.motion = *motion;
    Image image;
    FrameStats stats;
    SortScratch scratch;
    std::vector<Diagnostic> diagnostics;
    double gpu_ms = 0;
    double post_ms = 0;
    double readback_ms = 0;
    for (auto _ : state) {
        if (sort_records != nullptr) {
            sortDrawRecords(*sort_records, kSortBackToFront, vec3(0, 2, 9), scratch);
        }
        if (!renderFrame(*renderer, view, batches, image, &motion_image, stats, diagnostics)) {
            state.SkipWithError(formatDiagnostic(diagnostics.back()).c_str());
            return;
        }
        gpu_ms += stats.gpu_ms;
        post_ms += stats.gpu_post_ms;
        readback_ms += stats.gpu_readback_ms;
    }
    const auto frames = static_cast<double>(state.iterations());
    state.counters["gpu_ms"] = gpu_ms / frames;
    state.counters["post_ms"] = post_ms / frames;
    state.counters["readback_ms"] = readback_ms / frames;
    state.counters["particles"] = static_cast<double>(stats.particles_drawn);
    if (raster != RasterPath::graphics) {
        state.counters["raster_pairs"] = static_cast<double>(stats.raster_pairs);
    }
    if (particle_resolution == ParticleResolution::half) {
        state.counters["half_res_batches"] = static_cast<double>(stats.half_res_batches);
    }
    if (shadows != nullptr) {
        state.counters["shadow_cascades"] = static_cast<double>(stats.shadow_cascades);
        state.counters["opacity_batches"] = static_cast<double>(stats.shadow_opacity_batches);
        state.counters["cutout_batches"] = static_cast<double>(stats.shadow_cutout_batches);
        state.counters["local_shadows"] = static_cast<double>(stats.local_shadows);
    }
}

// The reference: a frame with nothing but the background, ground and readback.
void BM_EmptyFrame(benchmark::State& state) {
    runFrames(state, {}, nullptr, Transparency::sorted, state.range(0));
}

// 100k additive soft discs: no sorting, order-independent blending.
void BM_Additive100k(benchmark::State& state) {
    const std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAdditive), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1));
}

// 100k alpha-blended soft discs sorted back to front on the CPU every frame (radix sort).
void BM_AlphaSorted100k(benchmark::State& state) {
    std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, &records, Transparency::sorted, state.range(1));
}

// The same 100k sorted alpha discs cut into range(2) batches of consecutive records, as the draw
// list's one order across effects cuts interleaved emitters (docs/rendering.md, "Draw order
// across effects"): the same image, range(2) draws; against BM_AlphaSorted100k (one draw).
void BM_AlphaSorted100kSplit(benchmark::State& state) {
    std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const auto pieces = static_cast<size_t>(state.range(2));
    std::vector<DrawBatch> batches;
    for (size_t i = 0; i < pieces; ++i) {
        const size_t first = records.size() * i / pieces, end = records.size() * (i + 1) / pieces;
        batches.push_back(
            BillboardBatch{paramsFor(kBlendAlpha),
                           kNoTexture,
                           std::span<const DrawRecord>(records).subspan(first, end - first),
                           {}});
    }
    runFrames(state, batches, &records, Transparency::sorted, state.range(1));
    state.counters["batches"] = static_cast<double>(pieces);
}

// The same 100k sorted alpha discs drawn by the compute rasteriser (docs/rendering.md, "Compute
// rasteriser"): its binning submission, then the tile sort and the per-tile blend; against
// BM_AlphaSorted100k (the graphics path) and BM_EmptyFrame.
void BM_AlphaSorted100kCompute(benchmark::State& state) {
    std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, &records, Transparency::sorted, state.range(1), 0,
              RasterPath::compute);
}

// The same 100k alpha-blended discs through weighted-blended OIT: no sort, two more targets and a
// full-screen composite.
void BM_AlphaOit100k(benchmark::State& state) {
    const std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, nullptr, Transparency::weighted_oit, state.range(1));
}

// The empty frame and the 100k additive discs of 8 cm with HDR post: range(0) the post
// (runFrames), range(1) the frame height. Their references are BM_EmptyFrame and
// BM_Additive100k/8.
void BM_EmptyFramePost(benchmark::State& state) {
    runFrames(state, {}, nullptr, Transparency::sorted, state.range(1), state.range(0));
}

void BM_Additive100kPost(benchmark::State& state) {
    const std::vector<DrawRecord> records = particles(100000, 0.08f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAdditive), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1), state.range(0));
}

// count point lights spread over the particles' box, warm to cool, range_m each; the same every
// run.
std::vector<LightDesc> pointLights(size_t count, float range_m) {
    std::vector<LightDesc> lights(count);
    for (size_t i = 0; i < count; ++i) {
        const uint key = sdParticleKey(2u, 0u, static_cast<uint>(i), 0u);
        lights[i].position = {8.0f * sdRandom01(key, 0u) - 4.0f, 4.0f * sdRandom01(key, 1u) - 0.5f,
                              4.0f * sdRandom01(key, 2u) - 2.0f};
        lights[i].color = {1.0f, sdRandom01(key, 3u), 0.3f};
        lights[i].intensity = 2;
        lights[i].range = range_m;
    }
    return lights;
}

// 100k lit alpha discs of 40 cm, unsorted (the lights are the measure, not the sort), under
// range(0) point lights of range(2) decimetres' range: 0 lights is the reference. 3 m lights reach
// across much of the particles' 8 m box (most light clusters hold most lights); 1 m ones are
// embers' and torches' lights, where clustering pays.
void BM_Lit100kLights(benchmark::State& state) {
    const std::vector<DrawRecord> records = particles(100000, 0.4f);
    BillboardParams lit = paramsFor(kBlendAlpha);
    lit.render_flags |= kRenderFlagLit;
    const DrawBatch batch = BillboardBatch{lit, kNoTexture, records, {}};
    const std::vector<LightDesc> lights =
        pointLights(static_cast<size_t>(state.range(0)), static_cast<float>(state.range(2)) / 10);
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1), 0,
              RasterPath::graphics, lights);
}

// BM_Lit100kLights's frame lit per pixel or per particle (render.lighting; docs/rendering.md,
// "Lighting per particle"): range(0) point lights of range(2) decimetres, range(3) 1 with the
// scene's default sun shadows, range(4) 1 drawn by the compute rasteriser, range(5) 1 per particle
// (0 per pixel: the reference for the same frame in the same run).
void BM_LitPerParticle100k(benchmark::State& state) {
    const std::vector<DrawRecord> records = particles(100000, 0.4f);
    BillboardParams lit = paramsFor(kBlendAlpha);
    lit.render_flags |= kRenderFlagLit;
    if (state.range(5) != 0) lit.render_flags |= kRenderFlagLitPerParticle;
    const DrawBatch batch = BillboardBatch{lit, kNoTexture, records, {}};
    const std::vector<LightDesc> lights =
        pointLights(static_cast<size_t>(state.range(0)), static_cast<float>(state.range(2)) / 10);
    ShadowDesc shadows;
    shadows.enabled = state.range(3) != 0;
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1), 0,
              state.range(4) != 0 ? RasterPath::compute : RasterPath::graphics, lights, &shadows);
}

// A 128 x 128 premultiplied radial glow (the usual spark and fire sprite), made once a renderer.
TextureHandle glowTexture(Renderer& renderer) {
    static std::map<Renderer*, TextureHandle> made;
    auto found = made.find(&renderer);
    if (found != made.end()) return found->second;
    Image image;
    image.width = 128;
    image.height = 128;
    image.rgba8.resize(size_t{128} * 128 * 4);
    for (uint32_t y = 0; y < 128; ++y) {
        for (uint32_t x = 0; x < 128; ++x) {
            const float u = (float(x) + 0.5f) / 64 - 1;
            const float v = (float(y) + 0.5f) / 64 - 1;
            const float a = std::clamp(1.0f - (u * u + v * v), 0.0f, 1.0f);
            uint8_t* p = &image.rgba8[(size_t{y} * 128 + x) * 4];
            p[0] = p[1] = p[2] = p[3] = static_cast<uint8_t>(std::lround(255 * a * a));
        }
    }
    std::vector<Diagnostic> diagnostics;
    const TextureHandle handle = addTexture(renderer, image, "bench glow", diagnostics);
    return made.emplace(&renderer, handle).first->second;
}

// 100k additive textured billboards (the 128-texel glow, its mip chain and the per-quad level;
// docs/rendering.md, "Texture levels of detail") against BM_Additive100k's soft discs of the
// same size in the same run: the cost of sampling a texture.
void BM_AdditiveTextured100k(benchmark::State& state) {
    Renderer* renderer = sharedRenderer(static_cast<uint32_t>(state.range(1)));
    if (renderer == nullptr) {
        state.SkipWithError("no Vulkan device (see stderr)");
        return;
    }
    const std::vector<DrawRecord> records =
        particles(100000, static_cast<float>(state.range(0)) / 100);
    const DrawBatch batch =
        BillboardBatch{paramsFor(kBlendAdditive), glowTexture(*renderer), records, {}};
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1));
}

// Distortion billboards (docs/rendering.md, "Distortion"): range(0) lens quads of 1 m spread
// through the particle box, over the empty frame's ground, at range(1) lines: the copy of the
// frame and the displaced reads against BM_EmptyFrame at the same height.
void BM_Distortion(benchmark::State& state) {
    const std::vector<DrawRecord> records = particles(static_cast<size_t>(state.range(0)), 1.0f);
    BillboardParams lens = paramsFor(kBlendAdditive);
    lens.render_flags |= kRenderFlagDistortion;
    lens.distortion = 0.3f;
    const DrawBatch batch = BillboardBatch{lens, kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1));
}

// The motion-vector cases' settings: on or off, a previous camera 10 cm to the side.
MotionVectorsDesc benchMotion(bool enabled) {
    MotionVectorsDesc motion;
    motion.enabled = enabled;
    motion.has_previous_camera = true;
    motion.previous_camera = benchView().camera;
    motion.previous_camera.eye.x -= 0.1f;
    motion.previous_camera.target.x -= 0.1f;
    return motion;
}

// Motion vectors (docs/rendering.md, "Motion vectors"): range(1) thousands of alpha discs of
// 40 cm, sorted as given, over the ground, at range(2) lines; range(0) 0 without motion vectors
// (the reference, the same frame), 1 with them and a previous camera 10 cm to the side: the camera
// pass over every pixel, the particles drawn again into the motion target, its readback and
// conversion to floats.
void BM_MotionVectors(benchmark::State& state) {
    const std::vector<DrawRecord> records =
        particles(static_cast<size_t>(state.range(1)) * 1000, 0.4f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}};
    const MotionVectorsDesc motion = benchMotion(state.range(0) != 0);
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(2), 0,
              RasterPath::graphics, {}, nullptr, &motion);
}

// Ribbons (strip batches) for the motion-vector cost of strips: count trails of kRibbonPoints
// points, each starting at one of particles()' places and running 1.5 m along a direction drawn
// from its key, 10 cm wide, the trail's particle velocity (2 m/s along the trail) on every point.
constexpr uint32_t kRibbonPoints = 16;
struct BenchRibbons {
    std::vector<StripPoint> points;
    std::vector<uint32_t> segments;
    std::vector<vec4> velocities;
};
BenchRibbons ribbons(size_t count) {
    BenchRibbons out;
    const std::vector<DrawRecord> heads = particles(count, 0.1f);
    for (const DrawRecord& head : heads) {
        const vec3 along = sdRandomUnitVector(head.key, 7u);
        const auto first = static_cast<uint32_t>(out.points.size());
        for (uint32_t k = 0; k < kRibbonPoints; ++k) {
            const float t = float(k) / float(kRibbonPoints - 1);
            StripPoint p;
            p.position_width = vec4(vec3(head.position_size) - along * (1.5f * t), 0.1f);
            p.color = head.color;
            p.tangent_u = vec4(-along, t);
            out.points.push_back(p);
            out.velocities.push_back(vec4(along * 2.0f, 0.0f));
            if (k + 1 < kRibbonPoints) out.segments.push_back(first + k);
        }
    }
    return out;
}

// Motion vectors of strips: range(1) thousands of ribbons (ribbons()) blended with alpha, at
// range(2) lines; range(0) 0 without motion vectors (the reference, the same frame), 1 with them
// (a previous camera 10 cm to the side): what the strips' second draw into the motion target, the
// velocity upload and the rest of the motion phase add.
void BM_MotionVectorsStrips(benchmark::State& state) {
    const BenchRibbons r = ribbons(static_cast<size_t>(state.range(1)) * 1000);
    StripParams params{};
    params.blend = kBlendAlpha;
    params.emissive = 1;
    StripBatch strips;
    strips.params = params;
    strips.points = r.points;
    strips.segments = r.segments;
    strips.velocities = r.velocities;
    const DrawBatch batch = strips;
    const MotionVectorsDesc motion = benchMotion(state.range(0) != 0);
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(2), 0,
              RasterPath::graphics, {}, nullptr, &motion);
}

void motionStripArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t thousands : {1, 10}) {
            for (int64_t motion : {0, 1}) b->Args({motion, thousands, height});
        }
    }
}

// Half-resolution particles (docs/rendering.md, "Half-resolution particles"): range(1) thousands
// of alpha discs of range(2) cm, sorted back to front on the CPU, over the ground, at range(3)
// lines; range(0) 0 at full resolution (the reference, the same frame), 1 at half: the depth
// downsample, a quarter of the fragments, the upsample over every pixel.
void BM_HalfRes(benchmark::State& state) {
    std::vector<DrawRecord> records = particles(static_cast<size_t>(state.range(1)) * 1000,
                                                static_cast<float>(state.range(2)) / 100.0f);
    const DrawBatch batch = BillboardBatch{paramsFor(kBlendAlpha), kNoTexture, records, {}};
    runFrames(state, {&batch, 1}, &records, Transparency::sorted, state.range(3), 0,
              RasterPath::graphics, {}, nullptr, nullptr,
              state.range(0) != 0 ? ParticleResolution::half : ParticleResolution::full);
}

void halfResArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (const auto& [thousands, cm] :
             {std::pair{0, 40}, std::pair{10, 40}, std::pair{100, 8}, std::pair{100, 40}}) {
            for (int64_t half : {0, 1}) b->Args({half, thousands, cm, height});
        }
    }
}

void motionArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t thousands : {0, 10, 100}) {
            for (int64_t motion : {0, 1}) b->Args({motion, thousands, height});
        }
    }
}

void distortionArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t count : {1, 100, 2000}) b->Args({count, height});
    }
}

// Lit alpha discs of 40 cm (range(2) thousands of them: 100 for a GPU, 10 for lavapipe),
// unsorted, over the ground with a box and a sphere: range(0) 0 without shadows (the reference),
// 1 with the scene's default sun shadows (2 cascades of 1024², the primitives casting, everything
// lit receiving, the discs casting into a 256² opacity map), 2 with 4 cascades of 2048²; range(1)
// the frame height.
void BM_SunShadows(benchmark::State& state) {
    const std::vector<DrawRecord> records =
        particles(static_cast<size_t>(state.range(2)) * 1000, 0.4f);
    BillboardParams lit = paramsFor(kBlendAlpha);
    lit.render_flags |= kRenderFlagLit;
    const DrawBatch batch = BillboardBatch{lit, kNoTexture, records, {}};
    ShadowDesc shadows;
    shadows.enabled = state.range(0) != 0;
    if (state.range(0) == 2) {
        shadows.cascades = 4;
        shadows.resolution = 2048;
    }
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1), 0,
              RasterPath::graphics, {}, &shadows);
}

// range(2) thousand alpha ribbons of 16 points (15 segments), 10 cm wide, wandering over the
// scene of BM_SunShadows, unlit: range(0) 0 without shadows (the reference), 1 with the scene's
// default sun shadows, the ribbons casting into the opacity map, 2 the same ribbons cast as
// cutouts into the cascades (render.shadow_cutout); range(1) the frame height.
void BM_StripShadows(benchmark::State& state) {
    constexpr uint32_t kPoints = 16;
    const size_t count = static_cast<size_t>(state.range(2)) * 1000;
    std::vector<StripPoint> points(count * kPoints);
    std::vector<uint32_t> segments;
    segments.reserve(count * (kPoints - 1));
    for (size_t i = 0; i < count; ++i) {
        const uint key = sdParticleKey(2u, 0u, static_cast<uint>(i), 0u);
        const vec3 start(8.0f * sdRandom01(key, 0u) - 4.0f, 4.0f * sdRandom01(key, 1u) - 0.5f,
                         4.0f * sdRandom01(key, 2u) - 2.0f);
        const vec3 step =
            0.05f * normalize(vec3(sdRandom01(key, 3u) - 0.5f, 0.2f, sdRandom01(key, 4u) - 0.5f));
        for (uint32_t k = 0; k < kPoints; ++k) {
            StripPoint& p = points[i * kPoints + k];
            p.position_width = vec4(start + float(k) * step, 0.1f);
            p.color = vec4(sdRandom01(key, 5u), 0.5f, 0.5f, 0.8f);
            p.tangent_u = vec4(normalize(step), float(k) / float(kPoints - 1));
            if (k + 1 < kPoints) segments.push_back(static_cast<uint32_t>(i * kPoints + k));
        }
    }
    StripBatch strips;
    strips.params.blend = kBlendAlpha;
    strips.params.render_flags = state.range(0) == 2 ? kRenderFlagShadowCutout : 0u;
    strips.points = points;
    strips.segments = segments;
    const DrawBatch batch = strips;
    ShadowDesc shadows;
    shadows.enabled = state.range(0) != 0;
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1), 0,
              RasterPath::graphics, {}, &shadows);
}

// The scene of BM_SunShadows (range(2) thousand lit 40 cm alpha discs, the box and the sphere)
// under four spot lights over it, no sun shadows: range(0) of them cast shadows (0: the
// reference; 1; 4), each a 1024² tile of the local atlas drawn by the primitives and a 256² tile
// of the local opacity atlas drawn by the discs (blended casters: every tile draws all of them);
// range(0) 5: the first is a point light instead, with shadows (six tiles of each), the others
// without; range(1) the frame height.
void BM_SpotShadows(benchmark::State& state) {
    const std::vector<DrawRecord> records =
        particles(static_cast<size_t>(state.range(2)) * 1000, 0.4f);
    BillboardParams lit = paramsFor(kBlendAlpha);
    lit.render_flags |= kRenderFlagLit;
    const DrawBatch batch = BillboardBatch{lit, kNoTexture, records, {}};
    std::vector<LightDesc> lights(4);
    for (size_t i = 0; i < lights.size(); ++i) {
        LightDesc& l = lights[i];
        l.type = LightKind::spot;
        l.position = {-3.0f + 2.0f * float(i), 4.0f, 1.5f};
        l.direction = {0.0f, -1.0f, -0.3f};
        l.inner_deg = 30;
        l.outer_deg = 45;
        l.range = 10;
        l.intensity = 8;
        l.shadows = static_cast<int64_t>(i) < state.range(0);
    }
    if (state.range(0) == 5) {
        for (LightDesc& l : lights) l.shadows = false;
        lights[0].type = LightKind::point;
        lights[0].shadows = true;
    }
    ShadowDesc shadows; // enabled, the scene's defaults; the sun's are off below
    runFrames(state, {&batch, 1}, nullptr, Transparency::sorted, state.range(1), 0,
              RasterPath::graphics, lights, &shadows, nullptr, ParticleResolution::full,
              /*sun=*/false);
}

void spotShadowArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t shadowed : {0, 1, 4, 5}) b->Args({shadowed, height, 100});
    }
    for (int64_t shadowed : {0, 1, 4, 5}) b->Args({shadowed, 720, 10});
}

void stripShadowArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t shadows : {0, 1, 2}) b->Args({shadows, height, 20});
    }
    for (int64_t shadows : {0, 1, 2}) b->Args({shadows, 720, 2});
}

void shadowArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t shadows : {0, 1, 2}) b->Args({shadows, height, 100});
    }
    for (int64_t shadows : {0, 1, 2}) b->Args({shadows, 720, 10});
}

void lightArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        b->Args({0, height, 30});
        for (int64_t range_dm : {30, 10}) {
            for (int64_t lights : {16, 64}) b->Args({lights, height, range_dm});
        }
    }
}

void perParticleLightArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t per_particle : {0, 1}) {
            for (int64_t lights : {0, 16, 64}) b->Args({lights, height, 30, 0, 0, per_particle});
            b->Args({64, height, 10, 0, 0, per_particle});
            b->Args({64, height, 30, 1, 0, per_particle});
            b->Args({64, height, 30, 1, 1, per_particle});
        }
    }
}

void postArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t post : {1, 2}) b->Args({post, height});
    }
}

// Arguments: size in centimetres (8 cm is about 4 pixels across at this distance at 720 lines,
// 40 cm about 20), then the frame height.
void particleArgs(benchmark::internal::Benchmark* b) {
    for (int64_t height : {720, 1080}) {
        for (int64_t size_cm : {8, 40}) b->Args({size_cm, height});
    }
}
BENCHMARK(BM_EmptyFrame)->Arg(720)->Arg(1080)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Additive100k)->Apply(particleArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AdditiveTextured100k)
    ->Apply(particleArgs)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_AlphaSorted100k)->Apply(particleArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_AlphaSorted100kSplit)
    ->Args({8, 720, 4096})
    ->Args({8, 720, 512})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_AlphaSorted100kCompute)
    ->Apply(particleArgs)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_AlphaOit100k)->Apply(particleArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EmptyFramePost)->Apply(postArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Additive100kPost)->Apply(postArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Lit100kLights)->Apply(lightArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LitPerParticle100k)
    ->Apply(perParticleLightArgs)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_SunShadows)->Apply(shadowArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SpotShadows)->Apply(spotShadowArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_StripShadows)->Apply(stripShadowArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Distortion)->Apply(distortionArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MotionVectors)->Apply(motionArgs)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MotionVectorsStrips)
    ->Apply(motionStripArgs)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_HalfRes)->Apply(halfResArgs)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

// Every renderer goes while the driver is whole (see renderers()).
void destroySharedRenderers() {
    renderers().clear();
}

} // namespace spindrift::render

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    spindrift::render::destroySharedRenderers();
    benchmark::Shutdown();
    return 0;
}
