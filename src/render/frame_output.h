// Where rendered frames go, by the output path: its extension picks the kind (.png, .mp4), and
// a PNG sequence names its files from a frame-number placeholder.
#pragma once

#include <cstdint>
#include <string>

namespace spindrift::render {

enum class OutputKind : uint8_t { png, mp4, unknown };

// By extension, case-insensitive: ".png" and ".mp4"; anything else (or none) is unknown.
OutputKind outputKindOf(const std::string& path);

// A PNG sequence path holds one frame-number placeholder, "%d" or "%0Nd" (N in 1..9: zero-padded
// to N digits), as ffmpeg and printf write it; "%%" is a literal '%'. Nothing else after a '%' is
// accepted, so the path is never handed to printf.
struct FramePattern {
    std::string prefix;  // text before the placeholder ('%%' already turned into '%')
    std::string suffix;  // text after it
    uint32_t digits = 0; // minimum digits (0: as many as needed)
    bool has_placeholder = false;
};

// Parses path. Returns false with a message in error for a malformed placeholder or more than one.
bool parseFramePattern(const std::string& path, FramePattern& out, std::string& error);

// The file name of frame index. Without a placeholder, the path itself (prefix + suffix).
std::string frameFileName(const FramePattern& pattern, uint32_t index);

// For a sequence asked for without a placeholder: "out/name.png" -> "out/name_%04d.png".
std::string defaultSequencePattern(const std::string& path);

} // namespace spindrift::render
