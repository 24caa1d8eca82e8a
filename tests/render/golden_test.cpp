// Golden images: small scenes (tests/golden/scenes/) that each show one renderer feature, drawn
// on lavapipe with validation on through the same path as `spindrift render` (scene player →
// frameView → renderFrame) and compared with the PNGs in tests/golden/expected/.
//
// Tolerance (sRGB 8-bit codes, per pixel the largest difference over R, G, B): at most
// kLooseFraction of the pixels may differ by more than kCloseCodes, and none by more than
// kMaxCodes. Lavapipe on the same Mesa gives identical images run after run; the slack absorbs
// LLVM code generation on another CPU (FMA, vector width), not a change in what is drawn: a
// particle moved by one pixel or a blend factor changed fails.
//
// Regenerate after an intended change, then look at every image before committing it:
//   scripts/update-goldens.sh            (runs this test with SPINDRIFT_UPDATE_GOLDEN=1)
// A failing comparison writes the actual image and a difference image to
// <build>/golden-failures/.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "image/png_io.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "render/view_globals.h"
#include "runtime/draw_list.h"
#include "spindrift/scene_json.h"

namespace spindrift::render {
namespace {

namespace fs = std::filesystem;

constexpr int kCloseCodes = 3;
constexpr double kLooseFraction = 0.002;
constexpr int kMaxCodes = 48;

const fs::path kGoldenDir = fs::path(SPINDRIFT_SOURCE_DIR) / "tests" / "golden";
const fs::path kFailureDir = fs::path(SPINDRIFT_BINARY_DIR) / "golden-failures";

// Every scene in tests/golden/scenes/, each rendered at its duration_s. A scene file missing
// from this list fails EveryGoldenSceneIsListed, so none is silently unchecked.
const char* const kScenes[] = {
    "align_camera",
    "align_velocity",
    "align_axis",
    "align_fixed",
    "blend_additive",
    "blend_premultiplied",
    "blend_alpha",
    "sort_back_to_front",
    "sort_none",
    "soft_particles",
    "flipbook_blend",
    "lighting",
    "beam",
    "ribbon",
    "transparency_weighted_oit",
    "mesh_rocks",
    "tonemap_aces",
    "tonemap_agx",
    "tonemap_reinhard",
    "tonemap_none",
    "bloom_sparks",
    "exposure_auto",
    "emissive_sparks",
    "blackbody_fire",
    "emissive_share",
    "order_across_effects",
    "point_spot_lights",
    "particle_lights",
    "sky_light",
    "sun_shadows",
    "smoke_shadows",
    "heat_haze",
    "lit_per_particle",
    "half_res_smoke",
    "strip_shadows",
    "spot_shadows",
    "spot_smoke_shadows",
};

std::string errors(const std::vector<Diagnostic>& d) {
    std::string s;
    for (const Diagnostic& x : d) s += formatDiagnostic(x) + "\n";
    return s;
}

bool updating() {
    const char* v = std::getenv("SPINDRIFT_UPDATE_GOLDEN");
    return v != nullptr && std::string(v) == "1";
}

// The billboard batches as the draw list made them before the view's one back-to-front order
// (docs/rendering.md, "Draw order across effects"): one batch per emitter of each instance, the
// instances farthest first, each emitter's particles sorted on their own. Each emitter's stretches
// in the list are consecutive in its sorted storage, so their union is its old batch. Billboards
// only; ties between instances' distances are not expected (the scenes using this have none).
std::vector<DrawBatch> perEmitterBatches(const ScenePlayer& player) {
    const spindrift::DrawList::Impl& list = player.draw_list.impl();
    struct Group {
        float distance = 0;
        uint64_t instance = 0;
        uint32_t emitter = 0;
        size_t first_batch = 0;
        const DrawRecord* begin = nullptr;
        const DrawRecord* end = nullptr;
        size_t count = 0;
    };
    std::vector<Group> groups;
    for (size_t i = 0; i < list.batches.size(); ++i) {
        const spindrift::DrawBatch& b = list.batches[i];
        const std::span<const DrawRecord> r = list.entries[i].records;
        auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
            return x.instance == b.instance.value && x.emitter == b.emitter_index;
        });
        if (g == groups.end()) {
            groups.push_back({b.instance_distance_m, b.instance.value, b.emitter_index, i, r.data(),
                              r.data() + r.size(), 0});
            g = groups.end() - 1;
        }
        g->begin = std::min(g->begin, r.data());
        g->end = std::max(g->end, r.data() + r.size());
        g->count += r.size();
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group& a, const Group& b) { return a.distance > b.distance; });
    std::vector<DrawBatch> out;
    for (const Group& g : groups) {
        EXPECT_EQ(size_t(g.end - g.begin), g.count) << "an emitter's stretches are consecutive";
        BillboardBatch batch = std::get<BillboardBatch>(player.batches[g.first_batch]);
        batch.records = std::span<const DrawRecord>(g.begin, g.count);
        out.push_back(batch);
    }
    return out;
}

