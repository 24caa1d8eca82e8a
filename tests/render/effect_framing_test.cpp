// measureDrawnBounds (render/effect_framing.h): the box an effect is drawn in, measured by
// playing it, which the default scene of an effect frames.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "render/effect_framing.h"

namespace spindrift::render {
namespace {

namespace fs = std::filesystem;

std::string writeEffect(const std::string& name, const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / "spindrift_framing_test";
    fs::create_directories(dir);
    const fs::path file = dir / (name + ".json");
    std::ofstream(file) << text;
    return file.string();
}

// 400 still particles of size `size` filling a box of `box` full extents around `position`, all
// born at once and living the whole effect, colour `color`, blend `blend`; authored bounds much
// larger than that (10 m).
std::string boxEffect(const std::string& position, const std::string& box, float size,
                      const std::string& color, const std::string& blend,
                      const std::string& render_extra = "") {
    return R"({"version": 1, "name": "box", "seed": 3, "duration_s": 4,
  "bounds": {"center": [0, 0, 0], "half_extents": [10, 10, 10]},
  "emitters": [{"name": "dots", "capacity": 400,
    "transform": {"position": )" +
           position + R"(},
    "spawn": {"rate_per_s": 0, "bursts": [{"count": 400}]},
    "shape": {"type": "box", "size": )" +
           box + R"(},
    "init": {"lifetime_s": 10, "size": )" +
           std::to_string(size) + R"(, "speed": 0, "color": )" + color + R"(},
    "render": {"blend": ")" +
           blend + "\"" + render_extra + R"(}}]})";
}

TEST(EffectFraming, MeasuresTheBoxTheParticlesAreDrawnInNotTheAuthoredBounds) {
    const std::string file =
        writeEffect("box", boxEffect("[1, 2, -1]", "[2, 1, 4]", 0.2f, "[1, 1, 1, 1]", "alpha"));
    Bounds drawn;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(measureDrawnBounds(file, drawn, diagnostics));
    EXPECT_TRUE(diagnostics.empty());
    // The box's centre; its half extents plus half a particle, less the 2 % quantiles cut at
    // each side (a few percent of the extent).
    EXPECT_NEAR(drawn.center.x, 1, 0.05f);
    EXPECT_NEAR(drawn.center.y, 2, 0.05f);
    EXPECT_NEAR(drawn.center.z, -1, 0.1f);
    EXPECT_NEAR(drawn.half_extents.x, 1.1f, 0.06f);
    EXPECT_NEAR(drawn.half_extents.y, 0.6f, 0.04f);
    EXPECT_NEAR(drawn.half_extents.z, 2.1f, 0.12f);
}

TEST(EffectFraming, TheParticleSizeWidensTheBox) {
    const std::string small =
        writeEffect("small", boxEffect("[0, 0, 0]", "[1, 1, 1]", 0.1f, "[1, 1, 1, 1]", "alpha"));
    const std::string large =
        writeEffect("large", boxEffect("[0, 0, 0]", "[1, 1, 1]", 1.1f, "[1, 1, 1, 1]", "alpha"));
    Bounds a, b;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(measureDrawnBounds(small, a, diagnostics));
    ASSERT_TRUE(measureDrawnBounds(large, b, diagnostics));
    // Half of one more metre of particle on each side.
    EXPECT_NEAR(b.half_extents.y - a.half_extents.y, 0.5f, 0.01f);
}

TEST(EffectFraming, ADecalOnTheGroundAddsNoHeight) {
    // 2 m decals lying flat (fixed alignment, normal +Y) in a box 1 m high: the box is as high
    // as the centres' spread, and as wide as it plus a decal's half side.
    const std::string file =
        writeEffect("decal", boxEffect("[0, 0, 0]", "[2, 1, 2]", 2, "[1, 1, 1, 1]", "alpha",
                                       R"(, "alignment": "fixed")"));
    Bounds drawn;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(measureDrawnBounds(file, drawn, diagnostics));
    EXPECT_NEAR(drawn.half_extents.y, 0.5f, 0.04f);
    EXPECT_NEAR(drawn.half_extents.x, 2.0f, 0.06f);
}

TEST(EffectFraming, ParticlesHiddenBelowTheGroundAreNotFramed) {
    // A 2 m box of 0.2 m particles centred on the ground: only the upper half counts.
    const std::string half =
        writeEffect("half", boxEffect("[0, 0, 0]", "[2, 2, 2]", 0.2f, "[1, 1, 1, 1]", "alpha"));
    FramingConfig config;
    config.ground_y = 0;
    Bounds drawn;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(measureDrawnBounds(half, drawn, diagnostics, config));
    EXPECT_NEAR(drawn.center.y + drawn.half_extents.y, 1.1f, 0.05f);
    // Particles whose top reaches the ground count: centres from -0.1, lower edges from -0.2.
    EXPECT_NEAR(drawn.center.y - drawn.half_extents.y, -0.18f, 0.03f);
    // Wholly below: nothing to frame.
    const std::string below =
        writeEffect("below", boxEffect("[0, -3, 0]", "[2, 2, 2]", 0.2f, "[1, 1, 1, 1]", "alpha"));
    EXPECT_FALSE(measureDrawnBounds(below, drawn, diagnostics, config));
    EXPECT_TRUE(diagnostics.empty());
}

TEST(EffectFraming, InvisibleParticlesAreNotFramed) {
    // Transparent alpha particles, and black additive ones, draw nothing: false, no diagnostic,
    // so the caller frames the authored bounds.
    for (const auto& [color, blend] :
         {std::pair{"[1, 1, 1, 0]", "alpha"}, std::pair{"[0, 0, 0, 1]", "additive"}}) {
        const std::string file =
            writeEffect("invisible", boxEffect("[0, 0, 0]", "[1, 1, 1]", 0.2f, color, blend));
        Bounds drawn;
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(measureDrawnBounds(file, drawn, diagnostics)) << blend;
        EXPECT_TRUE(diagnostics.empty()) << blend;
    }
}

TEST(EffectFraming, SampleEffectsAreMeasuredTheSameEveryTime) {
    const std::string file = std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/campfire.json";
    Bounds a, b;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(measureDrawnBounds(file, a, diagnostics));
    ASSERT_TRUE(measureDrawnBounds(file, b, diagnostics));
    EXPECT_EQ(a, b);
    // Smaller than the authored (conservative) bounds.
    EXPECT_LT(a.half_extents.y, 2.2f);
    EXPECT_GT(a.half_extents.y, 0.5f);
}

TEST(EffectFraming, ABadEffectIsAnErrorWithTheLoadersDiagnostics) {
    const std::string file =
        writeEffect("bad", R"({"version": 1, "emitters": [{"capacity": -1}]})");
    Bounds drawn;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(measureDrawnBounds(file, drawn, diagnostics));
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_EQ(diagnostics[0].file, file);
}

} // namespace
} // namespace spindrift::render
