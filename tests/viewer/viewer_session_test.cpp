// The viewer's session without a window (lavapipe): backend switches and reloads land on the same
// time and give the frame a fresh session of the same input and backend gives; a reload that fails
// keeps the previous version drawing.
#include "viewer/viewer_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace spindrift::viewer {
namespace {

namespace fs = std::filesystem;

const std::string kSource = SPINDRIFT_SOURCE_DIR;

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

SessionConfig smallConfig(const std::string& input, BackendRequest backend = BackendRequest::cpu) {
    SessionConfig c;
    c.input = input;
    c.width = 64;
    c.height = 48;
    c.backend = backend;
    return c;
}

// The frame at time_s through the scene's camera.
Image frameAt(ViewerSession& session, float time_s) {
    Image image;
    std::vector<Diagnostic> diagnostics;
    const CameraPose camera = render::frameView(session.scene(), time_s).camera;
    EXPECT_TRUE(session.drawFrame(time_s, camera, image, diagnostics));
    EXPECT_TRUE(diagnostics.empty()) << (diagnostics.empty() ? "" : diagnostics[0].message);
    return image;
}

std::unique_ptr<ViewerSession> openOrFail(const SessionConfig& config) {
    std::vector<Diagnostic> diagnostics;
    auto session = ViewerSession::open(config, diagnostics);
    EXPECT_NE(session, nullptr) << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0]));
    return session;
}

class ViewerSessionReload : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spindrift_viewer_session_" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(dir_);
        effect_ = (dir_ / "fountain.json").string();
        original_ = readText(kSource + "/examples/effects/fountain.json");
        ASSERT_FALSE(original_.empty());
        writeText(effect_, original_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
    std::string effect_;
    std::string original_;
};

TEST(ViewerSession, OpensAnEffectAtTheAskedSize) {
    auto session = openOrFail(smallConfig(kSource + "/examples/effects/fountain.json"));
    ASSERT_NE(session, nullptr);
    const Image image = frameAt(*session, 1.0f);
    EXPECT_EQ(image.width, 64u);
    EXPECT_EQ(image.height, 48u);
    EXPECT_GT(session->stats().live, 0u);
    EXPECT_GT(session->stats().births, 0u);
}

TEST(ViewerSession, AMissingInputIsAnErrorNamingIt) {
    std::vector<Diagnostic> diagnostics;
    auto session = ViewerSession::open(smallConfig(kSource + "/no/such/effect.json"), diagnostics);
    EXPECT_EQ(session, nullptr);
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_NE(formatDiagnostic(diagnostics[0]).find("effect.json"), std::string::npos);
}

TEST(ViewerSession, SeekingBackGivesTheSameFrame) {
    auto session = openOrFail(smallConfig(kSource + "/examples/effects/fountain.json"));
    ASSERT_NE(session, nullptr);
    const Image early = frameAt(*session, 0.5f);
    const Image late = frameAt(*session, 1.5f);
    EXPECT_NE(early.rgba8, late.rgba8);
    EXPECT_EQ(frameAt(*session, 0.5f).rgba8, early.rgba8);
}

TEST(ViewerSession, InputFilesListTheEffectAndItsTextures) {
    const std::string input = kSource + "/examples/effects/campfire.json";
    auto session = openOrFail(smallConfig(input));
    ASSERT_NE(session, nullptr);
    const std::vector<std::string> files = session->inputFiles();
    EXPECT_NE(std::find(files.begin(), files.end(), input), files.end());
    const bool has_texture = std::any_of(files.begin(), files.end(), [](const std::string& f) {
        return f.size() > 4 && f.compare(f.size() - 4, 4, ".png") == 0;
    });
    EXPECT_TRUE(has_texture);
}

TEST(ViewerSession, SwitchingToTheGpuLandsOnTheSameFrameAsAFreshGpuSession) {
    // A small effect: every GPU session builds the GPU backend's pipelines on lavapipe.
    const std::string input = kSource + "/tests/golden/effects/align_fixed.json";
    auto session = openOrFail(smallConfig(input));
    ASSERT_NE(session, nullptr);
    frameAt(*session, 0.75f);
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(session->switchBackend(BackendRequest::gpu, diagnostics))
        << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0]));
    EXPECT_EQ(session->backend(), BackendRequest::gpu);
    const Image switched = frameAt(*session, 0.75f);
    EXPECT_EQ(session->stats().gpu_instances, 1u);

    auto fresh = openOrFail(smallConfig(input, BackendRequest::gpu));
    ASSERT_NE(fresh, nullptr);
    EXPECT_EQ(frameAt(*fresh, 0.75f).rgba8, switched.rgba8);

    ASSERT_TRUE(session->switchBackend(BackendRequest::cpu, diagnostics));
    auto cpu = openOrFail(smallConfig(input));
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(frameAt(*session, 0.75f).rgba8, frameAt(*cpu, 0.75f).rgba8);
    EXPECT_EQ(session->stats().gpu_instances, 0u);
}

TEST_F(ViewerSessionReload, AnInvalidSaveKeepsThePreviousVersionDrawing) {
    auto session = openOrFail(smallConfig(effect_));
    ASSERT_NE(session, nullptr);
    const Image before = frameAt(*session, 0.5f);

    writeText(effect_, "{\n  \"version\": 1,\n  \"emitters\": [ oops ]\n}\n");
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(session->reload(diagnostics));
    ASSERT_FALSE(diagnostics.empty());
    const std::string first = formatDiagnostic(diagnostics[0]);
    EXPECT_NE(first.find("fountain.json:3:"), std::string::npos) << first;
    EXPECT_EQ(frameAt(*session, 0.5f).rgba8, before.rgba8);
}

TEST_F(ViewerSessionReload, AValidSaveIsDrawnAtTheSameTimeAsAFreshSessionOfIt) {
    auto session = openOrFail(smallConfig(effect_));
    ASSERT_NE(session, nullptr);
    const Image before = frameAt(*session, 0.5f);

    // Another seed: every particle is born elsewhere.
    std::string changed = original_;
    const size_t seed = changed.find("\"seed\": 11,");
    ASSERT_NE(seed, std::string::npos);
    changed.replace(seed, 11, "\"seed\": 4242,");
    writeText(effect_, changed);

    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(session->reload(diagnostics))
        << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0]));
    const Image after = frameAt(*session, 0.5f);
    EXPECT_NE(after.rgba8, before.rgba8);
    auto fresh = openOrFail(smallConfig(effect_));
    ASSERT_NE(fresh, nullptr);
    EXPECT_EQ(frameAt(*fresh, 0.5f).rgba8, after.rgba8);
}

} // namespace
} // namespace spindrift::viewer
