// User parameters (docs/effect-format.md and docs/runtime-api.md, "Parameters"): the format's
// strict reading of the parameters block and of {"param": NAME} values, their compiled bindings,
// the cooked form, and World::setParameter on the CPU and (lavapipe) GPU backends.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "compiler/compile_effect.h"
#include "cook/sfx_reader.h"
#include "cook/sfx_writer.h"
#include "runtime/simulation_device.h"
#include "spindrift/effect_json.h"
#include "spindrift/runtime.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// "rate" drives the spray's birth rate, "speed" its initial speed, "tint" its colour, "wind" a
// force and "swirl" a curl-noise strength; "burst" the pop emitter's burst count.
constexpr const char* kParams = R"({
  "version": 1,
  "name": "params",
  "seed": 5,
  "duration_s": 2,
  "parameters": [
    {"name": "rate", "type": "float", "default": 60, "range": [0, 500]},
    {"name": "speed", "type": "float", "default": 1, "range": [0, 10]},
    {"name": "tint", "type": "color", "default": [1, 0.5, 0.25, 1], "range": [0, [4, 4, 4, 1]]},
    {"name": "wind", "type": "float3", "default": [0, 0, 0], "range": [-20, 20]},
    {"name": "swirl", "type": "float", "default": 0, "range": [0, 50]},
    {"name": "burst", "type": "float", "default": 5, "range": [0, 100]}
  ],
  "emitters": [
    {"name": "spray", "capacity": 2048, "spawn": {"rate_per_s": {"param": "rate"}},
     "shape": {"type": "sphere", "radius": 0.2},
     "init": {"lifetime_s": 1, "speed": {"param": "speed"}, "color": {"param": "tint"}},
     "update": [{"type": "gravity"}, {"type": "force", "acceleration": {"param": "wind"}},
                {"type": "curl_noise", "strength": {"param": "swirl"}}]},
    {"name": "pop", "capacity": 256,
     "spawn": {"rate_per_s": 0, "bursts": [{"time_s": 0, "count": {"param": "burst"}, "cycles": 0,
                                              "interval_s": 0.5}]},
     "init": {"lifetime_s": 0.4, "speed": [0, {"param": "speed"}]}}
  ]
})";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// The first error of loading text, formatted (file:line:col: message).
std::string firstError(const std::string& text) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    if (loadEffect(text, "p.json", desc, diagnostics)) return "";
    for (const Diagnostic& d : diagnostics) {
        if (d.severity == Severity::error) return formatDiagnostic(d);
    }
    return "";
}

TEST(ParameterFormat, ReadsParametersAndBindings) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffect(kParams, "p.json", desc, diagnostics))
        << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0]));
    ASSERT_EQ(desc.parameters.size(), 6u);
    EXPECT_EQ(desc.parameters[2].type, ParameterType::color);
    EXPECT_EQ(desc.parameters[2].max, (Float4{4, 4, 4, 1}));
    EXPECT_EQ(desc.parameters[2].min, (Float4{0, 0, 0, 0}));
    ASSERT_EQ(desc.parameter_bindings.size(), 7u);
    // Bound values hold the default as the effect plays before a host sets one.
    EXPECT_EQ(desc.emitters[0].spawn.rate_per_s, 60);
    EXPECT_EQ(desc.emitters[0].init.color.a, (Float4{1, 0.5f, 0.25f, 1}));
    EXPECT_EQ(desc.emitters[1].spawn.bursts[0].count, (CountRange{5, 5}));
    const ParameterBinding& end = desc.parameter_bindings.back();
    EXPECT_EQ(end.target, ParameterTarget::speed);
    EXPECT_EQ(end.element, 1u);
    EXPECT_EQ(end.emitter, 1u);
}

