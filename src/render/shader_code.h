// The embedded SPIR-V (build/shaders/generated/embedded_shaders.h) as the span the Vulkan layer
// takes.
#pragma once

#include <cstdint>
#include <span>

#include "embedded_shaders.h"

namespace spindrift::render {

inline std::span<const uint32_t> spirvWords(const shaders::SpirvCode& code) {
    return {code.words, code.word_count};
}

} // namespace spindrift::render
