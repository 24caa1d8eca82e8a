#include "render/draw_buffer.h"

#include <algorithm>
#include <string>

namespace spindrift::render {

bool reserveDrawBuffer(const vk::Device& device, DrawBuffer& b, uint64_t count,
                       uint64_t element_bytes, uint64_t min_count, uint64_t max_count,
                       std::string_view what, std::vector<Diagnostic>& diagnostics) {
    if (count <= b.capacity) return true;
    uint64_t grown = std::max({count, b.capacity * 2, min_count});
    grown = std::min(grown, max_count);
    b.buffer = {};
    b.capacity = 0;
    b.buffer = vk::createBuffer(
        device, grown * element_bytes,
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        vk::MemoryUse::upload, std::string(what) + " (" + std::to_string(grown) + " elements)",
        diagnostics);
    if (!b.buffer) return false;
    b.capacity = grown;
    return true;
}

} // namespace spindrift::render
