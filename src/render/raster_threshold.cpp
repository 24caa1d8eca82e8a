#include "render/raster_threshold.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace spindrift::render {

bool isComputePart(std::string_view name) {
    std::string upper(name);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    // GH200 holds H200; listed for the reader.
    for (const std::string_view model : {"H100", "H200", "H800", "GH200", "A100", "A800"}) {
        if (upper.find(model) != std::string::npos) return true;
    }
    return false;
}

uint64_t deviceComputeRasterThreshold(const DeviceInfo& device) {
    if (device.type == "cpu") return kCpuComputeRasterThreshold;
    if (isComputePart(device.name)) return kComputePartRasterThreshold;
    return kDefaultComputeRasterThreshold;
}

} // namespace spindrift::render