// All golden scenes share one resolution, so one renderer serves them all.
class GoldenTest : public ::testing::TestWithParam<const char*> {
protected:
    static void SetUpTestSuite() {
        std::vector<Diagnostic> diagnostics;
        RendererConfig config;
        config.width = 160;
        config.height = 96;
        config.validation = true;
        renderer_ = createRenderer(config, diagnostics).release();
        if (renderer_ == nullptr) setup_error_ = errors(diagnostics);
    }
    static void TearDownTestSuite() {
        destroyRenderer(renderer_);
        renderer_ = nullptr;
    }

    // Renders scene `name` at its duration_s, the way `spindrift render --time` does, its
    // billboards drawn by `raster` (FrameView::raster).
    // per_emitter: drawn in the order before the view's one order (perEmitterBatches).
    static bool renderScene(const std::string& name, Image& out, std::string& error,
                            RasterPath raster = RasterPath::graphics, bool per_emitter = false,
                            FrameStats* frame_stats = nullptr, bool shadows = true) {
        const std::string file = (kGoldenDir / "scenes" / (name + ".json")).string();
        std::vector<Diagnostic> diagnostics;
        SceneDesc scene;
        if (!loadSceneFile(file, scene, diagnostics)) {
            error = errors(diagnostics);
            return false;
        }
        if (!shadows) scene.shadows.enabled = false;
        auto player = createScenePlayer(scene, file, PlayerConfig{}, diagnostics);
        if (!player || !uploadAssets(*player, *renderer_, diagnostics)) {
            error = errors(diagnostics);
            return false;
        }
        if (scene.resolution.width != 160 || scene.resolution.height != 96) {
            error = file + ": golden scenes are 160x96";
            return false;
        }
        const float t = scene.duration_s;
        FrameView view = frameView(player->scene, t);
        view.raster = raster;
        playFrame(*player, t, view.camera.eye);
        if (per_emitter) player->batches = perEmitterBatches(*player);
        view.lights = player->lights;
        FrameStats stats;
        if (!renderFrame(*renderer_, view, player->batches, out, stats, diagnostics)) {
            error = errors(diagnostics);
            return false;
        }
        // The compute rasteriser draws every billboard batch that is not drawn through OIT.
        if (raster == RasterPath::compute && stats.particles_drawn > stats.oit_records &&
            stats.raster_batches == 0) {
            error = file + ": the compute rasteriser drew no batch";
            return false;
        }
        if (stats.particles_drawn == 0 && stats.strip_segments == 0 && stats.mesh_particles == 0) {
            error = file + ": drew no particles at t = " + std::to_string(t);
            return false;
        }
        if (frame_stats != nullptr) *frame_stats = stats;
        return true;
    }

    static Renderer* renderer_;
    static std::string setup_error_;
};
Renderer* GoldenTest::renderer_ = nullptr;
std::string GoldenTest::setup_error_;

int channelDifference(const Image& a, const Image& b, size_t pixel) {
    int d = 0;
    for (size_t c = 0; c < 3; ++c) {
        d = std::max(d, std::abs(int{a.rgba8[pixel * 4 + c]} - int{b.rgba8[pixel * 4 + c]}));
    }
    return d;
}

struct Difference {
    size_t loose = 0; // pixels differing by more than kCloseCodes
    int largest = 0;
};