// save -> load gives the same description: the parameters block and every binding, whole values
// and parts of values alike, including values the writer would leave out as defaults.
TEST(ParameterFormat, SaveThenLoadKeepsParametersAndBindings) {
    const std::string parts =
        replaced(replaced(replaced(kParams, R"("color": {"param": "tint"})",
                                   R"("color": [[1, 0, {"param": "speed"}, 1], {"param": "tint"}],
                     "velocity": [[0, {"param": "speed"}, 0], [1, 2, 3]])"),
                          R"({"type": "gravity"})",
                          R"({"type": "gravity", "acceleration": [0, {"param": "swirl"}, 0]})"),
                 R"("rate_per_s": {"param": "rate"})", R"("rate_per_s": {"param": "swirl"})");
    // The fuzz seeds with parameters hold to the fuzz target's save -> load property too.
    auto file = [](const char* relative) {
        std::ifstream in(std::string(SPINDRIFT_SOURCE_DIR) + "/" + relative, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const std::string seed = file("fuzz/corpus/effect_json/parameter_parts.json");
    ASSERT_FALSE(seed.empty());
    for (const std::string& text : {std::string(kParams), parts, seed}) {
        EffectDesc desc;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(loadEffect(text, "p.json", desc, diagnostics))
            << formatDiagnostic(diagnostics.front());
        const std::string saved = saveEffect(desc);
        EffectDesc again;
        ASSERT_TRUE(loadEffect(saved, "saved.json", again, diagnostics))
            << formatDiagnostic(diagnostics.front()) << "\n"
            << saved;
        EXPECT_TRUE(again == desc) << saved;
        EXPECT_EQ(saveEffect(again), saved);
    }
}

// The sample effect that uses parameters loads and is in canonical form
// (examples/effects/README.md).
TEST(ParameterFormat, SampleEffectIsCanonical) {
    const std::string path =
        std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/ember_gust.json";
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffect(text, path, desc, diagnostics)) << formatDiagnostic(diagnostics.front());
    EXPECT_EQ(desc.parameters.size(), 4u);
    EXPECT_EQ(saveEffect(desc), text);
}

TEST(ParameterFormat, RejectsEachMistakeWithItsPosition) {
    // Unknown parameter name: the names that exist are listed.
    EXPECT_NE(firstError(replaced(kParams, R"({"param": "swirl"})", R"({"param": "twirl"})"))
                  .find("p.json:19:"),
              std::string::npos);
    EXPECT_NE(firstError(replaced(kParams, R"({"param": "swirl"})", R"({"param": "twirl"})"))
                  .find("unknown parameter 'twirl'; the effect's parameters are: rate, speed"),
              std::string::npos);
    // A float3 where a float goes.
    const std::string wrong = firstError(
        replaced(kParams, R"("strength": {"param": "swirl"})", R"("strength": {"param": "wind"})"));
    EXPECT_NE(wrong.find("p.json:19:"), std::string::npos) << wrong;
    EXPECT_NE(wrong.find("parameter 'wind' is a float3; this value takes a float"),
              std::string::npos)
        << wrong;
    // Default out of range.
    const std::string out_of_range = firstError(replaced(
        kParams, R"("default": 60, "range": [0, 500])", R"("default": 600, "range": [0, 500])"));
    EXPECT_NE(out_of_range.find("p.json:7:"), std::string::npos) << out_of_range;
    EXPECT_NE(out_of_range.find("expected the default within the range [0, 500], found 600"),
              std::string::npos)
        << out_of_range;
    // min > max.
    const std::string crossed =
        firstError(replaced(kParams, R"("range": [0, 10])", R"("range": [10, 0])"));
    EXPECT_NE(crossed.find("p.json:8:"), std::string::npos) << crossed;
    EXPECT_NE(crossed.find("expected min <= max, found min 10 > max 0"), std::string::npos)
        << crossed;
    // A range that is not a finite number (the JSON has no inf: a number too large for a float).
    const std::string huge =
        firstError(replaced(kParams, R"("range": [0, 10])", R"("range": [0, 1e99])"));
    EXPECT_NE(huge.find("p.json:8:"), std::string::npos) << huge;
    EXPECT_NE(huge.find("fits in a 32-bit float"), std::string::npos) << huge;
    // Duplicate names.
    const std::string twice =
        firstError(replaced(kParams, R"({"name": "swirl", "type")", R"({"name": "rate", "type")"));
    EXPECT_NE(twice.find("p.json:11:"), std::string::npos) << twice;
    EXPECT_NE(twice.find("parameter name 'rate' is used twice"), std::string::npos) << twice;
    // A range wider than the value accepts (a rate below 0).
    const std::string below = firstError(replaced(kParams, R"("default": 60, "range": [0, 500])",
                                                  R"("default": 60, "range": [-5, 500])"));
    EXPECT_NE(below.find("p.json:15:"), std::string::npos) << below;
    EXPECT_NE(below.find("but this value must be"), std::string::npos) << below;
    // Unknown key in a binding, unknown type.
    EXPECT_NE(
        firstError(replaced(kParams, R"({"param": "swirl"})", R"({"param": "swirl", "scale": 2})"))
            .find("unknown key 'scale'"),
        std::string::npos);
    EXPECT_NE(firstError(replaced(kParams, R"("type": "float3")", R"("type": "vec3")"))
                  .find("unknown value 'vec3'; expected one of: float, float3, color"),
              std::string::npos);
    // Too many parameters: the list is refused whole, at its position.
    std::string many = "[";
    for (int i = 0; i < 65; ++i) {
        many += std::string(i ? "," : "") + R"({"name": "p)" + std::to_string(i) +
                R"(", "type": "float", "default": 0, "range": [0, 1]})";
    }
    many += "]";
    const size_t at = std::string(kParams).find("\"parameters\": [");
    const size_t close = std::string(kParams).find("\n  ],", at);
    std::string text = kParams;
    text.replace(at, close + 5 - at, "\"parameters\": " + many + ",");
    const std::string too_many = firstError(text);
    EXPECT_NE(too_many.find("p.json:6:"), std::string::npos) << too_many;
    EXPECT_NE(too_many.find("at most 64 parameters, found 65"), std::string::npos) << too_many;
}

