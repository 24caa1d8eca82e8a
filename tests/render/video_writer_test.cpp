// MP4 through ffmpeg: a few synthetic frames encode and decode back (ffprobe), a missing ffmpeg
// and a failing ffmpeg are clear errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "render/video_writer.h"

namespace fs = std::filesystem;

namespace spindrift::render {
namespace {

std::string runCapture(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return out;
    std::array<char, 512> buffer{};
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
    pclose(pipe);
    return out;
}

fs::path scratchDir(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("spindrift_video_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

Image gradientFrame(uint32_t w, uint32_t h, uint32_t index) {
    Image image;
    image.width = w;
    image.height = h;
    image.rgba8.resize(size_t(w) * h * 4);
    for (uint32_t y = 0; y < h; ++y) {
        for (uint32_t x = 0; x < w; ++x) {
            uint8_t* p = &image.rgba8[(size_t(y) * w + x) * 4];
            p[0] = uint8_t(x * 255 / w);
            p[1] = uint8_t(y * 255 / h);
            p[2] = uint8_t(index * 40);
            p[3] = 255;
        }
    }
    return image;
}

// Sets an environment variable for the scope of the object.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        const char* old = std::getenv(name);
        had_ = old != nullptr;
        if (had_) old_ = old;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (had_)
            setenv(name_.c_str(), old_.c_str(), 1);
        else
            unsetenv(name_.c_str());
    }

private:
    std::string name_, old_;
    bool had_ = false;
};

bool haveFfmpeg() {
    const char* path = std::getenv("PATH");
    return !findExecutable("ffmpeg", path ? path : "").empty() &&
           !findExecutable("ffprobe", path ? path : "").empty();
}

TEST(VideoWriter, FindsExecutablesOnAPathList) {
    const fs::path dir = scratchDir("which");
    const fs::path tool = dir / "tool";
    std::ofstream(tool) << "#!/bin/sh\n";
    fs::permissions(tool, fs::perms::owner_all);
    std::ofstream(dir / "plain") << "not executable";
    EXPECT_EQ(findExecutable("tool", "/nonexistent:" + dir.string()), tool.string());
    EXPECT_EQ(findExecutable("plain", dir.string()), "");
    EXPECT_EQ(findExecutable("tool", "/nonexistent"), "");
    EXPECT_EQ(findExecutable("tool", ""), "");
}

TEST(VideoWriter, EncodesFramesThatDecodeBackWithTheirCountAndSize) {
    if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
    const fs::path dir = scratchDir("encode");
    // A space and a leading dash in the name: passed as one argument, never parsed.
    const fs::path out = dir / "-my clip.mp4";
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 64;
    config.height = 48;
    config.fps = 10;
    auto writer = VideoWriter::open(out.string(), config, diagnostics);
    ASSERT_NE(writer, nullptr) << (diagnostics.empty() ? "" : diagnostics[0].message);
    for (uint32_t i = 0; i < 5; ++i)
        ASSERT_TRUE(writer->writeFrame(gradientFrame(64, 48, i), diagnostics));
    ASSERT_TRUE(writer->finish(diagnostics)) << diagnostics.back().message;
    EXPECT_EQ(writer->framesWritten(), 5u);
    ASSERT_TRUE(fs::exists(out));
    const std::string probe =
        runCapture("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                   "stream=width,height,nb_read_frames,pix_fmt,codec_name -of default=nw=1 '" +
                   out.string() + "'");
    EXPECT_NE(probe.find("width=64"), std::string::npos) << probe;
    EXPECT_NE(probe.find("height=48"), std::string::npos) << probe;
    EXPECT_NE(probe.find("nb_read_frames=5"), std::string::npos) << probe;
    EXPECT_NE(probe.find("codec_name=h264"), std::string::npos) << probe;
    EXPECT_NE(probe.find("pix_fmt=yuv420p"), std::string::npos) << probe;
}

TEST(VideoWriter, PadsOddSizesForYuv420) {
    if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
    const fs::path out = scratchDir("odd") / "odd.mp4";
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 33;
    config.height = 17;
    auto writer = VideoWriter::open(out.string(), config, diagnostics);
    ASSERT_NE(writer, nullptr);
    ASSERT_TRUE(writer->writeFrame(gradientFrame(33, 17, 0), diagnostics));
    ASSERT_TRUE(writer->finish(diagnostics)) << diagnostics.back().message;
    const std::string probe = runCapture("ffprobe -v error -show_entries stream=width,height "
                                         "-of default=nw=1 '" +
                                         out.string() + "'");
    EXPECT_NE(probe.find("width=34"), std::string::npos) << probe;
    EXPECT_NE(probe.find("height=18"), std::string::npos) << probe;
}

TEST(VideoWriter, MissingFfmpegIsAClearError) {
    ScopedEnv path("PATH", "/nonexistent");
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 16;
    config.height = 16;
    auto writer = VideoWriter::open("/tmp/never.mp4", config, diagnostics);
    EXPECT_EQ(writer, nullptr);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].severity, Severity::error);
    EXPECT_NE(diagnostics[0].message.find("ffmpeg was not found"), std::string::npos);
    EXPECT_NE(diagnostics[0].message.find("apt-get install ffmpeg"), std::string::npos);
}

TEST(VideoWriter, FailingFfmpegReportsItsExitStatusAndStderr) {
    // A stand-in "ffmpeg" that complains and fails without reading its input.
    const fs::path dir = scratchDir("fake");
    const fs::path fake = dir / "ffmpeg";
    std::ofstream(fake) << "#!/bin/sh\necho 'fake encoder: codec exploded' >&2\nexit 3\n";
    fs::permissions(fake, fs::perms::owner_all);
    ScopedEnv path("PATH", dir.string().c_str());
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 256;
    config.height = 256;
    auto writer = VideoWriter::open((dir / "x.mp4").string(), config, diagnostics);
    ASSERT_NE(writer, nullptr);
    // Frames are 256 KiB: the pipe fills and breaks once the fake has exited.
    bool ok = true;
    for (uint32_t i = 0; i < 8 && ok; ++i)
        ok = writer->writeFrame(gradientFrame(256, 256, i), diagnostics);
    if (ok) ok = writer->finish(diagnostics);
    EXPECT_FALSE(ok);
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_NE(diagnostics.back().message.find("codec exploded"), std::string::npos)
        << diagnostics.back().message;
}

TEST(VideoWriter, RejectsFramesOfTheWrongSize) {
    if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg not installed";
    const fs::path out = scratchDir("size") / "s.mp4";
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 32;
    config.height = 32;
    auto writer = VideoWriter::open(out.string(), config, diagnostics);
    ASSERT_NE(writer, nullptr);
    EXPECT_FALSE(writer->writeFrame(gradientFrame(16, 32, 0), diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("16x32"), std::string::npos);
    ASSERT_TRUE(writer->writeFrame(gradientFrame(32, 32, 0), diagnostics));
    EXPECT_TRUE(writer->finish(diagnostics));
}

} // namespace
} // namespace spindrift::render
