// A host-visible storage buffer the particle shaders read through its device address (draw
// records, strip points, segment indices). It grows when a frame needs more room and never
// shrinks, so frames that fit allocate nothing.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace spindrift::render {

struct DrawBuffer {
    vk::Buffer buffer;     // mapped; address is its device address
    uint64_t capacity = 0; // elements
};

// Makes room for `count` elements of element_bytes: when count exceeds the capacity the buffer
// is replaced by one of max(count, 2 x capacity, min_count) elements, at most max_count (the
// caller has checked count <= max_count). Contents are not kept. False with an error naming
// `what` when the buffer cannot be created (the old one is gone then too).
bool reserveDrawBuffer(const vk::Device& device, DrawBuffer& b, uint64_t count,
                       uint64_t element_bytes, uint64_t min_count, uint64_t max_count,
                       std::string_view what, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::render