TEST(ParameterCompile, BindsRecordWordsAndKeepsBoundModulesUnfused) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffect(kParams, "p.json", desc, diagnostics));
    CompiledEffect compiled;
    ASSERT_TRUE(compileEffect(desc, compiled, diagnostics));
    ASSERT_EQ(compiled.parameters.size(), 6u);
    // gravity and force would fuse; force is bound, so they stay two ops (+ curl).
    EXPECT_EQ(compiled.emitters[0].op_count, 3u);
    EXPECT_EQ(compiled.emitters[0].rate_per_s, 60);
    // rate 1 word, speed 2 (both ends), tint 8 (both colours), wind 3, swirl 1, burst 2 (min and
    // max), pop speed max 1.
    EXPECT_EQ(compiled.parameter_bindings.size(), 1u + 2 + 8 + 3 + 1 + 2 + 1);
    std::vector<vec4> values;
    for (const ParameterRecord& p : compiled.parameters) values.push_back(p.default_value);
    values[0].x = 250;
    values[2] = vec4(0.5f, 2, 3, 0.75f);
    values[4].x = 7;
    values[5].x = 12.4f;
    applyParameterValues(compiled, values);
    EXPECT_EQ(compiled.emitters[0].rate_per_s, 250);
    EXPECT_EQ(compiled.emitters[0].color_b.y, 2);
    EXPECT_EQ(compiled.emitters[0].color_a.w, 0.75f);
    EXPECT_EQ(compiled.ops[compiled.emitters[0].op_first + 2].params0.x, 7);
    EXPECT_EQ(compiled.bursts[0].count_min, 12u);
    EXPECT_EQ(compiled.bursts[0].count_max, 12u);
}

TEST(ParameterCook, SfxRoundTripsParametersAndRefusesABadBinding) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffect(kParams, "p.json", desc, diagnostics));
    CompiledEffect compiled;
    ASSERT_TRUE(compileEffect(desc, compiled, diagnostics));
    const std::vector<uint8_t> bytes = cookEffect(compiled);
    CompiledEffect loaded;
    ASSERT_TRUE(loadCookedEffect(bytes, "p.sfx", loaded, diagnostics))
        << formatDiagnostic(diagnostics.back());
    EXPECT_TRUE(loaded == compiled);
    // A binding that points at a word no parameter may set (the capacity) is refused.
    CompiledEffect hostile = compiled;
    hostile.parameter_bindings[0].word = offsetof(EmitterRecord, capacity) / 4;
    diagnostics.clear();
    EXPECT_FALSE(loadCookedEffect(cookEffect(hostile), "p.sfx", loaded, diagnostics));
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_NE(diagnostics[0].message.find("not one a parameter may set"), std::string::npos);
}

class ParameterWorld : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spindrift_params_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_);
        path_ = (dir_ / "params.json").string();
        std::ofstream(path_, std::ios::binary) << kParams;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    fs::path dir_;
    std::string path_;
};

std::vector<Particle> sortedParticles(World& world, InstanceHandle h) {
    std::vector<Particle> out;
    EXPECT_EQ(world.readParticles(h, out), RuntimeError::none);
    std::sort(out.begin(), out.end(), [](const Particle& a, const Particle& b) {
        return a.emitter_index != b.emitter_index ? a.emitter_index < b.emitter_index
                                                  : a.key < b.key;
    });
    return out;
}

