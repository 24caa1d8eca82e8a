// Notices when files change on disk (hot reload): each file's modification time and size, polled.
// A file that disappears counts as changed (an editor that saves by rename removes it for a
// moment); one that comes back is changed again, so the reload that follows sees it whole.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spindrift::viewer {

class FileWatch {
public:
    // Starts watching `files`, as they are now.
    void watch(std::vector<std::string> files);
    // True when any watched file differs from the last poll (or from watch()).
    bool poll();

private:
    struct Stamp {
        bool exists = false;
        int64_t modified_ns = 0;
        uint64_t size_bytes = 0;
        friend bool operator==(const Stamp&, const Stamp&) = default;
    };
    static Stamp stampOf(const std::string& file);
    std::vector<std::string> files_;
    std::vector<Stamp> stamps_;
};

} // namespace spindrift::viewer
