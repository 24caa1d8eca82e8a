// Writing an output file safely: the one implementation behind every file a command writes
// (cook's .sfx, render's PNG stills, sequence frames and contact sheets, the MP4 ffmpeg writes,
// texgen's textures). docs/cli.md, "Outputs", states the rules for users:
//
// - An output is never one of the command's inputs. checkOutputPath compares the output with
//   each input by resolved path (weakly_canonical: "./x", "a/../x" and symlinked folders are
//   the same file) and, where both exist, by file identity (st_dev, st_ino: a hard link or a
//   symbolic link to an input is the input).
// - An output is a new name or an existing regular file. A directory, a character or block
//   device, a FIFO, a socket or a dangling symbolic link is refused with a message naming it:
//   renaming a new file over /dev/null would replace the device node. A symbolic link to a
//   regular file is followed: the file it points at is replaced and the link stays.
// - The bytes go to a temporary file beside the target (same folder, so the rename cannot cross
//   file systems), named "<name>.XXXXXX.tmp" plus an optional extension, created exclusively. It
//   is flushed and fsync'ed, then renamed over the target; the folder is fsync'ed after. Any
//   failure (a short write, ENOSPC, EFBIG, a failed fsync or rename) removes the temporary file
//   and leaves whatever was at the target untouched, so a reader sees the old file or the new
//   one, never a truncated one, and a failed write leaves no empty file behind.
// - A replaced file keeps its permission bits; a new one gets 0666 less the umask, as any
//   file the process creates.
//
// Every error is one Diagnostic at the output path as the caller named it (file = path),
// saying what was found and why it is refused. Not thread-safe with respect to the same target.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift {

// A command's input files, resolved once so that many outputs (the frames of a sequence) can be
// checked against them cheaply.
struct InputFiles {
    struct Entry {
        std::string path;      // as the command named it (for messages)
        std::string canonical; // weakly_canonical, or "" when it cannot be resolved
        bool exists = false;   // stat succeeded: device and inode are valid
        dev_t device = 0;
        ino_t inode = 0;
    };
    std::vector<Entry> entries;
};

// Resolves each path (duplicates are kept: they cost a comparison, not a wrong answer).
InputFiles resolveInputFiles(std::span<const std::string> paths);

// Checks that output is a new name or an existing regular file (a symbolic link to one is
// followed). False with one error naming output otherwise.
bool checkOutputKind(std::string_view output, std::vector<Diagnostic>& diagnostics);

// checkOutputKind, then that output is none of inputs (by resolved path and by identity). False
// with one error naming output (and the input it would replace) otherwise.
bool checkOutputPath(std::string_view output, const InputFiles& inputs,
                     std::vector<Diagnostic>& diagnostics);

// An output being written: a temporary file beside the target that commit() renames into place.
// Destroying it (or discard()) before a successful commit removes the temporary file.
class AtomicOutput {
public:
    AtomicOutput() = default;
    ~AtomicOutput();
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;

    // Checks the target (checkOutputKind) and creates the empty temporary file
    // "<target>.XXXXXX.tmp<temp_extension>" (temp_extension such as ".mp4" for a writer that
    // picks its format by extension). False with an error naming target on failure.
    bool open(std::string_view target, std::vector<Diagnostic>& diagnostics,
              std::string_view temp_extension = "");

    // Appends bytes to the temporary file. False with an error naming the target (and why: the
    // errno text, such as "No space left on device") on a write error; the temporary file is
    // removed then and every later call fails.
    bool write(std::span<const uint8_t> bytes, std::vector<Diagnostic>& diagnostics);

    // Flushes the temporary file to disk (fsync; a file another process wrote, such as ffmpeg's
    // output, is reopened for it), checks the target again (checkOutputKind), renames the
    // temporary file over it and syncs the folder. False with an error on any failure, the
    // temporary file removed and the target untouched.
    bool commit(std::vector<Diagnostic>& diagnostics);

    // Removes the temporary file (if not committed). Safe to call more than once.
    void discard();

    // The temporary file's path, for a child process that writes it; "" before open.
    const std::string& tempPath() const { return temp_; }
    // The target as named to open.
    const std::string& target() const { return named_; }

private:
    bool fail(std::vector<Diagnostic>& diagnostics, std::string message);

    std::string named_;    // as given to open, for messages
    std::string resolved_; // where the rename goes: named_, or the file a symlink points at
    std::string temp_;
    int fd_ = -1;
    bool failed_ = false;
};

// Writes bytes to path through an AtomicOutput: the whole file or nothing. False with one error.
bool writeFileAtomically(std::string_view path, std::span<const uint8_t> bytes,
                         std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
