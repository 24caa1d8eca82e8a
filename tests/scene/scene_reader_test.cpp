#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "scene/scene_test_util.h"
#include "spindrift/scene_json.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

SceneDesc loadOk(const std::string& text) {
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadScene(text, "t.json", scene, diagnostics)) << dump(diagnostics) << text;
    EXPECT_TRUE(diagnostics.empty()) << dump(diagnostics);
    return scene;
}

std::vector<Diagnostic> loadErrors(const std::string& text) {
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadScene(text, "t.json", scene, diagnostics)) << text;
    return diagnostics;
}

// A directory of its own under the system temp dir, removed at the end of the test.
struct TempDir {
    fs::path path;
    TempDir() {
        path = fs::temp_directory_path() /
               ("spindrift_scene_" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
    void write(const std::string& name, const std::string& text) const {
        fs::create_directories((path / name).parent_path());
        std::ofstream(path / name) << text;
    }
};

TEST(SceneReader, VersionAloneGivesTheDocumentedDefaults) {
    EXPECT_EQ(loadOk("{\"version\": 1}"), SceneDesc{});
}

TEST(SceneReader, SampleScenesLoadWithTheirEffectFiles) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(kSourceDir + "/examples/scenes")) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().string());
        SceneDesc scene;
        std::vector<Diagnostic> diagnostics;
        EXPECT_TRUE(loadSceneFile(entry.path().string(), scene, diagnostics)) << dump(diagnostics);
        EXPECT_FALSE(scene.effects.empty());
        ++count;
    }
    EXPECT_GE(count, 2);
}

TEST(SceneReader, FireworksShowHasAMovingInstance) {
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(
        loadSceneFile(kSourceDir + "/examples/scenes/fireworks_show.json", scene, diagnostics))
        << dump(diagnostics);
    ASSERT_EQ(scene.effects.size(), 3u);
    const EffectInstanceDesc& drifting = scene.effects[1];
    EXPECT_EQ(drifting.name, "drifting");
    ASSERT_TRUE(drifting.path.has_value());
    EXPECT_TRUE(drifting.path->loop);
    ASSERT_EQ(drifting.path->keys.size(), 3u);
    EXPECT_EQ(drifting.path->keys[1].t, 4.0f);
    EXPECT_EQ(drifting.path->keys[1].offset, (Float3{28, 0, 0}));
    EXPECT_EQ(drifting.time_scale, 1.25f);
    EXPECT_EQ(scene.resolution, (Resolution{1920, 1080}));
    EXPECT_FALSE(scene.effects[0].path.has_value());
}

TEST(SceneReader, OrbitKeyChoosesTheOrbitCamera) {
    const SceneDesc scene = loadOk(R"({"version": 1, "camera": {"orbit": {"radius": 3}}})");
    EXPECT_EQ(scene.camera.mode, CameraMode::orbit);
    EXPECT_EQ(scene.camera.orbit.radius, 3.0f);
    EXPECT_EQ(scene.camera.orbit.period_s, CameraOrbit{}.period_s);
    EXPECT_EQ(scene.camera.position, CameraDesc{}.position);
}

TEST(SceneReader, SunDirectionIsNormalisedOnLoad) {
    const SceneDesc scene = loadOk(R"({"version": 1, "sun": {"direction": [0, 0, -2]}})");
    EXPECT_EQ(scene.sun.direction, (Float3{0, 0, -1}));
}

TEST(SceneReader, ZeroSunDirectionIsAnErrorAtTheValue) {
    const auto errors = loadErrors("{\"version\": 1,\n \"sun\": {\"direction\": [0, 0, 0]}}");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.sun.direction");
    EXPECT_EQ(errors[0].line, 2u);
    EXPECT_EQ(errors[0].column, 23u);
    EXPECT_NE(errors[0].message.find("non-zero direction"), std::string::npos);
}

