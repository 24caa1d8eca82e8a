#include "render/motion_file.h"

#include <bit>

#include "io/output_file.h"

namespace spindrift::render {

std::vector<uint8_t> encodeMotionPfm(const MotionImage& motion) {
    static_assert(std::endian::native == std::endian::little,
                  "the scale -1.0 says little-endian floats: written as the host's");
    const std::string header =
        "PF\n" + std::to_string(motion.width) + " " + std::to_string(motion.height) + "\n-1.0\n";
    std::vector<uint8_t> bytes(header.begin(), header.end());
    const size_t row_floats = size_t{motion.width} * 3;
    std::vector<float> row(row_floats);
    bytes.reserve(bytes.size() + row_floats * motion.height * sizeof(float));
    for (uint32_t k = 0; k < motion.height; ++k) {
        const uint32_t y = motion.height - 1 - k; // bottom row first
        for (uint32_t x = 0; x < motion.width; ++x) {
            const size_t i = (size_t{y} * motion.width + x) * 2;
            row[size_t{x} * 3] = motion.xy[i];
            row[size_t{x} * 3 + 1] = motion.xy[i + 1];
            row[size_t{x} * 3 + 2] = 0.0f;
        }
        const auto* data = reinterpret_cast<const uint8_t*>(row.data());
        bytes.insert(bytes.end(), data, data + row_floats * sizeof(float));
    }
    return bytes;
}

bool writeMotionPfm(const std::string& path, const MotionImage& motion,
                    std::vector<Diagnostic>& diagnostics) {
    return writeFileAtomically(path, encodeMotionPfm(motion), diagnostics);
}

} // namespace spindrift::render
