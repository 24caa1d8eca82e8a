// MP4 output: frames are piped, raw RGBA, into an ffmpeg child process that encodes H.264
// (libx264, yuv420p, so every player can show it) into an MP4 with the index at the front
// (+faststart, so it plays while downloading).
//
// ffmpeg is found on PATH and started directly (posix_spawn, no shell): the output path is
// passed as one argument, with ffmpeg's "file:" protocol prefix, so no character in it (spaces,
// quotes, a leading '-', ':') can be read as an option, a protocol or shell syntax. Its stderr
// goes to an unlinked temporary file, so a chatty ffmpeg can never block the pipe, and the last
// lines are quoted when it fails. A closed pipe (ffmpeg died) is an error value, not SIGPIPE.
//
// The output is written safely (io/output_file.h): the path must be a new name or a regular
// file; ffmpeg writes a temporary file beside it ("<name>.XXXXXX.tmp.mp4"), which finish()
// flushes and renames over the path only when ffmpeg exited 0. Any failure, or destroying the
// writer before finish, removes the temporary file and leaves an existing file untouched.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "image/image.h"
#include "io/output_file.h"
#include "spindrift/diagnostic.h"

namespace spindrift::render {

struct VideoConfig {
    uint32_t width = 0; // of every frame, pixels (odd sizes are padded to even by one pixel)
    uint32_t height = 0;
    double fps = 30; // (0, 1000]
    // x264 constant rate factor: 0 lossless .. 51 worst; 18 is visually transparent for most
    // content.
    uint32_t crf = 18;
};

// The full path of an executable called name in the directories of path_list (a PATH-style,
// colon-separated list), or "" when there is none.
std::string findExecutable(const std::string& name, const std::string& path_list);

// Why the MP4 file at path is not whole, or "" when it is: its top-level boxes must cover the
// file exactly (every header inside it), start with ftyp and include a moov and an mdat. finish()
// checks ffmpeg's output with it before renaming it into place.
std::string incompleteMp4Reason(const std::string& path);

class VideoWriter {
public:
    // Starts ffmpeg writing a temporary file beside path. Returns nullptr with an error when
    // ffmpeg is not on PATH (the message names the Debian package, ffmpeg), the config is
    // invalid, path is not a new name or a regular file, or the process cannot be started.
    static std::unique_ptr<VideoWriter> open(const std::string& path, const VideoConfig& config,
                                             std::vector<Diagnostic>& diagnostics);
    ~VideoWriter(); // if finish was not called: closes the pipe and waits for ffmpeg

    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    // Sends one frame (config.width x config.height RGBA8). False with an error when the frame
    // has another size or ffmpeg stopped reading (the error then includes ffmpeg's stderr tail).
    bool writeFrame(const Image& frame, std::vector<Diagnostic>& diagnostics);

    // Closes the pipe, waits for ffmpeg and, when it exited 0, renames its file over the path.
    // False with an error (exit status and stderr tail, or why the rename failed) otherwise; the
    // temporary file is removed then. Call once; frames written after it are errors.
    bool finish(std::vector<Diagnostic>& diagnostics);

    uint64_t framesWritten() const { return frames_; }

private:
    VideoWriter() = default;
    bool waitChild(std::vector<Diagnostic>& diagnostics);
    std::string stderrTail() const;

    std::string path_;
    VideoConfig config_;
    AtomicOutput output_; // the temporary file ffmpeg writes, renamed by finish
    int pid_ = -1;
    int pipe_fd_ = -1;   // write end of ffmpeg's stdin
    int stderr_fd_ = -1; // ffmpeg's stderr (an unlinked temporary file)
    uint64_t frames_ = 0;
    bool failed_ = false;
};

} // namespace spindrift::render
