// The vocabulary shared by C++ and GLSL: every header under src/kernels/ is written in the subset
// both languages accept, and the compute shaders #include the same text.
//
// In C++ the GLSL types map to glm (vec4, uvec4) and fixed-width integers (uint); in GLSL they
// are native. SD_CONST declares a constant the same way in both (`SD_CONST uint kX = 0u;`), and
// SD_BEGIN_NAMESPACE / SD_END_NAMESPACE put C++ declarations in namespace spindrift while GLSL,
// which has no namespaces, sees nothing.
//
// Rules for the records built on these types (they are std430 buffers on the GPU):
// - fields are vec4, uvec4, float or uint only (no vec3: its std430 alignment is 16, size 12);
// - scalars come in groups of four so every vec4/uvec4 starts at a multiple of 16 bytes, which
//   makes the C++ offsets equal to the std430 offsets; padding is written out as fields;
// - the size of every record is a multiple of 16 bytes; no pointers, no arrays of unknown size.
#ifndef SPINDRIFT_KERNELS_SHARED_TYPES_H
#define SPINDRIFT_KERNELS_SHARED_TYPES_H

#ifdef __cplusplus

#include <cstdint>
#include <type_traits>

#include <glm/vec4.hpp>

#define SD_CONST inline constexpr
#define SD_BEGIN_NAMESPACE namespace spindrift {
#define SD_END_NAMESPACE }

namespace spindrift {
using uint = uint32_t;
using vec4 = glm::vec4;
using uvec4 = glm::uvec4;

static_assert(sizeof(vec4) == 16 && alignof(vec4) == 4, "glm::vec4 must be 4 packed floats");
static_assert(sizeof(uvec4) == 16 && alignof(uvec4) == 4, "glm::uvec4 must be 4 packed uints");
} // namespace spindrift

// Pins a record's layout: size, alignment (glm's packed vec4 gives 4 on the host; the GPU
// aligns the struct to 16 by its vec4 members) and trivial copyability.
#define SD_ASSERT_RECORD(T, bytes)                                                                 \
    static_assert(sizeof(T) == (bytes), #T " size is frozen");                                     \
    static_assert(sizeof(T) % 16 == 0, #T " size must be a multiple of 16 bytes");                 \
    static_assert(alignof(T) == 4, #T " must be 4-byte aligned on the host");                      \
    static_assert(std::is_trivially_copyable_v<T>, #T " must be trivially copyable");              \
    static_assert(std::is_standard_layout_v<T>, #T " must be standard layout")

#else // GLSL

#define SD_CONST const
#define SD_BEGIN_NAMESPACE
#define SD_END_NAMESPACE

#endif // __cplusplus

#endif // SPINDRIFT_KERNELS_SHARED_TYPES_H
