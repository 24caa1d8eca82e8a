// The default scene of every sample effect, rendered as `spindrift render EFFECT` renders it
// (loadRenderScene: measured framing, the effect scene's ground and post), on lavapipe with
// validation on: what the effect draws fills about 60 % of the frame height (docs/scene-format.md,
// "The default scene of an effect").
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/contact_sheet.h"
#include "render/render_file.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "render_test_helpers.h"

namespace spindrift::render {
namespace {

namespace fs = std::filesystem;

using test::errors;

constexpr uint32_t kFramingWidth = 256, kFramingHeight = 144;
// A pixel belongs to the effect where the frame with it differs from the frame without it by
// more than this many 8-bit codes in a channel (bloom's faint halo stays below it).
constexpr int kDrawnCodes = 12;

// Where, over several frames, the effect changed the image: changed pixels counted per row and
// per column. The extent is the span holding all but kStrayShare of them at each end, as the
// framed box leaves out a measured 2 % of particle edges at each side, so a stray spark does not
// count (that box is what is fitted to 60 %).
constexpr double kStrayShare = 0.01;

struct Extent {
    std::vector<uint64_t> rows = std::vector<uint64_t>(kFramingHeight);
    std::vector<uint64_t> columns = std::vector<uint64_t>(kFramingWidth);
    void add(const Image& with, const Image& without) {
        for (uint32_t y = 0; y < kFramingHeight; ++y) {
            for (uint32_t x = 0; x < kFramingWidth; ++x) {
                const size_t i = (size_t{y} * kFramingWidth + x) * 4;
                int d = 0;
                for (size_t c = 0; c < 3; ++c)
                    d = std::max(d, std::abs(int{with.rgba8[i + c]} - int{without.rgba8[i + c]}));
                if (d <= kDrawnCodes) continue;
                ++rows[y];
                ++columns[x];
            }
        }
    }
    static float span(const std::vector<uint64_t>& counts) {
        uint64_t total = 0;
        for (const uint64_t c : counts) total += c;
        if (total == 0) return 0;
        const double stray = kStrayShare * double(total);
        size_t first = 0, last = counts.size() - 1;
        for (double seen = 0; first < counts.size(); ++first) {
            seen += double(counts[first]);
            if (seen > stray) break;
        }
        for (double seen = 0; last > first; --last) {
            seen += double(counts[last]);
            if (seen > stray) break;
        }
        return float(last - first + 1) / float(counts.size());
    }
    float height() const { return span(rows); }
    float width() const { return span(columns); }
};

class FramingRenderTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        std::vector<Diagnostic> diagnostics;
        RendererConfig config;
        config.width = kFramingWidth;
        config.height = kFramingHeight;
        config.validation = true;
        renderer_ = createRenderer(config, diagnostics).release();
        if (renderer_ == nullptr) setup_error_ = errors(diagnostics);
    }
    static void TearDownTestSuite() {
        destroyRenderer(renderer_);
        renderer_ = nullptr;
    }

    // Renders the sample's default scene with and without the effect at the frames of a
    // 12-frame contact sheet and the default still (the framed box holds what the effect draws
    // over its duration) and returns where the effect changed the image.
    static bool measure(const std::string& name, Extent& extent, std::string& error) {
        const std::string file =
            (fs::path(SPINDRIFT_SOURCE_DIR) / "examples" / "effects" / (name + ".json")).string();
        std::vector<Diagnostic> diagnostics;
        SceneDesc scene;
        std::string scene_file;
        if (!loadRenderScene(file, scene, scene_file, diagnostics)) {
            error = errors(diagnostics);
            return false;
        }
        scene.resolution = {kFramingWidth, kFramingHeight};
        SceneDesc empty = scene;
        empty.effects.clear();
        auto player = createScenePlayer(scene, scene_file, PlayerConfig{}, diagnostics);
        auto empty_player = createScenePlayer(empty, scene_file, PlayerConfig{}, diagnostics);
        if (!player || !empty_player || !uploadAssets(*player, *renderer_, diagnostics)) {
            error = errors(diagnostics);
            return false;
        }
        std::vector<float> times = contactSheetTimes(12, scene.duration_s);
        times.push_back(defaultStillTime(*player));
        for (const float t : times) {
            Image with, without;
            FrameStats stats;
            if (!renderSceneFrame(*renderer_, *player, t, false, with, stats, diagnostics) ||
                !renderSceneFrame(*renderer_, *empty_player, t, false, without, stats,
                                  diagnostics)) {
                error = errors(diagnostics);
                return false;
            }
            extent.add(with, without);
        }
        return true;
    }

    static Renderer* renderer_;
    static std::string setup_error_;
};
Renderer* FramingRenderTest::renderer_ = nullptr;
std::string FramingRenderTest::setup_error_;

TEST_F(FramingRenderTest, EverySampleFillsAboutSixtyPercentOfTheFrameHeight) {
    ASSERT_NE(renderer_, nullptr) << setup_error_;
    std::vector<float> heights;
    for (const char* name :
         {"campfire", "ember_gust", "fireworks", "fountain", "lightning", "magic_orb",
          "portal_ring", "rockfall", "smoke_plume", "snowfall", "spark_burst", "sword_trail"}) {
        SCOPED_TRACE(name);
        Extent extent;
        std::string error;
        ASSERT_TRUE(measure(name, extent, error)) << error;
        std::printf("framing %-12s height %.2f width %.2f\n", name, extent.height(),
                    extent.width());
        // The box spans 60 % of the height (or 90 % of the width for a wide effect). What is
        // drawn reaches less where the box's edges hold faint or sub-pixel particles (fireworks'
        // thin rocket trails), and more where bloom and the box's depth (its near corners project
        // lower) carry it past, and where small textured particles are drawn from their mip
        // chain: a 2-pixel spark's glow then covers its whole quad faintly (spark_burst: 0.82).
        EXPECT_GE(std::max(extent.height(), extent.width()), 0.4f);
        EXPECT_LE(extent.height(), 0.85f);
        EXPECT_LT(extent.width(), 0.95f) << "the effect must not run off the sides";
        heights.push_back(extent.height());
    }
    EXPECT_TRUE(validationMessages(*renderer_).empty()) << validationMessages(*renderer_).front();
    // Typically the effect fills about 60 %: fitted to the authored bounds at 60 % instead (no
    // measurement), the samples' median was 0.42, and magic_orb and sword_trail were under 0.4.
    std::sort(heights.begin(), heights.end());
    const float median = 0.5f * (heights[5] + heights[6]);
    std::printf("framing median height %.2f\n", median);
    EXPECT_GE(median, 0.5f);
    EXPECT_LE(median, 0.68f);
}

} // namespace
} // namespace spindrift::render
