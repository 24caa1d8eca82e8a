// A frame's motion vectors as a file (`spindrift render --motion-vectors`, docs/rendering.md
// "Motion vectors"): a Portable Float Map, the plain float image format many image tools read.
// "PF\n<width> <height>\n-1.0\n", then width x height pixels of three little-endian 32-bit
// floats: red the motion's x, green its y (pixels; this frame's position minus the previous
// frame's, x right, y down the image), blue 0. The format stores rows bottom to top, so the
// first row in the file is the image's last; the values are as drawn, y still down.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/renderer.h"
#include "spindrift/diagnostic.h"

namespace spindrift::render {

// The file's bytes for motion (width x height x 2 floats; an empty image gives a header of 0 x 0).
std::vector<uint8_t> encodeMotionPfm(const MotionImage& motion);

// Writes encodeMotionPfm(motion) to path through a temporary file renamed into place
// (io/output_file.h). False with one error naming path.
bool writeMotionPfm(const std::string& path, const MotionImage& motion,
                    std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::render
