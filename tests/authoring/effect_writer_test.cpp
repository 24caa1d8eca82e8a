#include <gtest/gtest.h>

#include <fstream>

#include "authoring/random_effect.h"
#include "io/json_value.h"
#include "spindrift/effect_json.h"

namespace spindrift {
namespace {

std::string dumpWriter(const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (const auto& d : diagnostics) all += formatDiagnostic(d) + "\n";
    return all;
}

EffectDesc minimalWriterEffect() {
    EffectDesc e;
    e.name = "fx";
    e.emitters.resize(1);
    e.emitters[0].name = "a";
    return e;
}

// The member keys of the object at text's root, in order.
std::vector<std::string> keysOf(const json::Value& v) {
    return v.keys;
}

json::Value parseOrFail(const std::string& text) {
    json::Value root;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(json::parse(text, "saved", root, diagnostics)) << dumpWriter(diagnostics) << text;
    return root;
}

TEST(EffectWriter, MinimalEffectWritesOnlyTheRequiredKeys) {
    // Two-space indent, one member per line (json_writer.h), defaults left out.
    EXPECT_EQ(saveEffect(minimalWriterEffect()), "{\n"
                                                 "  \"version\": 1,\n"
                                                 "  \"name\": \"fx\",\n"
                                                 "  \"emitters\": [\n"
                                                 "    {\n"
                                                 "      \"name\": \"a\"\n"
                                                 "    }\n"
                                                 "  ]\n"
                                                 "}\n");
}

TEST(EffectWriter, KeysFollowTheStructFieldOrder) {
    EffectDesc e = minimalWriterEffect();
    // Set every top-level and emitter field to a non-default value.
    e.seed = 3;
    e.duration_s = 2;
    e.looping = false;
    e.space = SimulationSpace::local;
    e.fixed_timestep_s = 0.01f;
    e.bounds.center = {1, 0, 0};
    e.capacity = 5000;
    e.emitters.push_back(minimalWriterEffect().emitters[0]);
    e.emitters[1].name = "b";
    EmitterDesc& m = e.emitters[0];
    m.enabled = false;
    m.capacity = 100;
    m.overflow = OverflowPolicy::replace_oldest;
    m.transform.position = {0, 1, 0};
    m.backend = BackendPreference::gpu;
    m.spawn.delay_s = 1;
    m.shape.type = ShapeKind::sphere;
    m.init.mass = {2, 2};
    m.update.push_back({true, DragModule{}});
    m.render.lit = true;
    m.sub_emitters.push_back({SubEmitterEvent::death, "b"});
    const json::Value root = parseOrFail(saveEffect(e));
    EXPECT_EQ(keysOf(root),
              (std::vector<std::string>{"version", "name", "seed", "duration_s", "looping", "space",
                                        "fixed_timestep_s", "bounds", "capacity", "emitters"}));
    EXPECT_EQ(
        keysOf(root.find("emitters")->items[0]),
        (std::vector<std::string>{"name", "enabled", "capacity", "overflow", "transform", "backend",
                                  "spawn", "shape", "init", "update", "render", "sub_emitters"}));
    // Inside nested objects only the non-default members appear.
    EXPECT_EQ(keysOf(*root.find("bounds")), (std::vector<std::string>{"center"}));
    const json::Value& sub = root.find("emitters")->items[0].find("sub_emitters")->items[0];
    EXPECT_EQ(keysOf(sub), (std::vector<std::string>{"emitter"})); // required, even at default
    const json::Value& drag = root.find("emitters")->items[0].find("update")->items[0];
    EXPECT_EQ(keysOf(drag), (std::vector<std::string>{"type"}));
}

TEST(EffectWriter, WritesTheShortFormsOfRangesCurvesAndColours) {
    EffectDesc e = minimalWriterEffect();
    EmitterDesc& m = e.emitters[0];
    m.init.lifetime_s = {2, 2};
    m.init.size = {0.5f, 1};
    m.init.color.a = {1, 0.5f, 0.25f, 1};
    m.init.velocity = {{1, 2, 3}, {1, 2, 3}};
    m.spawn.bursts.push_back({0, {3, 7}});
    m.update.push_back({true, SizeOverLifeModule{{Interpolation::linear, {{0, 4}}}}});
    const std::string text = saveEffect(e);
    EXPECT_NE(text.find("\"lifetime_s\": 2,"), std::string::npos) << text;
    EXPECT_NE(text.find("\"size\": [0.5, 1]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"velocity\": [1, 2, 3]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"color\": [1, 0.5, 0.25, 1]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"count\": [3, 7]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"curve\": 4"), std::string::npos) << text;
}

TEST(EffectWriter, ShapeAndRenderCarryOnlyTheirTypesKeys) {
    EffectDesc e = minimalWriterEffect();
    EmitterDesc& m = e.emitters[0];
    m.shape.type = ShapeKind::torus;
    m.shape.radius = 2;
    m.shape.tube_radius = 0.5f;
    m.render.type = RenderType::mesh;
    m.render.mesh.mesh = "rock.obj";
    const json::Value root = parseOrFail(saveEffect(e));
    const json::Value& emitter = root.find("emitters")->items[0];
    EXPECT_EQ(keysOf(*emitter.find("shape")),
              (std::vector<std::string>{"type", "radius", "tube_radius"}));
    EXPECT_EQ(keysOf(*emitter.find("render")), (std::vector<std::string>{"type", "mesh"}));
}

TEST(EffectWriter, BuoyancyCurveIsWrittenWheneverItIsOn) {
    EffectDesc e = minimalWriterEffect();
    e.emitters[0].update.push_back({true, BuoyancyModule{1, true, {}}});
    e.emitters[0].update.push_back({true, BuoyancyModule{1, false, {}}});
    const json::Value root = parseOrFail(saveEffect(e));
    const json::Value& update = *root.find("emitters")->items[0].find("update");
    EXPECT_EQ(keysOf(update.items[0]), (std::vector<std::string>{"type", "over_life"}));
    EXPECT_EQ(keysOf(update.items[1]), (std::vector<std::string>{"type"}));
}

// The round-trip properties: load(save(e)) == e, and save(load(save(e))) == save(e).
void expectRoundTrip(const EffectDesc& e) {
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(validateEffect(e, diagnostics)) << dumpWriter(diagnostics);
    const std::string text = saveEffect(e);
    EffectDesc loaded;
    ASSERT_TRUE(loadEffect(text, "saved.json", loaded, diagnostics))
        << dumpWriter(diagnostics) << text;
    EXPECT_TRUE(loaded == e) << text;
    EXPECT_EQ(saveEffect(loaded), text);
}

TEST(EffectRoundTrip, MinimalEffect) {
    expectRoundTrip(minimalWriterEffect());
}

TEST(EffectRoundTrip, RandomValidEffects) {
    for (uint32_t seed = 0; seed < 400; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        expectRoundTrip(test::randomEffect(seed));
        if (HasFatalFailure() || HasNonfatalFailure()) break;
    }
}

TEST(EffectRoundTrip, RandomEffectsCoverEveryModuleShapeAndRenderType) {
    std::vector<bool> modules(std::variant_size_v<UpdateModuleVariant>), shapes(9), renders(4);
    for (uint32_t seed = 0; seed < 400; ++seed) {
        for (const EmitterDesc& e : test::randomEffect(seed).emitters) {
            shapes[size_t(e.shape.type)] = true;
            renders[size_t(e.render.type)] = true;
            for (const UpdateModule& m : e.update) modules[m.module.index()] = true;
        }
    }
    for (size_t i = 0; i < modules.size(); ++i) EXPECT_TRUE(modules[i]) << "module " << i;
    for (size_t i = 0; i < shapes.size(); ++i) EXPECT_TRUE(shapes[i]) << "shape " << i;
    for (size_t i = 0; i < renders.size(); ++i) EXPECT_TRUE(renders[i]) << "render " << i;
}

TEST(EffectRoundTrip, SeedDocumentsAreReproducedAfterOneSave) {
    for (const char* name :
         {"campfire.json", "minimal.json", "trail.json", "emission.json", "particle_lights.json"}) {
        SCOPED_TRACE(name);
        std::ifstream in(std::string(SPINDRIFT_SOURCE_DIR) + "/fuzz/corpus/effect_json/" + name);
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        EffectDesc e;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(loadEffect(text, name, e, diagnostics)) << dumpWriter(diagnostics);
        expectRoundTrip(e);
    }
}

TEST(EffectRoundTrip, EdgeValues) {
    EffectDesc e = minimalWriterEffect();
    e.seed = 0xffffffffu;
    e.name = std::string("quote\" backslash\\ \u00e9 \xf0\x9f\x94\xa5");
    e.emitters[0].capacity = kMaxEmitterCapacity;
    e.capacity = kMaxEffectCapacity;
    e.emitters[0].transform.position = {-0.0f, 1e-38f, 3.4028235e38f};
    e.emitters[0].init.rotation_deg = {-0.0f, 0.0f};
    e.emitters[0].spawn.bursts.push_back({0, {100000, kMaxBurstCount}, kMaxBurstCycles, 1e-7f, 0});
    e.emitters[0].init.speed = {1.0000001f, 1.0000002f};
    expectRoundTrip(e);
}

} // namespace
} // namespace spindrift
