// Where rendered frames go, by the output path: its extension picks the kind (.png, .mp4), and
// a PNG sequence names its files from a frame-number placeholder.
#pragma once

#include <cstdint>
#include <string>

namespace spindrift::render {

enum class OutputKind : uint8_t { png, mp4, unknown };

// The zlib level of the rendered frames Spindrift writes as PNG: `render`'s stills, sequences and
// contact sheets (unless --png-level says otherwise) and the viewer's screenshots, so the same
// frame gives the same file from either. On rendered 1080p frames it took a quarter to a third of
// level 9's time for 6-12 % more bytes; levels 1-3 were faster still but 1.5-1.8 times level 9's
// bytes (docs/benchmarks.md, "Offline output"). Textures keep encodePng's default, level 9.
inline constexpr int kFramePngLevel = 6;

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
