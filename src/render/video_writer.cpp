#include "render/video_writer.h"

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace spindrift::render {

namespace {

constexpr size_t kStderrTailBytes = 1500;

Diagnostic videoError(const std::string& path, std::string message) {
    return {Severity::error, path, 0, 0, 0, "", std::move(message)};
}

std::string formatFps(double fps) {
    char text[64];
    std::snprintf(text, sizeof text, "%.6g", fps);
    return text;
}

// Writes all of bytes to fd. SIGPIPE is blocked in this thread while writing, and a pending one
// raised by our write is consumed, so a dead reader shows up as EPIPE and nothing else.
bool writeAll(int fd, const uint8_t* bytes, size_t size, int& error) {
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    bool ok = true;
    while (size > 0) {
        const ssize_t n = ::write(fd, bytes, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            error = errno;
            ok = false;
            break;
        }
        bytes += n;
        size -= static_cast<size_t>(n);
    }
    if (!ok && error == EPIPE) {
        const timespec no_wait{0, 0};
        sigtimedwait(&pipe_set, nullptr, &no_wait);
    }
    pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
    return ok;
}

uint64_t bigEndian(const uint8_t* bytes, int count) {
    uint64_t value = 0;
    for (int i = 0; i < count; ++i) value = value << 8 | bytes[i];
    return value;
}

} // namespace

std::string findExecutable(const std::string& name, const std::string& path_list) {
    size_t begin = 0;
    while (begin <= path_list.size()) {
        size_t end = path_list.find(':', begin);
        if (end == std::string::npos) end = path_list.size();
        // An empty entry means the current directory (POSIX).
        std::string dir = path_list.substr(begin, end - begin);
        if (dir.empty()) dir = ".";
        const std::string candidate = dir + "/" + name;
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
            ::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        begin = end + 1;
    }
    return "";
}

// ffmpeg 5 exits 0 after failing to write its trailer unless given -xerror; this catches a
// truncated file whatever the version does.
std::string incompleteMp4Reason(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::string("cannot read back ffmpeg's output: ") + std::strerror(errno);
    struct stat info {};
    const uint64_t size = ::fstat(fd, &info) == 0 ? uint64_t(info.st_size) : 0;
    bool ftyp = false, moov = false, mdat = false;
    std::string problem;
    uint64_t at = 0;
    while (problem.empty() && at < size) {
        uint8_t header[16] = {};
        const uint64_t left = size - at;
        const size_t want = left < sizeof header ? size_t(left) : sizeof header;
        if (left < 8 || ::pread(fd, header, want, off_t(at)) != ssize_t(want)) {
            problem = "a box header is cut off at byte " + std::to_string(at);
            break;
        }
        uint64_t box = bigEndian(header, 4);
        const std::string type(reinterpret_cast<const char*>(header + 4), 4);
        if (box == 1)
            box = left >= 16 ? bigEndian(header + 8, 8) : 0; // 64-bit size
        else if (box == 0)
            box = left; // to the end of the file
        if (box < 8 || box > left) {
            problem = "box '" + type + "' at byte " + std::to_string(at) +
                      (box < 8 ? " has an invalid size"
                               : " is cut off (" + std::to_string(box) + " bytes declared, " +
                                     std::to_string(left) + " left)");
            break;
        }
        if (at == 0 && type != "ftyp") problem = "the file does not start with an ftyp box";
        ftyp |= type == "ftyp";
        moov |= type == "moov";
        mdat |= type == "mdat";
        at += box;
    }
    ::close(fd);
    if (problem.empty() && !(ftyp && moov && mdat))
        problem = size == 0 ? "the file is empty" : "an ftyp, moov or mdat box is missing";
    return problem;
}

std::unique_ptr<VideoWriter> VideoWriter::open(const std::string& path, const VideoConfig& config,
                                               std::vector<Diagnostic>& diagnostics) {
    if (config.width == 0 || config.height == 0 || !(config.fps > 0) || config.fps > 1000 ||
        config.crf > 51) {
        diagnostics.push_back(videoError(
            path, "invalid video settings (size " + std::to_string(config.width) + "x" +
                      std::to_string(config.height) + ", fps " + formatFps(config.fps) + ")"));
        return nullptr;
    }
    const char* path_env = std::getenv("PATH");
    const std::string ffmpeg = findExecutable("ffmpeg", path_env ? path_env : "");
    if (ffmpeg.empty()) {
        diagnostics.push_back(videoError(
            path, "cannot write MP4: ffmpeg was not found on PATH (install it: apt-get install "
                  "ffmpeg), or write PNG frames instead"));
        return nullptr;
    }

    // ffmpeg writes a temporary file beside the output (named .mp4 for anyone looking; the
    // muxer is given by -f), renamed over the output only after ffmpeg exits 0 (finish).
    std::unique_ptr<VideoWriter> writer(new VideoWriter());
    writer->path_ = path;
    writer->config_ = config;
    if (!writer->output_.open(path, diagnostics, ".mp4")) return nullptr;

    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
        diagnostics.push_back(videoError(path, std::string("pipe: ") + std::strerror(errno)));
        return nullptr;
    }
    char stderr_name[] = "/tmp/spindrift-ffmpeg-XXXXXX";
    const int stderr_fd = ::mkostemp(stderr_name, O_CLOEXEC);
    if (stderr_fd < 0) {
        diagnostics.push_back(videoError(path, std::string("mkostemp: ") + std::strerror(errno)));
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        return nullptr;
    }
    ::unlink(stderr_name);

    const std::string size = std::to_string(config.width) + "x" + std::to_string(config.height);
    const std::string fps = formatFps(config.fps);
    const std::string crf = std::to_string(config.crf);
    const std::string output = "file:" + writer->output_.tempPath();
    std::vector<std::string> args = {
        ffmpeg, "-hide_banner", "-loglevel", "error", "-nostats", "-xerror", "-y", "-f", "rawvideo",
        "-pix_fmt", "rgba", "-s", size, "-r", fps, "-i", "pipe:0", "-an",
        // yuv420p needs even sizes: pad odd ones by one pixel.
        "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "medium", "-crf", crf,
        "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4", output};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, stderr_fd, STDERR_FILENO);
    pid_t pid = -1;
    const int spawn_error =
        ::posix_spawn(&pid, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[0]);
    if (spawn_error != 0) {
        diagnostics.push_back(
            videoError(path, "cannot start " + ffmpeg + ": " + std::strerror(spawn_error)));
        ::close(pipe_fds[1]);
        ::close(stderr_fd);
        return nullptr;
    }
    writer->pid_ = pid;
    writer->pipe_fd_ = pipe_fds[1];
    writer->stderr_fd_ = stderr_fd;
    return writer;
}

