#include "io/output_file.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace spindrift {

namespace {

namespace fs = std::filesystem;

// Room left for ".XXXXXX.tmp" and an extension under NAME_MAX (255) on every common file system.
constexpr size_t kMaxTempStemBytes = 200;
constexpr int kTempNameAttempts = 100;

void addError(std::vector<Diagnostic>& diagnostics, std::string_view file, std::string message) {
    diagnostics.push_back({Severity::error, std::string(file), 0, 0, 0, "", std::move(message)});
}

std::string errnoText(int error) {
    return std::strerror(error);
}

// What a non-regular file is called in messages.
const char* kindName(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

std::string canonicalOf(std::string_view path) {
    std::error_code error;
    const fs::path resolved = fs::weakly_canonical(fs::path(path), error);
    return error ? std::string() : resolved.string();
}

// Six characters no other writer in this process or another is likely to pick at the same time;
// O_EXCL makes a collision a retry, never a shared file.
std::string uniqueTag(int attempt) {
    static std::atomic<uint64_t> counter{0};
    uint64_t x = uint64_t(::getpid()) * 0x9E3779B97F4A7C15ull ^
                 uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                 (counter.fetch_add(1) + uint64_t(attempt)) * 0xBF58476D1CE4E5B9ull;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 29;
    static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string tag(6, '0');
    for (char& c : tag) {
        c = kDigits[x % 36];
        x /= 36;
    }
    return tag;
}

} // namespace

InputFiles resolveInputFiles(std::span<const std::string> paths) {
    InputFiles inputs;
    inputs.entries.reserve(paths.size());
    for (const std::string& path : paths) {
        InputFiles::Entry entry;
        entry.path = path;
        entry.canonical = canonicalOf(path);
        struct stat info {};
        if (::stat(path.c_str(), &info) == 0) {
            entry.exists = true;
            entry.device = info.st_dev;
            entry.inode = info.st_ino;
        }
        inputs.entries.push_back(std::move(entry));
    }
    return inputs;
}

bool checkOutputKind(std::string_view output, std::vector<Diagnostic>& diagnostics) {
    if (output.empty()) {
        addError(diagnostics, output, "the output path is empty");
        return false;
    }
    const std::string name(output);
    struct stat info {};
    if (::lstat(name.c_str(), &info) != 0) {
        if (errno == ENOENT) return true; // a new name; a missing folder fails at open
        addError(diagnostics, output, "cannot check the output path: " + errnoText(errno));
        return false;
    }
    if (S_ISLNK(info.st_mode)) {
        if (::stat(name.c_str(), &info) != 0) {
            addError(diagnostics, output,
                     "the output is a symbolic link to a missing file (" + errnoText(errno) +
                         "); an output must be a new name or a regular file");
            return false;
        }
    }
    if (S_ISREG(info.st_mode)) return true;
    addError(diagnostics, output,
             std::string("the output is ") + kindName(info.st_mode) +
                 ", not a regular file; an output must be a new name or a regular file (it is "
                 "written to a temporary file that replaces it)");
    return false;
}

bool checkOutputPath(std::string_view output, const InputFiles& inputs,
                     std::vector<Diagnostic>& diagnostics) {
    if (!checkOutputKind(output, diagnostics)) return false;
    const std::string name(output);
    const std::string canonical = canonicalOf(output);
    struct stat info {};
    const bool exists = ::stat(name.c_str(), &info) == 0;
    for (const InputFiles::Entry& input : inputs.entries) {
        const bool same_path = !canonical.empty() && canonical == input.canonical;
        const bool same_file =
            exists && input.exists && info.st_dev == input.device && info.st_ino == input.inode;
        if (!same_path && !same_file) continue;
        addError(diagnostics, output,
                 (same_path ? "the output is the input file '" + input.path + "'"
                            : "the output is the same file as the input '" + input.path +
                                  "' (a hard or symbolic link to it)") +
                     "; writing it would destroy the input: choose another output name");
        return false;
    }
    return true;
}

AtomicOutput::~AtomicOutput() {
    discard();
}

bool AtomicOutput::fail(std::vector<Diagnostic>& diagnostics, std::string message) {
    addError(diagnostics, named_, std::move(message));
    failed_ = true;
    discard();
    return false;
}

bool AtomicOutput::open(std::string_view target, std::vector<Diagnostic>& diagnostics,
                        std::string_view temp_extension) {
    discard();
    named_ = std::string(target);
    resolved_ = named_;
    failed_ = false;
    if (!checkOutputKind(target, diagnostics)) {
        failed_ = true;
        return false;
    }
    struct stat existing {};
    bool replaces = false;
    if (::lstat(named_.c_str(), &existing) == 0) {
        if (S_ISLNK(existing.st_mode)) {
            // Replace the file the link points at, not the link (checkOutputKind: it exists).
            std::error_code error;
            resolved_ = fs::canonical(fs::path(named_), error).string();
            if (error)
                return fail(diagnostics, "cannot resolve the symbolic link: " + error.message());
        }
        replaces = ::stat(resolved_.c_str(), &existing) == 0;
    }

    const fs::path resolved_path(resolved_);
    std::string stem = resolved_path.filename().string();
    if (stem.size() > kMaxTempStemBytes) stem.resize(kMaxTempStemBytes);
    const fs::path folder = resolved_path.parent_path();
    for (int attempt = 0; attempt < kTempNameAttempts && fd_ < 0; ++attempt) {
        const std::string name =
            stem + "." + uniqueTag(attempt) + ".tmp" + std::string(temp_extension);
        const std::string candidate = folder.empty() ? name : (folder / name).string();
        // 0666 less the umask, as any new file; a replaced file's bits are copied below.
        const int fd =
            ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0) {
            fd_ = fd;
            temp_ = candidate;
        } else if (errno != EEXIST) {
            return fail(diagnostics, "cannot create a temporary file beside the output (" +
                                         candidate + "): " + errnoText(errno));
        }
    }
    if (fd_ < 0) return fail(diagnostics, "cannot find a free temporary file name beside it");
    if (replaces) {
        // Best effort: the new file looks like the one it replaces (mode; owner when allowed).
        const bool moded = ::fchmod(fd_, existing.st_mode & 07777) == 0;
        const bool owned = ::fchown(fd_, existing.st_uid, existing.st_gid) == 0;
        (void)moded;
        (void)owned;
    }
    return true;
}