// Runs 30 frames, sets every kind of parameter, runs 30 more.
void play(World& world, InstanceHandle h) {
    for (int i = 0; i < 30; ++i) world.update(1.0 / 60.0);
    ASSERT_EQ(world.setParameter(h, "rate", 240.0f), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "speed", 4.0f), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "tint", Color{0.2f, 1, 2, 0.5f}), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "wind", Vec3{3, 0, -2}), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "swirl", 6.0f), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "burst", 20.0f), RuntimeError::none);
    for (int i = 0; i < 30; ++i) world.update(1.0 / 60.0);
}

TEST_F(ParameterWorld, SetParameterChangesTheRunningInstance) {
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World world(library);
    World reference(library);
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h, r;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    ASSERT_EQ(reference.create(desc, r), RuntimeError::none);
    play(world, h);
    for (int i = 0; i < 60; ++i) reference.update(1.0 / 60.0);
    const auto ps = sortedParticles(world, h);
    const auto rs = sortedParticles(reference, r);
    // Higher rate and bigger bursts: more particles than the reference with its defaults.
    EXPECT_GT(ps.size(), rs.size() + 50);
    bool tinted = false;
    for (const Particle& p : ps) {
        if (p.emitter_index == 0 && p.color.b == 2 && p.color.a == 0.5f) tinted = true;
    }
    EXPECT_TRUE(tinted);
    float value = 0;
    ASSERT_EQ(world.getParameter(h, "swirl", value), RuntimeError::none);
    EXPECT_EQ(value, 6);
    EffectInfo info;
    ASSERT_TRUE(library.info(id, info));
    ASSERT_EQ(info.parameters.size(), 6u);
    EXPECT_EQ(info.parameters[3].name, "wind");
    EXPECT_EQ(info.parameters[3].kind, ParameterKind::float3);
    EXPECT_EQ(info.parameters[0].max.r, 500);
    // The same values from the start give the same particles after a restart and replay.
    ASSERT_EQ(world.restart(h), RuntimeError::none);
    ASSERT_EQ(world.getParameter(h, "swirl", value), RuntimeError::none);
    EXPECT_EQ(value, 6); // kept by restart
    ASSERT_EQ(world.setSeed(h, 99), RuntimeError::none);
    ASSERT_EQ(world.getParameter(h, "swirl", value), RuntimeError::none);
    EXPECT_EQ(value, 6); // and by a new seed
    // ... and used: the same rate as before the seed changed (240/s, not the default 60/s).
    for (int i = 0; i < 30; ++i) world.update(1.0 / 60.0);
    size_t spray = 0;
    for (const Particle& p : sortedParticles(world, h)) spray += p.emitter_index == 0 ? 1 : 0;
    EXPECT_EQ(spray, 120u);
}

TEST_F(ParameterWorld, BadCallsAreRefusedAndChangeNothing) {
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World world(library);
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    EXPECT_EQ(world.setParameter(h, "nope", 1.0f), RuntimeError::unknown_parameter);
    EXPECT_NE(world.lastErrorMessage().find("rate (float), speed (float), tint (color)"),
              std::string::npos)
        << world.lastErrorMessage();
    EXPECT_STREQ(describe(RuntimeError::unknown_parameter), "unknown parameter");
    EXPECT_EQ(world.setParameter(h, "wind", 1.0f), RuntimeError::invalid_argument);
    EXPECT_NE(world.lastErrorMessage().find("is a float3, not a float"), std::string::npos);
    EXPECT_EQ(world.setParameter(h, "rate", std::numeric_limits<float>::quiet_NaN()),
              RuntimeError::invalid_argument);
    EXPECT_EQ(world.setParameter(h, "wind", Vec3{0, std::numeric_limits<float>::infinity(), 0}),
              RuntimeError::invalid_argument);
    EXPECT_EQ(world.setParameter(h, "rate", 501.0f), RuntimeError::invalid_argument);
    EXPECT_NE(world.lastErrorMessage().find("outside its range [0, 500]"), std::string::npos);
    float rate = 0;
    ASSERT_EQ(world.getParameter(h, "rate", rate), RuntimeError::none);
    EXPECT_EQ(rate, 60);
    Vec3 v;
    EXPECT_EQ(world.getParameter(h, "rate", v), RuntimeError::invalid_argument);
    ASSERT_EQ(world.destroy(h), RuntimeError::none);
    EXPECT_EQ(world.setParameter(h, "rate", 1.0f), RuntimeError::stale_handle);
    EXPECT_EQ(world.getParameter(h, "rate", rate), RuntimeError::stale_handle);
    EXPECT_EQ(world.setParameter(InstanceHandle{}, "rate", 1.0f), RuntimeError::invalid_handle);
    // A recycled instance starts from the defaults again.
    InstanceHandle again;
    ASSERT_EQ(world.create(desc, again), RuntimeError::none);
    ASSERT_EQ(world.setParameter(again, "rate", 100.0f), RuntimeError::none);
    ASSERT_EQ(world.destroy(again), RuntimeError::none);
    ASSERT_EQ(world.create(desc, again), RuntimeError::none);
    ASSERT_EQ(world.getParameter(again, "rate", rate), RuntimeError::none);
    EXPECT_EQ(rate, 60);
}

