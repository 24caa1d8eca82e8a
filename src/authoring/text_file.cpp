#include "authoring/text_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace spindrift {

namespace {

Diagnostic fileError(const std::string& path, std::string message) {
    Diagnostic d;
    d.file = path;
    d.message = std::move(message);
    return d;
}

std::string mebibytes(uint64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

} // namespace

bool readTextFile(const std::string& path, uint64_t max_bytes, const char* kind, std::string& text,
                  std::vector<Diagnostic>& diagnostics) {
    text.clear();
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        diagnostics.push_back(fileError(path, "cannot read the file: it does not exist"));
        return false;
    }
    if (std::filesystem::is_directory(status)) {
        diagnostics.push_back(fileError(path, "cannot read the file: it is a directory"));
        return false;
    }
    uint64_t expected_size = 0;
    if (std::filesystem::is_regular_file(status)) {
        const uint64_t size = std::filesystem::file_size(path, ec);
        if (!ec) expected_size = size;
        if (!ec && size > max_bytes) {
            diagnostics.push_back(fileError(path, "the file is " + std::to_string(size) +
                                                      " bytes; " + kind + " files are limited to " +
                                                      std::to_string(max_bytes) + " bytes (" +
                                                      mebibytes(max_bytes) + ")"));
            return false;
        }
    }
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f) {
        diagnostics.push_back(
            fileError(path, std::string("cannot read the file: ") + std::strerror(errno)));
        return false;
    }
    // The text is held once: no doubling while it grows (a file that grew since is still read).
    text.reserve(expected_size);
    // Read at most one buffer past the limit, so a pipe or a growing file is refused too.
    char buffer[65536];
    size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, f.get())) > 0) {
        text.append(buffer, got);
        if (text.size() > max_bytes) {
            diagnostics.push_back(fileError(
                path, "the file is larger than " + std::to_string(max_bytes) + " bytes (" +
                          mebibytes(max_bytes) + "), the limit for " + kind + " files"));
            text.clear();
            return false;
        }
    }
    if (std::ferror(f.get())) {
        diagnostics.push_back(fileError(path, "cannot read the file: read error"));
        text.clear();
        return false;
    }
    return true;
}

} // namespace spindrift