bool AtomicOutput::write(std::span<const uint8_t> bytes, std::vector<Diagnostic>& diagnostics) {
    if (failed_ || fd_ < 0) {
        if (!failed_) addError(diagnostics, named_, "write to an output that is not open");
        return false;
    }
    const uint8_t* data = bytes.data();
    size_t left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(fd_, data, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int error = n < 0 ? errno : EIO;
            return fail(diagnostics, "cannot write the file: " + errnoText(error));
        }
        data += n;
        left -= size_t(n);
    }
    return true;
}

bool AtomicOutput::commit(std::vector<Diagnostic>& diagnostics) {
    if (failed_) return false; // reported when it failed
    if (fd_ < 0) {
        addError(diagnostics, named_, "commit of an output that is not open");
        return false;
    }
    // fsync flushes the inode whoever wrote it (this process or a child given tempPath()).
    if (::fsync(fd_) != 0) return fail(diagnostics, "cannot flush the file: " + errnoText(errno));
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return fail(diagnostics, "cannot close the file: " + errnoText(errno));
    // The target may have changed since open (a long render): check it again.
    if (!checkOutputKind(named_, diagnostics)) {
        failed_ = true;
        discard();
        return false;
    }
    if (::rename(temp_.c_str(), resolved_.c_str()) != 0) {
        return fail(diagnostics,
                    "cannot move the temporary file " + temp_ + " into place: " + errnoText(errno));
    }
    temp_.clear();
    // Make the rename itself durable. The file is in place either way; a folder that cannot be
    // synced (some file systems refuse) is not an error.
    const std::string folder = fs::path(resolved_).parent_path().string();
    const int dir_fd =
        ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd >= 0) {
        const bool synced = ::fsync(dir_fd) == 0;
        (void)synced;
        ::close(dir_fd);
    }
    return true;
}

void AtomicOutput::discard() {
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (!temp_.empty()) {
        ::unlink(temp_.c_str());
        temp_.clear();
    }
}

bool writeFileAtomically(std::string_view path, std::span<const uint8_t> bytes,
                         std::vector<Diagnostic>& diagnostics) {
    AtomicOutput output;
    return output.open(path, diagnostics) && output.write(bytes, diagnostics) &&
           output.commit(diagnostics);
}

} // namespace spindrift