Difference compare(const Image& actual, const Image& expected) {
    Difference d;
    const size_t pixels = size_t{actual.width} * actual.height;
    for (size_t i = 0; i < pixels; ++i) {
        const int diff = channelDifference(actual, expected, i);
        d.largest = std::max(d.largest, diff);
        if (diff > kCloseCodes) ++d.loose;
    }
    return d;
}

// The difference, amplified 8x, for a person to look at.
Image differenceImage(const Image& actual, const Image& expected) {
    Image out = actual;
    for (size_t i = 0; i < size_t{actual.width} * actual.height; ++i) {
        const auto v =
            static_cast<uint8_t>(std::min(255, 8 * channelDifference(actual, expected, i)));
        out.rgba8[i * 4] = out.rgba8[i * 4 + 1] = out.rgba8[i * 4 + 2] = v;
        out.rgba8[i * 4 + 3] = 255;
    }
    return out;
}

TEST_P(GoldenTest, MatchesTheExpectedImage) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    const std::string name = GetParam();
    Image actual;
    std::string error;
    ASSERT_TRUE(renderScene(name, actual, error)) << error;
    EXPECT_TRUE(validationMessages(*renderer_).empty()) << validationMessages(*renderer_).front();

    const fs::path expected_file = kGoldenDir / "expected" / (name + ".png");
    std::vector<Diagnostic> diagnostics;
    if (updating()) {
        ASSERT_TRUE(writePng(expected_file.string(), actual, diagnostics)) << errors(diagnostics);
        return;
    }
    Image expected;
    ASSERT_TRUE(readPng(expected_file.string(), expected, diagnostics))
        << errors(diagnostics) << "regenerate with scripts/update-goldens.sh";
    ASSERT_EQ(actual.width, expected.width);
    ASSERT_EQ(actual.height, expected.height);

    const Difference d = compare(actual, expected);
    const size_t pixels = size_t{actual.width} * actual.height;
    const bool ok = d.largest <= kMaxCodes &&
                    static_cast<double>(d.loose) <= kLooseFraction * static_cast<double>(pixels);
    if (!ok) {
        fs::create_directories(kFailureDir);
        writePng((kFailureDir / (name + ".actual.png")).string(), actual, diagnostics);
        writePng((kFailureDir / (name + ".diff.png")).string(), differenceImage(actual, expected),
                 diagnostics);
    }
    EXPECT_TRUE(ok) << name << ": " << d.loose << " of " << pixels << " pixels differ by more than "
                    << kCloseCodes << " codes (at most " << kLooseFraction * 100
                    << " % may), largest difference " << d.largest << " (at most " << kMaxCodes
                    << "); images in " << kFailureDir.string();
}

// The billboards of every golden scene drawn by the compute rasteriser (docs/rendering.md,
// "Compute rasteriser") give the expected image within the same tolerance: the same quads, the
// same appearance function, the same blending order. Scenes without billboards draw as before.
TEST_P(GoldenTest, TheComputeRasteriserMatchesTheExpectedImage) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    if (updating()) GTEST_SKIP() << "goldens are written from the graphics path";
    const std::string name = GetParam();
    SceneDesc scene;
    std::vector<Diagnostic> load;
    ASSERT_TRUE(loadSceneFile((kGoldenDir / "scenes" / (name + ".json")).string(), scene, load))
        << errors(load);
    // Batches the compute rasteriser draws stay at full resolution (docs/rendering.md,
    // "Half-resolution particles"): such a scene's image is not the compute path's.
    if (scene.particle_resolution == ParticleResolution::half) {
        GTEST_SKIP() << "the half-resolution layer is drawn by the graphics path only";
    }
    Image actual;
    std::string error;
    ASSERT_TRUE(renderScene(name, actual, error, RasterPath::compute)) << error;
    EXPECT_TRUE(validationMessages(*renderer_).empty()) << validationMessages(*renderer_).front();
    const fs::path expected_file = kGoldenDir / "expected" / (name + ".png");
    Image expected;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(readPng(expected_file.string(), expected, diagnostics)) << errors(diagnostics);
    ASSERT_EQ(actual.width, expected.width);
    ASSERT_EQ(actual.height, expected.height);
    const Difference d = compare(actual, expected);
    const size_t pixels = size_t{actual.width} * actual.height;
    const bool ok = d.largest <= kMaxCodes &&
                    static_cast<double>(d.loose) <= kLooseFraction * static_cast<double>(pixels);
    if (!ok) {
        fs::create_directories(kFailureDir);
        writePng((kFailureDir / (name + ".compute.actual.png")).string(), actual, diagnostics);
        writePng((kFailureDir / (name + ".compute.diff.png")).string(),
                 differenceImage(actual, expected), diagnostics);
    }
    EXPECT_TRUE(ok) << name << " (compute rasteriser): " << d.loose << " of " << pixels
                    << " pixels differ by more than " << kCloseCodes << " codes, largest "
                    << d.largest << "; images in " << kFailureDir.string();
}

