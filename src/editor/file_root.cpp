#include "editor/file_root.h"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <span>
#include <sstream>
#include <sys/stat.h>
#include <system_error>

#include "io/output_file.h"
#include "spindrift/diagnostic.h"

namespace spindrift::editor {

namespace fs = std::filesystem;

namespace {

// Nanoseconds since 1970 (stat's st_mtim: file_time_type's epoch is the library's own).
int64_t modifiedNs(const fs::path& path, std::error_code& ec) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        ec = std::error_code(errno, std::generic_category());
        return 0;
    }
    return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// True when `inner` is `outer` or lies below it (both canonical): component by component, so
// "/a/bc" is not inside "/a/b".
bool isInside(const fs::path& inner, const fs::path& outer) {
    auto i = inner.begin();
    for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
        if (o->empty()) continue; // a trailing separator
        if (i == inner.end() || *i != *o) return false;
    }
    return true;
}

} // namespace

bool FileRoot::open(const std::string& dir, std::string& error) {
    std::error_code ec;
    const fs::path canonical = fs::canonical(dir, ec);
    if (ec || !fs::is_directory(canonical, ec)) {
        error = "'" + dir + "' is not a folder";
        return false;
    }
    root_ = canonical;
    return true;
}

bool FileRoot::contains(const fs::path& path) const {
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(path, ec);
    return !ec && isInside(resolved, root_);
}

bool FileRoot::resolve(std::string_view relative, fs::path& out, std::string& error) const {
    const std::string shown(relative.substr(0, 200));
    if (relative.empty()) {
        error = "no file named";
        return false;
    }
    if (relative.size() > 1024 || relative.find('\0') != std::string_view::npos ||
        relative.find('\\') != std::string_view::npos) {
        error = "'" + shown + "' is not a file name the editor accepts";
        return false;
    }
    const fs::path rel(relative);
    if (rel.is_absolute() || relative.front() == '/') {
        error = "'" + shown + "' is an absolute path; name a file inside the folder";
        return false;
    }
    for (const fs::path& part : rel) {
        if (part == "..") {
            error = "'" + shown + "' leads out of the folder ('..' is not allowed)";
            return false;
        }
    }
    if (rel.extension() != ".json") {
        error = "'" + shown + "' is not an effect file (.json)";
        return false;
    }
    std::error_code ec;
    const fs::path resolved = fs::weakly_canonical(root_ / rel, ec);
    if (ec || !isInside(resolved, root_)) {
        error = "'" + shown + "' leads out of the folder (through a symbolic link)";
        return false;
    }
    out = resolved;
    return true;
}

std::vector<FileEntry> FileRoot::list() const {
    std::vector<FileEntry> files;
    std::error_code ec;
    fs::recursive_directory_iterator it(root_, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it.depth() >= kMaxListDepth) it.disable_recursion_pending();
        const fs::path& p = it->path();
        if (p.extension() != ".json") continue;
        std::error_code file_ec;
        if (!fs::is_regular_file(p, file_ec)) continue; // follows a link: its target must be a file
        const std::string relative = fs::relative(p, root_, file_ec).generic_string();
        fs::path resolved;
        std::string error;
        if (file_ec || !resolve(relative, resolved, error)) continue; // a link out of the folder
        FileEntry entry;
        entry.path = relative;
        entry.size_bytes = fs::file_size(resolved, file_ec);
        entry.modified_ns = modifiedNs(resolved, file_ec);
        files.push_back(std::move(entry));
        if (files.size() >= kMaxListedFiles) break;
    }
    std::sort(files.begin(), files.end(),
              [](const FileEntry& a, const FileEntry& b) { return a.path < b.path; });
    return files;
}

bool FileRoot::read(std::string_view relative, std::string& text, int64_t& modified_ns,
                    std::string& error) const {
    fs::path path;
    if (!resolve(relative, path, error)) return false;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        error = "'" + std::string(relative) + "' does not exist or is not a file";
        return false;
    }
    const uint64_t size = fs::file_size(path, ec);
    if (ec || size > kMaxEditedFileBytes) {
        error = "'" + std::string(relative) + "' is larger than the editor opens (" +
                std::to_string(kMaxEditedFileBytes) + " bytes)";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in && !in.eof()) {
        error = "'" + std::string(relative) + "' cannot be read";
        return false;
    }
    text = bytes.str();
    modified_ns = modifiedNs(path, ec);
    return true;
}

bool FileRoot::write(std::string_view relative, std::string_view text, bool create_only,
                     int64_t& modified_ns, std::string& error) const {
    fs::path path;
    if (!resolve(relative, path, error)) return false;
    std::error_code ec;
    if (create_only && fs::exists(fs::symlink_status(path, ec))) {
        error = "'" + std::string(relative) + "' exists already";
        return false;
    }
    if (!fs::is_directory(path.parent_path(), ec)) {
        error = "the folder of '" + std::string(relative) + "' does not exist";
        return false;
    }
    std::vector<Diagnostic> diagnostics;
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(text.data()),
                                         text.size());
    if (!writeFileAtomically(path.string(), bytes, diagnostics)) {
        error = diagnostics.empty() ? "the file could not be written" : diagnostics[0].message;
        return false;
    }
    modified_ns = modifiedNs(path, ec);
    return true;
}

bool FileRoot::stat(std::string_view relative, bool& exists, int64_t& modified_ns,
                    std::string& error) const {
    fs::path path;
    if (!resolve(relative, path, error)) return false;
    std::error_code ec;
    exists = fs::is_regular_file(path, ec);
    modified_ns = exists ? modifiedNs(path, ec) : 0;
    return true;
}

} // namespace spindrift::editor