VideoWriter::~VideoWriter() {
    if (pipe_fd_ >= 0) ::close(pipe_fd_);
    if (pid_ > 0) {
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (stderr_fd_ >= 0) ::close(stderr_fd_);
    // output_ (destroyed after this body, once ffmpeg has exited) removes an uncommitted file.
}

std::string VideoWriter::stderrTail() const {
    if (stderr_fd_ < 0) return "";
    const off_t end = ::lseek(stderr_fd_, 0, SEEK_END);
    if (end <= 0) return "";
    const off_t start = end > off_t(kStderrTailBytes) ? end - off_t(kStderrTailBytes) : 0;
    std::string text(static_cast<size_t>(end - start), '\0');
    const ssize_t n = ::pread(stderr_fd_, text.data(), text.size(), start);
    text.resize(n > 0 ? static_cast<size_t>(n) : 0);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

bool VideoWriter::writeFrame(const Image& frame, std::vector<Diagnostic>& diagnostics) {
    if (pipe_fd_ < 0 || failed_) {
        diagnostics.push_back(videoError(path_, "frame written after the video was closed"));
        return false;
    }
    const size_t bytes = size_t(config_.width) * config_.height * 4;
    if (frame.width != config_.width || frame.height != config_.height ||
        frame.rgba8.size() != bytes) {
        diagnostics.push_back(videoError(
            path_, "frame " + std::to_string(frames_) + " is " + std::to_string(frame.width) + "x" +
                       std::to_string(frame.height) + ", the video is " +
                       std::to_string(config_.width) + "x" + std::to_string(config_.height)));
        return false;
    }
    int error = 0;
    if (!writeAll(pipe_fd_, frame.rgba8.data(), bytes, error)) {
        failed_ = true;
        ::close(pipe_fd_);
        pipe_fd_ = -1;
        std::vector<Diagnostic> exit_diagnostics;
        waitChild(exit_diagnostics);
        output_.discard();
        std::string message = "ffmpeg stopped reading frames (" +
                              std::string(std::strerror(error)) + ") at frame " +
                              std::to_string(frames_);
        const std::string tail = stderrTail();
        if (!tail.empty()) message += "; ffmpeg said: " + tail;
        diagnostics.push_back(videoError(path_, message));
        return false;
    }
    ++frames_;
    return true;
}

bool VideoWriter::waitChild(std::vector<Diagnostic>& diagnostics) {
    int status = 0;
    pid_t r = -1;
    while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    if (r < 0) {
        diagnostics.push_back(videoError(path_, std::string("waitpid: ") + std::strerror(errno)));
        return false;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    std::string message =
        WIFEXITED(status) ? "ffmpeg failed with exit status " + std::to_string(WEXITSTATUS(status))
                          : "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status));
    const std::string tail = stderrTail();
    if (!tail.empty()) message += ": " + tail;
    diagnostics.push_back(videoError(path_, message));
    return false;
}

bool VideoWriter::finish(std::vector<Diagnostic>& diagnostics) {
    if (failed_) return false; // writeFrame reported it
    if (pid_ < 0) {
        diagnostics.push_back(videoError(path_, "the video was already finished"));
        return false;
    }
    ::close(pipe_fd_);
    pipe_fd_ = -1;
    if (!waitChild(diagnostics)) {
        failed_ = true;
        output_.discard();
        return false;
    }
    if (const std::string problem = incompleteMp4Reason(output_.tempPath()); !problem.empty()) {
        failed_ = true;
        output_.discard();
        diagnostics.push_back(videoError(path_, "ffmpeg exited 0 but its MP4 is incomplete (" +
                                                    problem + "); nothing was written"));
        return false;
    }
    if (!output_.commit(diagnostics)) {
        failed_ = true;
        return false;
    }
    return true;
}

} // namespace spindrift::render
