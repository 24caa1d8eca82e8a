// validateEffect on descriptions built in code: the same rules the reader's documents obey.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "spindrift/effect_json.h"

namespace spindrift {
namespace {

EffectDesc minimalEffect() {
    EffectDesc e;
    e.name = "fx";
    e.emitters.resize(1);
    e.emitters[0].name = "a";
    return e;
}

std::vector<Diagnostic> validate(const EffectDesc& e) {
    std::vector<Diagnostic> diagnostics;
    const bool ok = validateEffect(e, diagnostics);
    EXPECT_EQ(ok, diagnostics.empty());
    return diagnostics;
}

std::string dumpValidate(const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (const auto& d : diagnostics) all += formatDiagnostic(d) + "\n";
    return all;
}

// Exactly one diagnostic, at path, whose message contains text.
void expectOne(const EffectDesc& e, const std::string& path, const std::string& text) {
    const auto d = validate(e);
    ASSERT_EQ(d.size(), 1u) << dumpValidate(d);
    EXPECT_EQ(d[0].path, path);
    EXPECT_NE(d[0].message.find(text), std::string::npos) << d[0].message;
    EXPECT_EQ(d[0].line, 0u); // code-built: no positions
}

TEST(EffectValidate, MinimalEffectIsValid) {
    EXPECT_TRUE(validate(minimalEffect()).empty());
}

TEST(EffectValidate, DefaultEffectNeedsANameAndEmitters) {
    const auto d = validate(EffectDesc{});
    ASSERT_EQ(d.size(), 2u) << dumpValidate(d);
    EXPECT_EQ(d[0].path, "$.name");
    EXPECT_EQ(d[1].path, "$.emitters");
    EXPECT_EQ(d[1].message, "expected 1 to 64 emitters, found 0");
}

TEST(EffectValidate, RejectsNonFiniteFloats) {
    EffectDesc e = minimalEffect();
    e.emitters[0].transform.position.y = std::numeric_limits<float>::quiet_NaN();
    expectOne(e, "$.emitters[0].transform.position[1]", "expected a finite number, found nan");
    e = minimalEffect();
    e.emitters[0].init.speed = {0, std::numeric_limits<float>::infinity()};
    expectOne(e, "$.emitters[0].init.speed[1]", "found inf");
}

TEST(EffectValidate, RangesNameTheBoundsAndTheValue) {
    EffectDesc e = minimalEffect();
    e.emitters[0].sub_emitters.push_back({});
    e.emitters.push_back({});
    e.emitters[1].name = "b";
    e.emitters[0].sub_emitters[0].emitter = "b";
    e.emitters[0].sub_emitters[0].probability = 1.5f;
    expectOne(e, "$.emitters[0].sub_emitters[0].probability",
              "expected a number in [0, 1], found 1.5");
    e.emitters[0].sub_emitters[0].probability = 1;
    e.emitters[0].sub_emitters[0].count = {0, 0};
    expectOne(e, "$.emitters[0].sub_emitters[0].count",
              "expected an integer in [1, 1024], found 0");
    e = minimalEffect();
    e.duration_s = 0;
    expectOne(e, "$.duration_s", "expected a number in (0, 3600], found 0");
    e = minimalEffect();
    e.emitters[0].init.mass = {-1, 2};
    expectOne(e, "$.emitters[0].init.mass[0]", "expected a number > 0, found -1");
}

TEST(EffectValidate, EmitterNamesAreUniqueAndWellFormed) {
    EffectDesc e = minimalEffect();
    e.emitters.push_back(e.emitters[0]);
    expectOne(e, "$.emitters[1].name", "emitter name 'a' is used twice (first at emitters[0])");
    e.emitters[1].name = "b/c";
    expectOne(e, "$.emitters[1].name", "found 'b/c'");
    e.emitters[1].name = std::string(65, 'x');
    expectOne(e, "$.emitters[1].name", "1 to 64 characters");
    e.emitters[1].name = std::string(64, 'x');
    EXPECT_TRUE(validate(e).empty());
}

TEST(EffectValidate, SubEmitterReferencesResolveWithoutCycles) {
    EffectDesc e = minimalEffect();
    e.emitters.resize(3);
    e.emitters[1].name = "b";
    e.emitters[2].name = "c";
    // a -> b -> c is fine.
    e.emitters[0].sub_emitters.push_back({SubEmitterEvent::death, "b"});
    e.emitters[1].sub_emitters.push_back({SubEmitterEvent::death, "c"});
    EXPECT_TRUE(validate(e).empty());
    // c -> a closes a cycle: reported once, at the closing link.
    e.emitters[2].sub_emitters.push_back({SubEmitterEvent::birth, "a"});
    expectOne(e, "$.emitters[2].sub_emitters[0].emitter", "sub-emitter cycle: a -> b -> c -> a");
    e.emitters[2].sub_emitters[0].emitter = "c";
    expectOne(e, "$.emitters[2].sub_emitters[0].emitter", "refers to its own emitter 'c'");
    e.emitters[2].sub_emitters[0].emitter = "d";
    expectOne(e, "$.emitters[2].sub_emitters[0].emitter",
              "sub-emitter refers to unknown emitter 'd' (known: a, b, c)");
}

TEST(EffectValidate, CapacitiesAddUpWithinTheEffect) {
    EffectDesc e = minimalEffect();
    e.emitters.push_back(e.emitters[0]);
    e.emitters[1].name = "b";
    e.capacity = 2047;
    expectOne(e, "$.capacity", "add up to 2048, more than the effect capacity 2047");
    e.capacity = 2048;
    EXPECT_TRUE(validate(e).empty());
    e.capacity = kMaxEffectCapacity + 1;
    expectOne(e, "$.capacity", "expected an integer in [1, 268435456]");
}

TEST(EffectValidate, ShapeFieldsOfAnotherTypeMustKeepTheirDefaults) {
    EffectDesc e = minimalEffect();
    e.emitters[0].shape.type = ShapeKind::box;
    e.emitters[0].shape.radius = 3;
    expectOne(e, "$.emitters[0].shape.radius", "'radius' does not apply to shape type 'box'");
    e.emitters[0].shape.type = ShapeKind::sphere;
    EXPECT_TRUE(validate(e).empty());
    e.emitters[0].shape.emit_from = EmitFrom::edge;
    expectOne(e, "$.emitters[0].shape.emit_from", "expected one of: volume, shell");
}

TEST(EffectValidate, MeshShapeNeedsPointsWithUnitNormals) {
    EffectDesc e = minimalEffect();
    e.emitters[0].shape.type = ShapeKind::mesh;
    expectOne(e, "$.emitters[0].shape.points", "expected 1 to 65536 mesh points, found 0");
    e.emitters[0].shape.points.push_back({{0, 0, 0}, {0, 2, 0}});
    expectOne(e, "$.emitters[0].shape.points[0]", "unit-length");
    e.emitters[0].shape.points[0].normal = {0, 0, 0};
    expectOne(e, "$.emitters[0].shape.points[0]", "expected a non-zero direction");
}

TEST(EffectValidate, RenderSettingsOfAnotherTypeMustKeepTheirDefaults) {
    EffectDesc e = minimalEffect();
    e.emitters[0].render.ribbon.width = 1;
    expectOne(e, "$.emitters[0].render", "ribbon settings are set but render type 'billboard'");
    e.emitters[0].render.type = RenderType::ribbon;
    EXPECT_TRUE(validate(e).empty());
    e.emitters[0].render.type = RenderType::mesh;
    e.emitters[0].render.ribbon = {};
    expectOne(e, "$.emitters[0].render.mesh", "expected a non-empty path");
}

// Opaque (no blending, depth written) is for meshes only.
TEST(EffectValidate, OnlyMeshEmittersAreOpaque) {
    EffectDesc e = minimalEffect();
    e.emitters[0].render.blend = BlendMode::opaque;
    expectOne(e, "$.emitters[0].render.blend",
              "blend 'opaque' is only for mesh emitters; render type 'billboard' blends");
    e.emitters[0].render.type = RenderType::ribbon;
    expectOne(e, "$.emitters[0].render.blend", "render type 'ribbon' blends");
    e.emitters[0].render.type = RenderType::mesh;
    e.emitters[0].render.mesh.mesh = "rock.obj";
    EXPECT_TRUE(validate(e).empty());
}

TEST(EffectValidate, ColourModeUsesOnlyItsOwnFields) {
    EffectDesc e = minimalEffect();
    e.emitters[0].init.color.b = {0, 0, 0, 1};
    expectOne(e, "$.emitters[0].init.color", "the second colour is set");
    e.emitters[0].init.color.mode = ColorMode::random_between;
    e.emitters[0].init.color.b.w = 2;
    expectOne(e, "$.emitters[0].init.color[1][3]", "expected a number in [0, 1], found 2");
}

TEST(EffectValidate, BurstRules) {
    EffectDesc e = minimalEffect();
    Burst b;
    b.cycles = 0;
    b.interval_s = 0;
    e.emitters[0].spawn.bursts.push_back(b);
    expectOne(e, "$.emitters[0].spawn.bursts[0].interval_s", "> 0 when cycles is 0");
    e.emitters[0].spawn.bursts[0].cycles = 1;
    EXPECT_TRUE(validate(e).empty());
    e.emitters[0].spawn.bursts[0].count = {5, 4};
    expectOne(e, "$.emitters[0].spawn.bursts[0].count", "min <= max, found [5, 4]");
    e.emitters[0].spawn.bursts.assign(kMaxBursts + 1, Burst{});
    expectOne(e, "$.emitters[0].spawn.bursts", "expected at most 16 bursts, found 17");
}

TEST(EffectValidate, ModuleRules) {
    EffectDesc e = minimalEffect();
    auto& update = e.emitters[0].update;
    update.push_back({true, CurlNoiseModule{1, 0, 1, {}}});
    expectOne(e, "$.emitters[0].update[0].frequency", "expected a number > 0, found 0");
    update[0] = {true, ColorBySpeedModule{{}, 5, 5}};
    expectOne(e, "$.emitters[0].update[0].max_speed", "expected a number > 5, found 5");
    Curve backwards{Interpolation::linear, {{0.5f, 1}, {0.25f, 2}}};
    update[0] = {true, SizeOverLifeModule{backwards}};
    expectOne(e, "$.emitters[0].update[0].curve.keys[1]", "found t = 0.25 after t = 0.5");
    update[0] = {true, BuoyancyModule{1, false, backwards}};
    expectOne(e, "$.emitters[0].update[0].over_life", "has_over_life is false");
    CollisionModule collision;
    collision.spheres.assign(9, CollisionSphere{});
    update[0] = {true, collision};
    expectOne(e, "$.emitters[0].update[0]", "at most 8 colliders");
    // Disabled modules obey the same rules.
    update[0] = {false, DragModule{-1}};
    expectOne(e, "$.emitters[0].update[0].coefficient_per_s", "found -1");
    update.assign(kMaxAttractors + 1, UpdateModule{true, AttractorModule{}});
    expectOne(e, "$.emitters[0].update[8]", "more than 8 attractor modules");
}

TEST(EffectValidate, StringsMustBeUtf8ToSurviveSaving) {
    EffectDesc e = minimalEffect();
    e.name = "bad\xff";
    expectOne(e, "$.name", "UTF-8");
}

} // namespace
} // namespace spindrift
