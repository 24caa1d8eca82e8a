// Notices when files change on disk (hot reload): each file's modification time and size, polled.
// A change is reported once the files have stayed as they are for one more poll, so a save still
// being written (an editor truncating and rewriting in place, a copy in progress) is not read
// half done. A file that disappears counts as a change, and so does its return.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace spindrift::viewer {

class FileWatch {
public:
    // Starts watching `files`, as they are now.
    void watch(std::vector<std::string> files);
    // True when a watched file changed (since watch() or the last true) and nothing changed
    // since the previous poll.
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
    bool pending_ = false; // changed, waiting for a quiet poll
};

} // namespace spindrift::viewer