TEST(SceneReader, BothCameraFormsAreOneError) {
    const auto errors = loadErrors(
        R"({"version": 1, "camera": {"position": [0, 1, 5], "target": [0, 0, 0], "orbit": {}}})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.camera.orbit");
    EXPECT_NE(errors[0].message.find("not both"), std::string::npos);
}

TEST(SceneReader, CameraWithNeitherFormIsAnError) {
    const auto errors = loadErrors(R"({"version": 1, "camera": {"fov_deg": 60}})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.camera");
    EXPECT_NE(errors[0].message.find("'position' and 'target', or 'orbit'"), std::string::npos);
}

TEST(SceneReader, LookAtCameraNeedsBothPositionAndTarget) {
    const auto errors = loadErrors(R"({"version": 1, "camera": {"position": [0, 1, 5]}})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.camera.target");
    EXPECT_NE(errors[0].message.find("missing required key 'target'"), std::string::npos);
}

TEST(SceneReader, EveryMistakeIsReportedInDocumentOrder) {
    const std::string text = "{\n"
                             "  \"version\": 1,\n"
                             "  \"resolution\": [8, 720],\n"
                             "  \"primitives\": [{\"type\": \"cone\"}],\n"
                             "  \"effects\": [{\"effect\": \"a.json\", \"speed\": 2}],\n"
                             "  \"fps\": 0\n"
                             "}\n";
    const auto errors = loadErrors(text);
    ASSERT_EQ(errors.size(), 4u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.resolution[0]");
    EXPECT_EQ(errors[0].line, 3u);
    EXPECT_EQ(errors[0].column, 18u);
    EXPECT_NE(errors[0].message.find("expected an integer in [16, 8192], found 8"),
              std::string::npos);
    EXPECT_EQ(errors[1].path, "$.primitives[0].type");
    EXPECT_NE(errors[1].message.find("expected one of: box, sphere"), std::string::npos);
    EXPECT_EQ(errors[2].path, "$.effects[0].speed");
    EXPECT_NE(errors[2].message.find("unknown key 'speed'"), std::string::npos);
    EXPECT_EQ(errors[3].path, "$.fps");
    EXPECT_EQ(errors[3].line, 6u);
}

TEST(SceneReader, TransparencyNamesTheCompositingMode) {
    EXPECT_EQ(loadOk(R"({"version": 1})").transparency, Transparency::sorted);
    EXPECT_EQ(loadOk(R"({"version": 1, "transparency": "sorted"})").transparency,
              Transparency::sorted);
    EXPECT_EQ(loadOk(R"({"version": 1, "transparency": "weighted_oit"})").transparency,
              Transparency::weighted_oit);
    for (const char* bad : {R"("OIT")", R"("weighted")", "1", "true"}) {
        const auto errors =
            loadErrors(std::string(R"({"version": 1, "transparency": )") + bad + "}");
        ASSERT_EQ(errors.size(), 1u) << bad << dump(errors);
        EXPECT_EQ(errors[0].path, "$.transparency") << bad;
        EXPECT_EQ(errors[0].line, 1u) << bad;
    }
    const auto errors = loadErrors(R"({"version": 1, "transparency": "OIT"})");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].message.find("expected one of: sorted, weighted_oit"), std::string::npos)
        << errors[0].message;
}

TEST(SceneReader, ParticleResolutionIsFullOrHalfAndNothingElse) {
    EXPECT_EQ(loadOk(R"({"version": 1})").particle_resolution, ParticleResolution::full);
    EXPECT_EQ(loadOk(R"({"version": 1, "particle_resolution": "full"})").particle_resolution,
              ParticleResolution::full);
    EXPECT_EQ(loadOk(R"({"version": 1, "particle_resolution": "half"})").particle_resolution,
              ParticleResolution::half);
    for (const char* bad : {R"("Half")", R"("quarter")", "0.5", "2", "true", "null"}) {
        const std::string text =
            std::string("{\"version\": 1,\n \"particle_resolution\": ") + bad + "}";
        const auto errors = loadErrors(text);
        ASSERT_EQ(errors.size(), 1u) << bad << dump(errors);
        EXPECT_EQ(errors[0].path, "$.particle_resolution") << bad;
        EXPECT_EQ(errors[0].line, 2u) << bad;
        EXPECT_EQ(errors[0].column, 25u) << bad;
    }
    const auto errors = loadErrors(R"({"version": 1, "particle_resolution": "quarter"})");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].message.find("expected one of: full, half"), std::string::npos)
        << errors[0].message;
}

