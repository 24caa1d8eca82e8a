#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "spindrift/effect_json.h"

namespace spindrift {
namespace {

struct Loaded {
    bool ok = false;
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
};

Loaded load(std::string_view text, std::string_view file = "test.json") {
    Loaded l;
    l.ok = loadEffect(text, file, l.effect, l.diagnostics);
    return l;
}

std::string dump(const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (const auto& d : diagnostics) all += formatDiagnostic(d) + "\n";
    return all;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(EffectReader, MinimalDocumentTakesEveryDefault) {
    const Loaded l = load(R"({"version": 1, "name": "x", "emitters": [{"name": "a"}]})");
    ASSERT_TRUE(l.ok) << dump(l.diagnostics);
    EXPECT_TRUE(l.diagnostics.empty());
    EffectDesc expected;
    expected.name = "x";
    expected.emitters.resize(1);
    expected.emitters[0].name = "a";
    EXPECT_EQ(l.effect, expected);
    // Spot-check the documented defaults the struct carries.
    const EmitterDesc& e = l.effect.emitters[0];
    EXPECT_EQ(l.effect.capacity, 65536u);
    EXPECT_EQ(e.capacity, 1024u);
    EXPECT_EQ(e.spawn.rate_per_s, 10.0f);
    EXPECT_EQ(e.shape.type, ShapeKind::point);
    EXPECT_EQ(e.init.lifetime_s, (FloatRange{1, 1}));
    EXPECT_EQ(e.init.color.mode, ColorMode::constant);
    EXPECT_EQ(e.render.type, RenderType::billboard);
    EXPECT_TRUE(e.update.empty());
}

TEST(EffectReader, MinimalModulesTakeTheirDefaults) {
    const Loaded l = load(R"({"version": 1, "name": "x", "emitters": [{"name": "a", "update": [
        {"type": "gravity"}, {"type": "buoyancy"}, {"type": "color_over_life"},
        {"type": "size_over_life"}, {"type": "collision"}]}]})");
    ASSERT_TRUE(l.ok) << dump(l.diagnostics);
    const auto& update = l.effect.emitters[0].update;
    ASSERT_EQ(update.size(), 5u);
    EXPECT_EQ(update[0], (UpdateModule{true, GravityModule{}}));
    EXPECT_EQ(std::get<GravityModule>(update[0].module).acceleration, (Float3{0, -9.81f, 0}));
    EXPECT_FALSE(std::get<BuoyancyModule>(update[1].module).has_over_life);
    EXPECT_EQ(std::get<ColorOverLifeModule>(update[2].module).gradient, Gradient{});
    EXPECT_EQ(std::get<SizeOverLifeModule>(update[3].module).curve.keys,
              (std::vector<CurveKey>{{0, 1}}));
    EXPECT_EQ(update[4], (UpdateModule{true, CollisionModule{}}));
}