INSTANTIATE_TEST_SUITE_P(Scenes, GoldenTest, ::testing::ValuesIn(kScenes),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             return std::string(param.param);
                         });

// The sort golden pair is only worth having if the order shows: the same stream drawn unsorted
// must look clearly different from drawn back to front.
TEST_F(GoldenTest, SortOrderVisiblyMatters) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    Image sorted, unsorted;
    std::string error;
    ASSERT_TRUE(renderScene("sort_back_to_front", sorted, error)) << error;
    ASSERT_TRUE(renderScene("sort_none", unsorted, error)) << error;
    size_t changed = 0;
    for (size_t i = 0; i < size_t{sorted.width} * sorted.height; ++i) {
        if (channelDifference(sorted, unsorted, i) > 32) ++changed;
    }
    EXPECT_GT(changed, size_t{sorted.width} * sorted.height / 50) << "changed pixels: " << changed;
}

// The order golden is only worth having if the order shows: the two interpenetrating smoke
// columns drawn per emitter (the cool column, the nearer instance, wholly over the warm one) must
// look clearly different from the one back-to-front order, where the warm column's upper part,
// which leans in front of the cool one, covers it. Both raster paths draw the merged order.
TEST_F(GoldenTest, OrderAcrossEffectsVisiblyMatters) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    Image merged, per_emitter, computed;
    std::string error;
    FrameStats stats;
    ASSERT_TRUE(
        renderScene("order_across_effects", merged, error, RasterPath::graphics, false, &stats))
        << error;
    EXPECT_GT(stats.batches, 10u) << "the columns' particles interleave in many stretches";
    ASSERT_TRUE(
        renderScene("order_across_effects", per_emitter, error, RasterPath::graphics, true, &stats))
        << error;
    EXPECT_EQ(stats.batches, 2u);
    ASSERT_TRUE(renderScene("order_across_effects", computed, error, RasterPath::compute)) << error;
    EXPECT_TRUE(validationMessages(*renderer_).empty()) << validationMessages(*renderer_).front();
    const size_t pixels = size_t{merged.width} * merged.height;
    size_t changed = 0, compute_changed = 0;
    for (size_t i = 0; i < pixels; ++i) {
        if (channelDifference(merged, per_emitter, i) > 32) ++changed;
        if (channelDifference(merged, computed, i) > kCloseCodes) ++compute_changed;
    }
    const bool ok = changed > pixels / 50 && static_cast<double>(compute_changed) <=
                                                 kLooseFraction * static_cast<double>(pixels);
    // On failure, and when regenerating (to look at beside the new golden), the images drawn.
    if (!ok || updating()) {
        std::vector<Diagnostic> diagnostics;
        fs::create_directories(kFailureDir);
        writePng((kFailureDir / "order_across_effects.merged.png").string(), merged, diagnostics);
        writePng((kFailureDir / "order_across_effects.per_emitter.png").string(), per_emitter,
                 diagnostics);
        writePng((kFailureDir / "order_across_effects.compute.png").string(), computed,
                 diagnostics);
    }
    EXPECT_GT(changed, pixels / 50)
        << "changed pixels: " << changed << "; images in " << kFailureDir.string();
    EXPECT_LE(static_cast<double>(compute_changed), kLooseFraction * static_cast<double>(pixels));
}

