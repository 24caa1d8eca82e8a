// MP4 through ffmpeg: a few synthetic frames encode and decode back (ffprobe), a missing ffmpeg
// and a failing ffmpeg are clear errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "render/video_writer.h"
#include "support/scratch_dir.h"

namespace fs = std::filesystem;

namespace spindrift::render {
namespace {

using spindrift::test::scratchDir;

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
    const fs::path dir = scratchDir("video", "which");
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
    const fs::path dir = scratchDir("video", "encode");
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
    const fs::path out = scratchDir("video", "odd") / "odd.mp4";
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
    const fs::path dir = scratchDir("video", "fake");
    const fs::path fake = dir / "ffmpeg";
    std::ofstream(fake) << "#!/bin/sh\necho 'fake encoder: codec exploded' >&2\nexit 3\n";
    fs::permissions(fake, fs::perms::owner_all);
    ScopedEnv path("PATH", dir.string().c_str());
    std::ofstream(dir / "x.mp4") << "the old video";
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
    writer.reset();
    std::ifstream in(dir / "x.mp4");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "the old video");
    size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
    EXPECT_EQ(files, 2u) << "ffmpeg and x.mp4, no temporary file";
}

// Top-level MP4 boxes: 32-bit size, type.
std::string box(const std::string& type, const std::string& payload) {
    const uint32_t size = uint32_t(8 + payload.size());
    std::string bytes = {char(size >> 24), char(size >> 16 & 0xff), char(size >> 8 & 0xff),
                         char(size & 0xff)};
    return bytes + type + payload;
}

void writeBytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

TEST(VideoWriter, TellsAWholeMp4FromATruncatedOne) {
    const fs::path dir = scratchDir("video", "boxes");
    const std::string ftyp = box("ftyp", "isom\0\0\0\0");
    const std::string moov = box("moov", std::string(40, 'm'));
    const std::string mdat = box("mdat", std::string(100, 'd'));
    const std::string whole = ftyp + moov + mdat;
    writeBytes(dir / "whole.mp4", whole);
    EXPECT_EQ(incompleteMp4Reason((dir / "whole.mp4").string()), "");
    // A 64-bit size (size field 1) and a last box running to the end (size field 0).
    std::string large = ftyp + moov + std::string("\0\0\0\1mdat", 8);
    const uint64_t large_size = 16 + 100;
    for (int i = 7; i >= 0; --i) large += char(large_size >> (8 * i) & 0xff);
    large += std::string(100, 'd');
    writeBytes(dir / "large.mp4", large);
    EXPECT_EQ(incompleteMp4Reason((dir / "large.mp4").string()), "");
    writeBytes(dir / "to_end.mp4", ftyp + moov + std::string("\0\0\0\0mdat", 8) + "dddd");
    EXPECT_EQ(incompleteMp4Reason((dir / "to_end.mp4").string()), "");

    const std::pair<std::string, std::string> broken[] = {
        {"", "empty"},
        {whole.substr(0, whole.size() - 1), "cut off"},
        {whole.substr(0, ftyp.size() + 4), "cut off"},
        {ftyp + moov, "missing"},
        {moov + ftyp + mdat, "ftyp"},
        {ftyp + std::string("\0\0\0\3moov", 8) + mdat, "invalid size"},
        {whole + "xyz", "cut off"},
    };
    for (const auto& [bytes, why] : broken) {
        writeBytes(dir / "broken.mp4", bytes);
        const std::string reason = incompleteMp4Reason((dir / "broken.mp4").string());
        EXPECT_NE(reason.find(why), std::string::npos) << bytes.size() << ": " << reason;
    }
    EXPECT_NE(incompleteMp4Reason((dir / "absent.mp4").string()), "");
}

// A stand-in "ffmpeg" that reads every frame, writes what it is given in its output argument
// ("file:<path>", the last one) and exits 0.
fs::path fakeFfmpegWriting(const fs::path& dir, const std::string& octal_bytes) {
    const fs::path fake = dir / "ffmpeg";
    std::ofstream(fake) << "#!/bin/sh\nfor last; do :; done\ncat >/dev/null\nprintf '"
                        << octal_bytes << "' > \"${last#file:}\"\nexit 0\n";
    fs::permissions(fake, fs::perms::owner_all);
    return fake;
}

std::vector<std::string> namesIn(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// ffmpeg 5 exits 0 after failing to write its trailer (without -xerror): the writer checks the
// file and keeps the old video.
TEST(VideoWriter, AnIncompleteFileFromAnFfmpegThatExitedZeroIsAnError) {
    const fs::path dir = scratchDir("video", "truncated");
    fakeFfmpegWriting(dir,
                      "\\000\\000\\000\\020ftypisom\\000\\000\\000\\000\\000\\000\\001\\000moov");
    ScopedEnv path("PATH", (dir.string() + ":/usr/bin:/bin").c_str());
    writeBytes(dir / "x.mp4", "the old video");
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 16;
    config.height = 16;
    auto writer = VideoWriter::open((dir / "x.mp4").string(), config, diagnostics);
    ASSERT_NE(writer, nullptr);
    ASSERT_TRUE(writer->writeFrame(gradientFrame(16, 16, 0), diagnostics));
    EXPECT_FALSE(writer->finish(diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, (dir / "x.mp4").string());
    EXPECT_NE(diagnostics[0].message.find("incomplete"), std::string::npos)
        << diagnostics[0].message;
    std::ifstream in(dir / "x.mp4");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "the old video");
    EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"ffmpeg", "x.mp4"}));
}

// The file ffmpeg writes appears at the path only once it is whole; a failed or abandoned video
// leaves no file and no temporary behind.
TEST(VideoWriter, WritesThroughATemporaryFileRenamedWhenFfmpegSucceeds) {
    const fs::path dir = scratchDir("video", "temporary");
    fakeFfmpegWriting(dir,
                      "\\000\\000\\000\\010ftyp\\000\\000\\000\\010moov\\000\\000\\000\\010mdat");
    ScopedEnv path("PATH", (dir.string() + ":/usr/bin:/bin").c_str());
    std::vector<Diagnostic> diagnostics;
    VideoConfig config;
    config.width = 16;
    config.height = 16;
    {
        auto writer = VideoWriter::open((dir / "done.mp4").string(), config, diagnostics);
        ASSERT_NE(writer, nullptr);
        ASSERT_TRUE(writer->writeFrame(gradientFrame(16, 16, 0), diagnostics));
        EXPECT_FALSE(fs::exists(dir / "done.mp4")) << "not before finish";
        ASSERT_TRUE(writer->finish(diagnostics)) << diagnostics.back().message;
        EXPECT_EQ(fs::file_size(dir / "done.mp4"), 24u);
    }
    {
        auto writer = VideoWriter::open((dir / "abandoned.mp4").string(), config, diagnostics);
        ASSERT_NE(writer, nullptr);
        ASSERT_TRUE(writer->writeFrame(gradientFrame(16, 16, 0), diagnostics));
    }
    EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"done.mp4", "ffmpeg"}));
    // Not a regular file: refused before ffmpeg starts.
    fs::create_directories(dir / "folder.mp4");
    EXPECT_EQ(VideoWriter::open((dir / "folder.mp4").string(), config, diagnostics), nullptr);
    EXPECT_NE(diagnostics.back().message.find("a directory"), std::string::npos);
}

TEST(VideoWriter, RejectsFramesOfTheWrongSize) {
    if (!haveFfmpeg()) GTEST_SKIP() << "ffmpeg not installed";
    const fs::path out = scratchDir("video", "size") / "s.mp4";
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