TEST(EffectReader, ReadsTheFullLayoutExample) {
    const std::string path =
        std::string(SPINDRIFT_SOURCE_DIR) + "/fuzz/corpus/effect_json/campfire.json";
    const Loaded l = load(readFile(path));
    ASSERT_TRUE(l.ok) << dump(l.diagnostics);
    const EffectDesc& fx = l.effect;
    EXPECT_EQ(fx.name, "campfire");
    EXPECT_EQ(fx.seed, 7u);
    EXPECT_EQ(fx.fixed_timestep_s, 0.016666668f);
    EXPECT_EQ(fx.bounds.half_extents, (Float3{1, 2, 1}));
    ASSERT_EQ(fx.emitters.size(), 2u);
    const EmitterDesc& flames = fx.emitters[0];
    EXPECT_EQ(flames.capacity, 2048u);
    ASSERT_EQ(flames.spawn.bursts.size(), 1u);
    EXPECT_EQ(flames.spawn.bursts[0].count, (CountRange{10, 20}));
    EXPECT_EQ(flames.shape.type, ShapeKind::cone);
    EXPECT_EQ(flames.shape.radius, 0.3f);
    EXPECT_EQ(flames.shape.angle_deg, 15.0f);
    EXPECT_EQ(flames.init.lifetime_s, (FloatRange{0.6f, 1.2f}));
    EXPECT_EQ(flames.init.angular_velocity_deg_per_s, (FloatRange{0, 0}));
    EXPECT_EQ(flames.init.color.mode, ColorMode::constant);
    EXPECT_EQ(flames.init.color.a, (Float4{1, 0.5f, 0.1f, 1}));
    ASSERT_EQ(flames.update.size(), 7u);
    EXPECT_FALSE(flames.update[1].enabled);
    EXPECT_EQ(std::get<DragModule>(flames.update[1].module).coefficient_per_s, 1.5f);
    const auto& buoyancy = std::get<BuoyancyModule>(flames.update[2].module);
    EXPECT_TRUE(buoyancy.has_over_life);
    EXPECT_EQ(buoyancy.over_life, (Curve{Interpolation::smooth, {{0, 1}, {1, 0}}}));
    const auto& colour = std::get<ColorOverLifeModule>(flames.update[3].module).gradient;
    EXPECT_EQ(colour.color_keys, (std::vector<ColorKey>{{0, {1, 1, 1}}, {1, {1, 0.2f, 0}}}));
    EXPECT_EQ(colour.alpha_keys, (std::vector<AlphaKey>{{0, 1}, {1, 0}}));
    EXPECT_EQ(std::get<SizeOverLifeModule>(flames.update[4].module).curve.keys.size(), 3u);
    EXPECT_EQ(std::get<ForceFieldModule>(flames.update[5].module).shape, ForceFieldKind::vortex);
    const auto& collision = std::get<CollisionModule>(flames.update[6].module);
    EXPECT_EQ(collision.planes.size(), 1u);
    EXPECT_EQ(collision.spheres.size(), 1u);
    EXPECT_EQ(collision.boxes.size(), 1u);
    EXPECT_EQ(collision.bounce, 0.4f);
    EXPECT_EQ(flames.render.texture, "textures/flame.png");
    EXPECT_EQ(flames.render.billboard.flipbook.frames, 16u);
    EXPECT_TRUE(flames.render.billboard.flipbook.frame_blend);
    ASSERT_EQ(flames.sub_emitters.size(), 1u);
    EXPECT_EQ(flames.sub_emitters[0].emitter, "sparks");
    EXPECT_EQ(flames.sub_emitters[0].count, (CountRange{20, 30}));
    const EmitterDesc& sparks = fx.emitters[1];
    EXPECT_EQ(sparks.init.color.mode, ColorMode::random_between);
    EXPECT_EQ(sparks.init.color.b, (Float4{1, 0.4f, 0.1f, 1}));
    EXPECT_EQ(sparks.init.size, (FloatRange{0.02f, 0.02f}));
    EXPECT_EQ(sparks.render.billboard.alignment, Alignment::velocity_stretch);
}

TEST(EffectReader, ReadsEachValueForm) {
    const Loaded l = load(R"({"version": 1, "name": "x", "emitters": [{"name": "a",
        "init": {"velocity": [[0, 1, 2], [3, 4, 5]], "speed": 2, "size": [0.1, 0.5],
                 "color": {"gradient": {"interpolation": "step", "alpha_keys": [[0, 0.5]]}}},
        "update": [{"type": "size_over_life", "curve": 3},
                   {"type": "force_field", "axis": [0, 0, 2]},
                   {"type": "collision", "planes": [{"normal": [3, 0, 4]}]}],
        "shape": {"type": "mesh", "points": [[1, 2, 3, 0, 0, -5]]}}]})");
    ASSERT_TRUE(l.ok) << dump(l.diagnostics);
    const EmitterDesc& e = l.effect.emitters[0];
    EXPECT_EQ(e.init.velocity, (Float3Range{{0, 1, 2}, {3, 4, 5}}));
    EXPECT_EQ(e.init.speed, (FloatRange{2, 2}));
    EXPECT_EQ(e.init.size, (FloatRange{0.1f, 0.5f}));
    EXPECT_EQ(e.init.color.mode, ColorMode::gradient);
    EXPECT_EQ(e.init.color.gradient.interpolation, Interpolation::step);
    EXPECT_EQ(e.init.color.gradient.color_keys, Gradient{}.color_keys);
    EXPECT_EQ(e.init.color.gradient.alpha_keys, (std::vector<AlphaKey>{{0, 0.5f}}));
    // A number is a constant curve: one key at t = 0.
    EXPECT_EQ(std::get<SizeOverLifeModule>(e.update[0].module).curve,
              (Curve{Interpolation::linear, {{0, 3}}}));
    // Axes and normals are normalised on load.
    EXPECT_EQ(std::get<ForceFieldModule>(e.update[1].module).axis, (Float3{0, 0, 1}));
    const Float3 n = std::get<CollisionModule>(e.update[2].module).planes[0].normal;
    EXPECT_FLOAT_EQ(n.x, 0.6f);
    EXPECT_FLOAT_EQ(n.z, 0.8f);
    ASSERT_EQ(e.shape.points.size(), 1u);
    EXPECT_EQ(e.shape.points[0], (MeshPoint{{1, 2, 3}, {0, 0, -1}}));
}