// The sky light golden (no sun, no ambient, a blue zenith and a brown ground) is only worth having
// if the sky shows: the grey sphere's top, facing the zenith, comes out blue, and its underside,
// facing the ground, brown.
TEST_F(GoldenTest, TheSkyLightsWhatFacesUpBlueAndWhatFacesDownBrown) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    Image image;
    std::string error;
    ASSERT_TRUE(renderScene("sky_light", image, error)) << error;
    std::vector<Diagnostic> diagnostics;
    SceneDesc scene;
    ASSERT_TRUE(
        loadSceneFile((kGoldenDir / "scenes" / "sky_light.json").string(), scene, diagnostics));
    ASSERT_EQ(scene.primitives.size(), 1u);
    const PrimitiveDesc& sphere = scene.primitives[0];
    const FrameGlobals g = viewGlobals(frameView(scene, scene.duration_s), 160, 96);
    // The pixel of the point on the sphere 60 degrees up (or down) from its front, toward the eye.
    auto pixelAt = [&](float up) {
        const vec3 p = vec3(sphere.center.x, sphere.center.y, sphere.center.z) +
                       sphere.radius * vec3(0.0f, 0.866f * up, 0.5f);
        const vec4 clip = g.clip_from_world_c0 * p.x + g.clip_from_world_c1 * p.y +
                          g.clip_from_world_c2 * p.z + g.clip_from_world_c3;
        const auto x = static_cast<size_t>((clip.x / clip.w * 0.5f + 0.5f) * 160.0f);
        const auto y = static_cast<size_t>((clip.y / clip.w * 0.5f + 0.5f) * 96.0f);
        return &image.rgba8[(y * 160 + x) * 4];
    };
    const uint8_t* top = pixelAt(1.0f);
    const uint8_t* bottom = pixelAt(-1.0f);
    EXPECT_GT(int{top[2]}, int{top[0]} + 20) << "top rgb " << int{top[0]} << " " << int{top[2]};
    EXPECT_GT(int{bottom[0]}, int{bottom[2]} + 20)
        << "bottom rgb " << int{bottom[0]} << " " << int{bottom[2]};
}

// The shadow goldens are only worth having if the shadows show: smoke_shadows drawn without them
// must be clearly brighter where the smoke's shadow falls (the ground, the sphere, the smoke's
// own far side: over 2.5 % of the image by more than 16 codes; 3.2 % on lavapipe), and nowhere
// darker: shadows only take sunlight away.
TEST_F(GoldenTest, ShadowsVisiblyDarkenTheGround) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    Image on, off;
    std::string error;
    FrameStats stats;
    ASSERT_TRUE(renderScene("smoke_shadows", on, error, RasterPath::graphics, false, &stats))
        << error;
    EXPECT_EQ(stats.shadow_cascades, 2u);
    EXPECT_EQ(stats.shadow_opacity_batches, 1u);
    ASSERT_TRUE(
        renderScene("smoke_shadows", off, error, RasterPath::graphics, false, &stats, false))
        << error;
    EXPECT_EQ(stats.shadow_cascades, 0u);
    EXPECT_TRUE(validationMessages(*renderer_).empty()) << validationMessages(*renderer_).front();
    const size_t pixels = size_t{on.width} * on.height;
    size_t darker = 0, brighter = 0;
    for (size_t i = 0; i < pixels; ++i) {
        const int d = int{off.rgba8[i * 4]} - int{on.rgba8[i * 4]};
        if (d > 16) ++darker;
        if (d < -kCloseCodes) ++brighter;
    }
    if (darker <= pixels / 40 || brighter != 0 || updating()) {
        std::vector<Diagnostic> diagnostics;
        fs::create_directories(kFailureDir);
        writePng((kFailureDir / "smoke_shadows.off.png").string(), off, diagnostics);
    }
    EXPECT_GT(darker, pixels / 40) << "pixels darkened by the shadows: " << darker;
    EXPECT_EQ(brighter, 0u);
}

TEST(GoldenScenes, EveryGoldenSceneIsListed) {
    std::set<std::string> listed(std::begin(kScenes), std::end(kScenes));
    for (const fs::directory_entry& e : fs::directory_iterator(kGoldenDir / "scenes")) {
        EXPECT_TRUE(listed.count(e.path().stem().string()) == 1)
            << e.path() << " is not in kScenes (golden_test.cpp)";
    }
}

} // namespace
} // namespace spindrift::render