TEST(SceneReader, HdrPostDefaultsToAcesAndModerateBloomAndReadsEveryKey) {
    const SceneDesc d = loadOk(R"({"version": 1})");
    EXPECT_EQ(d.tonemap, Tonemap::aces);
    EXPECT_EQ(d.bloom, BloomDesc{});
    EXPECT_GT(d.bloom.strength, 0.0f);
    EXPECT_EQ(d.exposure.mode, ExposureMode::manual);
    EXPECT_EQ(d.exposure.ev, 0.0f);
    const SceneDesc s = loadOk(R"({"version": 1, "tonemap": "reinhard",
        "exposure": {"mode": "auto", "ev": -1, "min_ev": -2, "max_ev": 3, "low_percent": 0,
                     "high_percent": 100, "speed": 0},
        "bloom": {"strength": 1, "levels": 1}})");
    EXPECT_EQ(s.tonemap, Tonemap::reinhard);
    EXPECT_EQ(s.exposure, (ExposureDesc{ExposureMode::automatic, -1, -2, 3, 0, 100, 0}));
    EXPECT_EQ(s.bloom, (BloomDesc{1, 1}));
    for (const char* name : {"none", "aces", "agx"}) {
        loadOk(std::string(R"({"version": 1, "tonemap": ")") + name + R"("})");
    }
}

TEST(SceneReader, HdrPostRangesAreCheckedWithPositions) {
    struct Case {
        const char* text;
        const char* path;
    };
    const Case cases[] = {
        {R"({"version": 1, "exposure": {"ev": 17}})", "$.exposure.ev"},
        {R"({"version": 1, "exposure": {"min_ev": 4, "max_ev": 4}})", "$.exposure.max_ev"},
        {R"({"version": 1, "exposure": {"low_percent": 100}})", "$.exposure.low_percent"},
        {R"({"version": 1, "exposure": {"high_percent": 0}})", "$.exposure.high_percent"},
        {R"({"version": 1, "exposure": {"speed": -1}})", "$.exposure.speed"},
        {R"({"version": 1, "exposure": {"mode": "AUTO"}})", "$.exposure.mode"},
        {R"({"version": 1, "bloom": {"strength": -0.1}})", "$.bloom.strength"},
        {R"({"version": 1, "bloom": {"levels": 9}})", "$.bloom.levels"},
        {R"({"version": 1, "bloom": {"levels": 2.5}})", "$.bloom.levels"},
        {R"({"version": 1, "bloom": 0.1})", "$.bloom"},
        {R"({"version": 1, "tonemap": "ACES"})", "$.tonemap"},
    };
    for (const Case& c : cases) {
        const auto errors = loadErrors(c.text);
        ASSERT_EQ(errors.size(), 1u) << c.text << dump(errors);
        EXPECT_EQ(errors[0].path, c.path) << c.text;
        EXPECT_EQ(errors[0].line, 1u) << c.text;
        EXPECT_GT(errors[0].column, 1u) << c.text;
    }
}

TEST(SceneReader, KeyOfTheOtherPrimitiveTypeIsRejected) {
    const auto errors =
        loadErrors(R"({"version": 1, "primitives": [{"type": "sphere", "size": [1, 1, 1]}]})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.primitives[0].size");
    EXPECT_NE(errors[0].message.find("'size' does not apply to primitive type 'sphere'"),
              std::string::npos);
}

