// The folder `spindrift edit` was given, and the only files the editor's server may list, read or
// write. A path from the page is relative to the folder; it is refused when it is empty, absolute,
// has a ".." component, a NUL or a backslash, does not end in ".json", or resolves (symbolic
// links followed, weakly_canonical) to a place outside the folder. A file is written whole or not
// at all: a temporary file beside it renamed into place (io/output_file.h), so an interrupted
// save never leaves a broken file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spindrift::editor {

// Files larger than this are not opened in the editor (a request body has the same bound).
inline constexpr uint64_t kMaxEditedFileBytes = 4u << 20;
// The most files list() returns, and how deep it looks into sub-folders.
inline constexpr size_t kMaxListedFiles = 4096;
inline constexpr int kMaxListDepth = 8;

struct FileEntry {
    std::string path; // relative to the root, '/' separated
    uint64_t size_bytes = 0;
    int64_t modified_ns = 0;
};

class FileRoot {
public:
    // dir must be an existing folder. False with the reason otherwise.
    bool open(const std::string& dir, std::string& error);
    const std::filesystem::path& root() const { return root_; }

    // Where `relative` is on disk, checked as the top of this file says. False with the reason.
    bool resolve(std::string_view relative, std::filesystem::path& out, std::string& error) const;
    // Whether an absolute path (a texture the document names) lies inside the root once resolved.
    bool contains(const std::filesystem::path& path) const;

    // The .json files under the root (symbolic links that lead out left out), sorted by path.
    std::vector<FileEntry> list() const;
    bool read(std::string_view relative, std::string& text, int64_t& modified_ns,
              std::string& error) const;
    // Writes text atomically. create_only: refuse when the file exists.
    bool write(std::string_view relative, std::string_view text, bool create_only,
               int64_t& modified_ns, std::string& error) const;
    // exists false (and true returned) for a path that is allowed but not there.
    bool stat(std::string_view relative, bool& exists, int64_t& modified_ns,
              std::string& error) const;

private:
    std::filesystem::path root_; // canonical
};

} // namespace spindrift::editor
