#include "viewer/file_watch.h"

#include <filesystem>
#include <system_error>

namespace spindrift::viewer {

FileWatch::Stamp FileWatch::stampOf(const std::string& file) {
    Stamp s;
    std::error_code error;
    const auto time = std::filesystem::last_write_time(file, error);
    if (error) return s;
    const uintmax_t size = std::filesystem::file_size(file, error);
    if (error) return s;
    s.exists = true;
    s.modified_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
    s.size_bytes = size;
    return s;
}

void FileWatch::watch(std::vector<std::string> files) {
    files_ = std::move(files);
    stamps_.clear();
    for (const std::string& f : files_) stamps_.push_back(stampOf(f));
    pending_ = false;
}

bool FileWatch::poll() {
    bool changed = false;
    for (size_t i = 0; i < files_.size(); ++i) {
        const Stamp now = stampOf(files_[i]);
        if (!(now == stamps_[i])) {
            stamps_[i] = now;
            changed = true;
        }
    }
    if (changed) {
        pending_ = true;
        return false;
    }
    const bool settled = pending_;
    pending_ = false;
    return settled;
}

} // namespace spindrift::viewer