TEST(SceneReader, EmptyInstanceNameIsRejected) {
    const auto errors =
        loadErrors(R"({"version": 1, "effects": [{"effect": "a.json", "name": ""}]})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.effects[0].name");
}

TEST(SceneReader, RejectedNearDoesNotAlsoFailFar) {
    const auto errors =
        loadErrors(R"({"version": 1, "camera": {"position": [0, 1, 5], "target": [0, 0, 0], )"
                   R"("near": "close", "far": 0.01}})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_EQ(errors[0].path, "$.camera.near");
}

TEST(SceneReader, UnsupportedVersionIsTheOnlyError) {
    const auto errors = loadErrors(R"({"version": 2, "colour": 1})");
    ASSERT_EQ(errors.size(), 1u) << dump(errors);
    EXPECT_NE(errors[0].message.find("unsupported scene format version 2; expected 1"),
              std::string::npos);
}

TEST(SceneReader, MalformedInputGivesOneClearError) {
    for (const std::string& text :
         {std::string(""), std::string("\x00\xff\xfe garbage", 12), std::string(5000, '['),
          std::string("[1, 2]"), std::string("{\"version\": 1,}")}) {
        const auto errors = loadErrors(text);
        EXPECT_EQ(errors.size(), 1u) << dump(errors);
        if (!errors.empty()) {
            EXPECT_EQ(errors[0].file, "t.json");
        }
    }
}

TEST(SceneReader, LoadSceneDoesNotLookForEffectFiles) {
    const SceneDesc scene =
        loadOk(R"({"version": 1, "effects": [{"effect": "no/such/effect.json"}]})");
    EXPECT_EQ(scene.effects[0].effect, "no/such/effect.json");
}

TEST(SceneReader, MissingEffectFileIsReportedAtTheInstance) {
    TempDir dir;
    dir.write("effects/fire.json", "{}");
    dir.write("scenes/s.json", "{\n"
                               "  \"version\": 1,\n"
                               "  \"effects\": [\n"
                               "    {\"effect\": \"../effects/fire.json\"},\n"
                               "    {\"effect\": \"../effects/ice.json\"},\n"
                               "    {\"effect\": \"../effects\"}\n"
                               "  ]\n"
                               "}\n");
    const std::string file = (dir.path / "scenes/s.json").string();
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadSceneFile(file, scene, diagnostics));
    ASSERT_EQ(diagnostics.size(), 2u) << dump(diagnostics);
    EXPECT_EQ(diagnostics[0].file, file);
    EXPECT_EQ(diagnostics[0].path, "$.effects[1].effect");
    EXPECT_EQ(diagnostics[0].line, 5u);
    EXPECT_EQ(diagnostics[0].column, 16u);
    EXPECT_NE(diagnostics[0].message.find("effect file '../effects/ice.json' not found"),
              std::string::npos);
    EXPECT_NE(diagnostics[0].message.find((dir.path / "effects/ice.json").string()),
              std::string::npos)
        << diagnostics[0].message;
    EXPECT_EQ(diagnostics[1].path, "$.effects[2].effect");
    EXPECT_NE(diagnostics[1].message.find("is a directory"), std::string::npos);
}

TEST(SceneReader, MissingSceneFileIsOneDiagnostic) {
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadSceneFile(kSourceDir + "/no_such_scene.json", scene, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("does not exist"), std::string::npos);
}

TEST(SceneReader, EffectPathsResolveAgainstTheSceneFileDirectory) {
    EXPECT_EQ(resolveEffectPath("examples/scenes/a.json", "../effects/campfire.json"),
              "examples/effects/campfire.json");
    EXPECT_EQ(resolveEffectPath("a.json", "fire.json"), "fire.json");
    EXPECT_EQ(resolveEffectPath("/x/y/a.json", "/abs/fire.json"), "/abs/fire.json");
    EXPECT_EQ(resolveEffectPath("/x/y/a.json", "sub/fire.json"), "/x/y/sub/fire.json");
}

} // namespace
} // namespace spindrift