// A hot reload keeps a value whose parameter still exists with the same kind and whose new range
// holds it; the others take their new defaults.
TEST_F(ParameterWorld, HotReloadCarriesValuesThatStillFit) {
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World world(library);
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "rate", 300.0f), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "speed", 3.0f), RuntimeError::none);
    ASSERT_EQ(world.setParameter(h, "swirl", 5.0f), RuntimeError::none);
    world.update(1.0 / 60.0);
    // rate's range shrinks below its value; swirl becomes a float3; speed is unchanged.
    std::string text = replaced(kParams, R"("range": [0, 500])", R"("range": [0, 200])");
    text =
        replaced(text, R"({"name": "swirl", "type": "float", "default": 0, "range": [0, 50]})",
                 R"({"name": "swirl", "type": "float3", "default": [0, 0, 0], "range": [0, 50]})");
    text = replaced(text, R"("strength": {"param": "swirl"})", R"("strength": 1)");
    std::ofstream(path_, std::ios::binary | std::ios::trunc) << text;
    const ReloadReport report = library.reload(id);
    ASSERT_EQ(report.files_reloaded, 1u)
        << (report.diagnostics.empty() ? "" : formatDiagnostic(report.diagnostics[0]));
    world.update(1.0 / 60.0);
    InstanceInfo info;
    ASSERT_EQ(world.info(h, info), RuntimeError::none);
    EXPECT_EQ(info.effect_version, 2u);
    float value = 0;
    ASSERT_EQ(world.getParameter(h, "rate", value), RuntimeError::none);
    EXPECT_EQ(value, 60); // 300 is outside the new range: the default
    ASSERT_EQ(world.getParameter(h, "speed", value), RuntimeError::none);
    EXPECT_EQ(value, 3); // kept
    Vec3 swirl{9, 9, 9};
    ASSERT_EQ(world.getParameter(h, "swirl", swirl), RuntimeError::none);
    EXPECT_EQ(swirl.x, 0); // another kind now: the default
}

// Parameters changed mid-run on both backends: the same particles (GPU on lavapipe here).
TEST_F(ParameterWorld, GpuAndCpuAgreeWithParametersSetMidRun) {
    const SimulationDevice device = probeSimulationDevice("");
    if (device.kind == DeviceKind::none) GTEST_SKIP() << device.why_none;
    EffectLibrary library;
    const EffectId id = library.add(path_);
    WorldConfig gpu_config;
    gpu_config.backend = SimulationBackend::gpu;
    World gpu_world(library, gpu_config);
    World cpu_world(library);
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle g, c;
    ASSERT_EQ(gpu_world.create(desc, g), RuntimeError::none) << gpu_world.lastErrorMessage();
    ASSERT_EQ(cpu_world.create(desc, c), RuntimeError::none);
    InstanceInfo info;
    gpu_world.info(g, info);
    ASSERT_EQ(info.backend, SimulationBackend::gpu);
    play(gpu_world, g);
    play(cpu_world, c);
    const auto pg = sortedParticles(gpu_world, g);
    const auto pc = sortedParticles(cpu_world, c);
    ASSERT_EQ(pg.size(), pc.size());
    ASSERT_GT(pc.size(), 100u);
    for (size_t i = 0; i < pc.size(); ++i) {
        ASSERT_EQ(pg[i].key, pc[i].key);
        const float tol = 1e-3f + 1e-3f * std::fabs(pc[i].position.x);
        EXPECT_NEAR(pg[i].position.x, pc[i].position.x, tol);
        EXPECT_NEAR(pg[i].position.y, pc[i].position.y,
                    1e-3f + 1e-3f * std::fabs(pc[i].position.y));
        EXPECT_NEAR(pg[i].position.z, pc[i].position.z,
                    1e-3f + 1e-3f * std::fabs(pc[i].position.z));
        EXPECT_NEAR(pg[i].color.b, pc[i].color.b, 1e-4f);
    }
}

} // namespace
} // namespace spindrift
