#include "render/frame_output.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace spindrift::render {

OutputKind outputKindOf(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".png") return OutputKind::png;
    if (ext == ".mp4") return OutputKind::mp4;
    return OutputKind::unknown;
}

bool parseFramePattern(const std::string& path, FramePattern& out, std::string& error) {
    out = FramePattern{};
    std::string* text = &out.prefix;
    for (size_t i = 0; i < path.size(); ++i) {
        if (path[i] != '%') {
            *text += path[i];
            continue;
        }
        if (i + 1 < path.size() && path[i + 1] == '%') {
            *text += '%';
            ++i;
            continue;
        }
        // "%d" or "%0Nd".
        size_t j = i + 1;
        uint32_t digits = 0;
        if (j < path.size() && path[j] == '0') {
            ++j;
            if (j < path.size() && path[j] >= '1' && path[j] <= '9') {
                digits = static_cast<uint32_t>(path[j] - '0');
                ++j;
            } else {
                j = path.size(); // "%0" not followed by a digit
            }
        }
        if (j >= path.size() || path[j] != 'd') {
            error = "unsupported '%' sequence in '" + path +
                    "': a frame number is written %d or %0Nd (N 1..9), a literal % as %%";
            return false;
        }
        if (out.has_placeholder) {
            error = "'" + path + "' has more than one frame-number placeholder";
            return false;
        }
        out.has_placeholder = true;
        out.digits = digits;
        text = &out.suffix;
        i = j;
    }
    return true;
}

std::string frameFileName(const FramePattern& pattern, uint32_t index) {
    if (!pattern.has_placeholder) return pattern.prefix + pattern.suffix;
    std::string number = std::to_string(index);
    if (number.size() < pattern.digits) number.insert(0, pattern.digits - number.size(), '0');
    return pattern.prefix + number + pattern.suffix;
}

std::string defaultSequencePattern(const std::string& path) {
    const std::filesystem::path p(path);
    std::string stem = p.stem().string();
    // A '%' already in the name must stay literal in the pattern.
    std::string escaped;
    for (char c : stem) escaped += c == '%' ? std::string("%%") : std::string(1, c);
    std::string dir = p.parent_path().string();
    for (size_t at = 0; (at = dir.find('%', at)) != std::string::npos; at += 2) dir.insert(at, "%");
    const std::string name = escaped + "_%04d" + p.extension().string();
    return dir.empty() ? name : dir + "/" + name;
}

} // namespace spindrift::render
