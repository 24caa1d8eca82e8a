#include "compiler/structural_hash.h"

#include <functional>
#include <set>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "compiler/compile_effect.h"
#include "compiler/sample_effects.h"

namespace spindrift {
namespace {

using test::curve;
using test::module;
using Edit = std::pair<std::string, std::function<void(EffectDesc&)>>;

EmitterDesc& flames(EffectDesc& fx) {
    return fx.emitters[0];
}

// The hash compileEffect stores, which is structuralHash of what it compiled.
uint64_t hashOf(const EffectDesc& fx) {
    CompiledEffect compiled;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(compileEffect(fx, compiled, diagnostics))
        << fx.name << ": " << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0]));
    EXPECT_EQ(compiled.structural_hash, structuralHash(compiled)) << fx.name;
    return compiled.structural_hash;
}

TEST(StructuralHash, MatchesTheFnv1aReferenceValues) {
    EXPECT_EQ(fnv1a64("", 0), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64("a", 1), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(fnv1a64("foobar", 6), 0x85944171f73967e8ull);
}

TEST(StructuralHash, IgnoresValueEdits) {
    const uint64_t base = hashOf(test::campfireEffect());
    const std::vector<Edit> edits = {
        {"rate", [](EffectDesc& fx) { flames(fx).spawn.rate_per_s = 99; }},
        {"rate_per_m", [](EffectDesc& fx) { flames(fx).spawn.rate_per_m = 3; }},
        {"burst count",
         [](EffectDesc& fx) {
             flames(fx).spawn.bursts[0].count = {1, 2};
         }},
        {"capacity", [](EffectDesc& fx) { flames(fx).capacity = 100; }},
        {"effect capacity", [](EffectDesc& fx) { fx.capacity = 9999; }},
        {"size",
         [](EffectDesc& fx) {
             flames(fx).init.size = {1, 2};
         }},
        {"lifetime",
         [](EffectDesc& fx) {
             flames(fx).init.lifetime_s = {3, 4};
         }},
        {"colour",
         [](EffectDesc& fx) {
             flames(fx).init.color.a = {0, 1, 0, 1};
         }},
        {"position",
         [](EffectDesc& fx) {
             flames(fx).transform.position = {5, 5, 5};
         }},
        {"rotation",
         [](EffectDesc& fx) {
             flames(fx).transform.rotation_deg = {0, 45, 0};
         }},
        {"shape radius", [](EffectDesc& fx) { flames(fx).shape.radius = 2; }},
        {"gravity",
         [](EffectDesc& fx) {
             std::get<GravityModule>(flames(fx).update[0].module).acceleration = {0, -1, 0};
         }},
        {"curve key values",
         [](EffectDesc& fx) {
             auto& b = std::get<BuoyancyModule>(flames(fx).update[2].module);
             b.over_life.keys[0].value = 0.25f;
             b.over_life.keys[1].t = 0.75f;
         }},
        {"gradient keys",
         [](EffectDesc& fx) {
             auto& c = std::get<ColorOverLifeModule>(flames(fx).update[3].module);
             c.gradient.color_keys[1].color = {0, 0, 1};
         }},
        {"force field strength",
         [](EffectDesc& fx) {
             std::get<ForceFieldModule>(flames(fx).update[5].module).strength = -2;
         }},
        {"collider values",
         [](EffectDesc& fx) {
             auto& c = std::get<CollisionModule>(flames(fx).update[6].module);
             c.planes[0].point = {0, -1, 0};
             c.bounce = 0.9f;
         }},
        {"soft fade", [](EffectDesc& fx) { flames(fx).render.soft_fade_distance = 0.5f; }},
        {"texture", [](EffectDesc& fx) { flames(fx).render.texture = "other.png"; }},
        {"flipbook size", [](EffectDesc& fx) { flames(fx).render.billboard.flipbook.columns = 8; }},
        {"sub-emitter count",
         [](EffectDesc& fx) {
             flames(fx).sub_emitters[0].count = {1, 1};
         }},
        {"seed", [](EffectDesc& fx) { fx.seed = 1234; }},
        // Gravity and force compile to the same op: for the backends they are one structure.
        {"gravity becomes force",
         [](EffectDesc& fx) {
             flames(fx).update[0].module = ForceModule{{0, -9.81f, 0}};
         }},
        // A disabled module compiles to nothing; only where it stands counts (source_module).
        {"disabled module's kind",
         [](EffectDesc& fx) { flames(fx).update[1].module = WindModule{}; }},
        {"trailing disabled emitter",
         [](EffectDesc& fx) {
             fx.emitters.push_back(test::namedEmitter("off"));
             fx.emitters.back().enabled = false;
         }},
        {"duration", [](EffectDesc& fx) { fx.duration_s = 10; }},
    };
    for (const auto& [name, edit] : edits) {
        EffectDesc fx = test::campfireEffect();
        edit(fx);
        EXPECT_EQ(hashOf(fx), base) << name;
    }
}

// Each edit leaves a valid effect: the hash is that of what the effect compiles to.
TEST(StructuralHash, ChangesWithEveryStructuralEdit) {
    const uint64_t base = hashOf(test::campfireEffect());
    const std::vector<Edit> edits = {
        {"add emitter", [](EffectDesc& fx) { fx.emitters.push_back(test::namedEmitter("x")); }},
        {"remove emitter", [](EffectDesc& fx) { fx.emitters.erase(fx.emitters.begin()); }},
        {"reorder emitters", [](EffectDesc& fx) { std::swap(fx.emitters[0], fx.emitters[1]); }},
        {"disable emitter", [](EffectDesc& fx) { fx.emitters[1].enabled = false; }},
        {"add module", [](EffectDesc& fx) { flames(fx).update.push_back(module(DragModule{})); }},
        {"remove module", [](EffectDesc& fx) { flames(fx).update.pop_back(); }},
        {"module order",
         [](EffectDesc& fx) { std::swap(flames(fx).update[3], flames(fx).update[4]); }},
        {"module kind", [](EffectDesc& fx) { flames(fx).update[0].module = WindModule{}; }},
        {"disable module", [](EffectDesc& fx) { flames(fx).update[0].enabled = false; }},
        {"enable module", [](EffectDesc& fx) { flames(fx).update[1].enabled = true; }},
        {"shape type",
         [](EffectDesc& fx) {
             const float radius = flames(fx).shape.radius;
             flames(fx).shape = ShapeDesc{};
             flames(fx).shape.type = ShapeKind::sphere;
             flames(fx).shape.radius = radius;
         }},
        {"emit_from", [](EffectDesc& fx) { flames(fx).shape.emit_from = EmitFrom::shell; }},
        {"render type",
         [](EffectDesc& fx) {
             flames(fx).render.billboard = BillboardDesc{};
             flames(fx).render.type = RenderType::ribbon;
         }},
        {"alignment",
         [](EffectDesc& fx) { flames(fx).render.billboard.alignment = Alignment::axis; }},
        {"blend", [](EffectDesc& fx) { flames(fx).render.blend = BlendMode::alpha; }},
        {"sort", [](EffectDesc& fx) { flames(fx).render.sort = SortMode::back_to_front; }},
        {"lit", [](EffectDesc& fx) { flames(fx).render.lit = true; }},
        {"stable_order", [](EffectDesc& fx) { flames(fx).render.stable_order = true; }},
        {"frame_blend",
         [](EffectDesc& fx) { flames(fx).render.billboard.flipbook.frame_blend = false; }},
        {"random_start",
         [](EffectDesc& fx) { flames(fx).render.billboard.flipbook.random_start = true; }},
        {"has_over_life",
         [](EffectDesc& fx) {
             auto& buoyancy = std::get<BuoyancyModule>(flames(fx).update[2].module);
             buoyancy.has_over_life = false;
             buoyancy.over_life = Curve{};
         }},
        {"force field shape",
         [](EffectDesc& fx) {
             std::get<ForceFieldModule>(flames(fx).update[5].module).shape = ForceFieldKind::point;
         }},
        {"depth_buffer",
         [](EffectDesc& fx) {
             std::get<CollisionModule>(flames(fx).update[6].module).depth_buffer = true;
         }},
        {"collision response",
         [](EffectDesc& fx) {
             std::get<CollisionModule>(flames(fx).update[6].module).response =
                 CollisionResponse::kill;
         }},
        {"colour mode",
         [](EffectDesc& fx) { flames(fx).init.color.mode = ColorMode::random_between; }},
        {"overflow", [](EffectDesc& fx) { flames(fx).overflow = OverflowPolicy::replace_oldest; }},
        {"backend", [](EffectDesc& fx) { flames(fx).backend = BackendPreference::gpu; }},
        {"space", [](EffectDesc& fx) { fx.space = SimulationSpace::local; }},
        {"sub-emitter event",
         [](EffectDesc& fx) { flames(fx).sub_emitters[0].event = SubEmitterEvent::birth; }},
        {"sub-emitter removed", [](EffectDesc& fx) { flames(fx).sub_emitters.clear(); }},
    };
    std::set<uint64_t> seen = {base};
    for (const auto& [name, edit] : edits) {
        EffectDesc fx = test::campfireEffect();
        edit(fx);
        const uint64_t hash = hashOf(fx);
        EXPECT_NE(hash, base) << name;
        EXPECT_TRUE(seen.insert(hash).second) << name << " collides with an earlier edit";
    }
}

// A cooked file states its hash; the loader recomputes it from the records, so it must be a
// function of the records alone, and follow any structural field of them.
TEST(StructuralHash, FollowsTheCompiledRecords) {
    CompiledEffect compiled;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(compileEffect(test::everythingEffect(), compiled, diagnostics));
    const uint64_t base = structuralHash(compiled);
    EXPECT_EQ(base, compiled.structural_hash);
    CompiledEffect copy = compiled;
    copy.structural_hash = 0; // the stored value is not an input
    EXPECT_EQ(structuralHash(copy), base);
    const std::vector<std::pair<std::string, std::function<void(CompiledEffect&)>>> edits = {
        {"blend", [](CompiledEffect& c) { c.emitters[0].blend ^= 1; }},
        {"render flags", [](CompiledEffect& c) { c.emitters[0].render_flags ^= kRenderFlagLit; }},
        {"source index", [](CompiledEffect& c) { c.emitters[0].source_index += 1; }},
        {"op code", [](CompiledEffect& c) { c.ops[0].op ^= 1; }},
        {"op source module", [](CompiledEffect& c) { c.ops[0].source_module += 1; }},
        {"space", [](CompiledEffect& c) { c.effect.space ^= 1; }},
    };
    for (const auto& [name, edit] : edits) {
        CompiledEffect c = compiled;
        edit(c);
        EXPECT_NE(structuralHash(c), base) << name;
    }
    CompiledEffect values = compiled;
    values.emitters[0].rate_per_s += 1;
    values.emitters[0].capacity += 1;
    values.lut[0].x += 1;
    values.effect.seed += 1;
    EXPECT_EQ(structuralHash(values), base);
}

TEST(StructuralHash, DistinguishesWhichEmitterASubEmitterTargets) {
    EffectDesc a = test::campfireEffect();
    a.emitters.push_back(test::namedEmitter("embers"));
    EffectDesc b = a;
    b.emitters[0].sub_emitters[0].emitter = "embers";
    EXPECT_NE(hashOf(a), hashOf(b));
}

} // namespace
} // namespace spindrift