TEST(EffectReader, ReportsEveryMistakeInTheDocumentEachOnce) {
    const Loaded l = load(R"({"version": 1, "name": "x",
  "looping": 3,
  "emitters": [{"name": "a", "spawn": {"rate_per_s": "fast", "delay_s": -1}},
               {"name": "b", "init": {"lifetime_s": [2, 1]}, "capacity": 0}]})");
    EXPECT_FALSE(l.ok);
    ASSERT_EQ(l.diagnostics.size(), 5u) << dump(l.diagnostics);
    // In document order, each with its path.
    EXPECT_EQ(l.diagnostics[0].path, "$.looping");
    EXPECT_EQ(l.diagnostics[1].path, "$.emitters[0].spawn.rate_per_s");
    EXPECT_EQ(l.diagnostics[2].path, "$.emitters[0].spawn.delay_s");
    EXPECT_EQ(l.diagnostics[3].path, "$.emitters[1].init.lifetime_s");
    EXPECT_EQ(l.diagnostics[4].path, "$.emitters[1].capacity");
    // The wrong-typed rate is one mistake: it is not also range-checked.
    EXPECT_EQ(l.diagnostics[1].message, "expected a number, found the string \"fast\"");
    EXPECT_EQ(l.diagnostics[2].message, "expected a number >= 0, found -1");
    EXPECT_EQ(l.diagnostics[3].message, "expected [min, max] with min <= max, found [2, 1]");
    // Positions come from the document: "looping" is on line 2, its value at column 14.
    EXPECT_EQ(l.diagnostics[0].line, 2u);
    EXPECT_EQ(l.diagnostics[0].column, 14u);
    EXPECT_EQ(l.diagnostics[4].line, 4u);
    for (const Diagnostic& d : l.diagnostics) {
        EXPECT_EQ(d.file, "test.json");
        EXPECT_EQ(d.severity, Severity::error);
    }
}

TEST(EffectReader, UnknownKeyMessageListsTheKeysThatAreAllowed) {
    const Loaded l =
        load(R"({"version": 1, "name": "x", "emitters": [{"name": "a", "spawn": {"rate": 1}}]})");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].message,
              "unknown key 'rate'; expected one of: rate_per_s, rate_per_m, delay_s, bursts");
    EXPECT_EQ(l.diagnostics[0].path, "$.emitters[0].spawn.rate");
    EXPECT_EQ(l.diagnostics[0].column, 66u); // the key itself
}

TEST(EffectReader, SemanticErrorWithoutItsKeyPointsAtTheNearestAncestor) {
    // Effect capacity is left at its default, so the sum rule's path ($.capacity) is absent
    // from the document and the diagnostic points at the root object.
    const Loaded l = load(R"(  {"version": 1, "name": "x", "emitters": [
        {"name": "a", "capacity": 60000}, {"name": "b", "capacity": 6000}]})");
    ASSERT_EQ(l.diagnostics.size(), 1u) << dump(l.diagnostics);
    EXPECT_EQ(l.diagnostics[0].path, "$.capacity");
    EXPECT_EQ(l.diagnostics[0].line, 1u);
    EXPECT_EQ(l.diagnostics[0].column, 3u);
}

TEST(EffectReader, UnknownShapeTypeIsOneMistakeNotOnePerKey) {
    const Loaded l = load(R"({"version": 1, "name": "x", "emitters": [{"name": "a",
        "shape": {"type": "cylinder", "radius": 2, "emit_from": "shell"}}]})");
    ASSERT_EQ(l.diagnostics.size(), 1u) << dump(l.diagnostics);
    EXPECT_EQ(l.diagnostics[0].path, "$.emitters[0].shape.type");
    EXPECT_NE(
        l.diagnostics[0].message.find("unknown value 'cylinder'; expected one of: point, line"),
        std::string::npos);
}

TEST(EffectReader, WrongTypedEmitterNameIsReportedOnce) {
    const Loaded l = load(R"({"version": 1, "name": "x", "emitters": [{"name": 5}, 7]})");
    ASSERT_EQ(l.diagnostics.size(), 2u) << dump(l.diagnostics);
    EXPECT_EQ(l.diagnostics[0].path, "$.emitters[0].name");
    EXPECT_EQ(l.diagnostics[0].message, "expected a string, found 5");
    EXPECT_EQ(l.diagnostics[1].path, "$.emitters[1]");
    EXPECT_EQ(l.diagnostics[1].message, "expected an object, found 7");
}

TEST(EffectReader, RulesComparingWithARejectedValueStaySilent) {
    // columns is rejected (kept at 1), so "frames 4 > columns * rows" would be a cascade; the
    // sub-emitter names an emitter whose name was rejected; the capacity sum includes it.
    const Loaded l = load(R"({"version": 1, "name": "x", "capacity": 2000, "emitters": [
        {"name": "a", "render": {"flipbook": {"columns": "2", "rows": 2, "frames": 4}},
         "sub_emitters": [{"emitter": "b"}]},
        {"name": ["b"], "capacity": 1000},
        {"name": "c", "capacity": -5}]})");
    ASSERT_EQ(l.diagnostics.size(), 3u) << dump(l.diagnostics);
    EXPECT_EQ(l.diagnostics[0].path, "$.emitters[0].render.flipbook.columns");
    EXPECT_EQ(l.diagnostics[1].path, "$.emitters[1].name");
    EXPECT_EQ(l.diagnostics[2].path, "$.emitters[2].capacity");
}

TEST(EffectReader, OtherVersionIsReportedAloneAndNothingElseIsRead) {
    const Loaded l = load(R"({"version": 3, "nom": "x"})");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].message, "unsupported format version 3; expected 1");
}

TEST(EffectReader, JsonSyntaxErrorCarriesTheFileName) {
    const Loaded l = load("{\"version\": 1,", "fx/broken.json");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].file, "fx/broken.json");
    EXPECT_FALSE(l.ok);
}

TEST(EffectReader, MissingFileIsOneDiagnostic) {
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffectFile("/nonexistent/dir/fx.json", effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, "/nonexistent/dir/fx.json");
    EXPECT_EQ(diagnostics[0].line, 0u);
    EXPECT_NE(diagnostics[0].message.find("cannot read"), std::string::npos);
}

TEST(EffectReader, DirectoryIsOneDiagnostic) {
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffectFile(SPINDRIFT_SOURCE_DIR, effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("directory"), std::string::npos);
}

TEST(EffectReader, FileOver64MiBIsRefusedBeforeReading) {
    const auto path = std::filesystem::temp_directory_path() / "spindrift_authoring_huge.json";
    { std::ofstream out(path); }
    std::filesystem::resize_file(path, 64ull * 1024 * 1024 + 1); // sparse: nothing is written
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffectFile(path.string(), effect, diagnostics));
    std::filesystem::remove(path);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("67108865 bytes"), std::string::npos)
        << diagnostics[0].message;
}

TEST(EffectReader, LoadsAFileFromDisk) {
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    const std::string path =
        std::string(SPINDRIFT_SOURCE_DIR) + "/fuzz/corpus/effect_json/trail.json";
    ASSERT_TRUE(loadEffectFile(path, effect, diagnostics)) << dump(diagnostics);
    ASSERT_EQ(effect.emitters.size(), 3u);
    EXPECT_EQ(effect.space, SimulationSpace::local);
    EXPECT_EQ(effect.emitters[0].render.type, RenderType::ribbon);
    EXPECT_EQ(effect.emitters[0].render.ribbon.max_points, 64u);
    EXPECT_EQ(effect.emitters[1].render.beam.segments, 32u);
    EXPECT_EQ(effect.emitters[1].spawn.bursts[0].cycles, 0u);
    EXPECT_EQ(effect.emitters[2].render.mesh.mesh, "meshes/rock.obj");
    // [0, 2, 0] is normalised; [1, 1, 0] becomes [1/sqrt2, 1/sqrt2, 0].
    EXPECT_EQ(effect.emitters[2].shape.points[0].normal, (Float3{0, 1, 0}));
    EXPECT_FLOAT_EQ(effect.emitters[2].shape.points[1].normal.x, float(1 / std::sqrt(2.0)));
}

} // namespace
} // namespace spindrift
