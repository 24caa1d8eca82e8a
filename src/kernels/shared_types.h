// The vocabulary shared by C++ and GLSL: every header under src/kernels/ is written in the subset
// both languages accept, and the compute shaders #include the same text.
//
// In C++ the GLSL types map to glm (vec4, uvec4) and fixed-width integers (uint); in GLSL they
// are native. SD_CONST declares a constant the same way in both (`SD_CONST uint kX = 0u;`), and
// SD_BEGIN_NAMESPACE / SD_END_NAMESPACE put C++ declarations in namespace spindrift while GLSL,
// which has no namespaces, sees nothing.
//
// Kernel functions are declared `SD_FUNC T sdName(...)` (inline in C++, plain in GLSL). They take
// values; the one exception is an in/out or out parameter, written SD_INOUT(T) / SD_OUT(T)
// (a reference in C++, `inout T` / `out T` in GLSL); a large record read whole (EmitterRecord,
// 464 bytes) is SD_IN(T), a const reference in C++ (GCC does not always drop the copy of a
// by-value record through several inlined levels) and a plain `in T` in GLSL; and a read-only
// view of a record array.
//
// A record array a kernel reads by index (LUT texels, force fields, colliders, mesh points) is
// declared once, next to the kernel that reads it, with SD_READONLY_REF(Name, T, member, align):
// in C++ a struct holding `const T* member`, in GLSL a read-only buffer reference
// (GL_EXT_buffer_reference, which every shader including such a header enables) whose block is
// `T member[]`. Either way a kernel reads `ref.member[i]`, so a per-particle rule that walks the
// force fields or samples the LUT is one text; the caller builds the view (`Name{pointer}` in C++,
// `Name(address)` from a uvec2 device address in GLSL). The GLSL built-ins kernels use (dot, cross,
// length, normalize, floor, fract, mix, clamp, min, max, abs, sqrt, step, sign, floatBitsToUint,
// uintBitsToFloat) come from glm in C++ through the using-declarations below, with the same
// semantics (glm's mix is x * (1 - a) + y * a, as GLSL specifies).
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

// glm's operators must inline into the particle loops like the kernels themselves (in a large
// body such as curl noise GCC otherwise leaves calls to them, and the loop does not vectorise).
// Best defined for the whole project (it only adds always_inline); defined here for the TUs that
// reach glm first through this header.
// Sanitizer and fuzzer builds define SPINDRIFT_NO_FORCE_INLINE: forced inlining of the curl
// body under instrumentation costs minutes of compile time per file and buys nothing there.
#if !defined(GLM_FORCE_INLINE) && !defined(SPINDRIFT_NO_FORCE_INLINE)
#define GLM_FORCE_INLINE
#endif
#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#define SD_CONST inline constexpr
// Kernels are always inlined: they are called from loops over particles, and a call left in
// such a loop (GCC declines to inline the large curl-noise body on its own) stops it vectorising.
#if defined(__GNUC__) && !defined(SPINDRIFT_NO_FORCE_INLINE)
#define SD_FUNC inline __attribute__((always_inline))
#else
#define SD_FUNC inline
#endif
#define SD_IN(T) const T&
#define SD_INOUT(T) T&
#define SD_OUT(T) T&
#define SD_READONLY_REF(Name, T, member, align)                                                    \
    struct Name {                                                                                  \
        const T* member;                                                                           \
    }
#define SD_BEGIN_NAMESPACE namespace spindrift {
#define SD_END_NAMESPACE }

namespace spindrift {
using uint = uint32_t;
using vec4 = glm::vec4;
using uvec4 = glm::uvec4;
using vec2 = glm::vec2;
using vec3 = glm::vec3;
using uvec2 = glm::uvec2;
using uvec3 = glm::uvec3;

// The GLSL built-ins of the kernel subset.
using glm::abs;
using glm::clamp;
using glm::cross;
using glm::dot;
using glm::floatBitsToUint;
using glm::floor;
using glm::fract;
using glm::length;
using glm::max;
using glm::min;
using glm::mix;
using glm::normalize;
using glm::sign;
using glm::sqrt;
using glm::step;
using glm::uintBitsToFloat;

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
#define SD_FUNC
#define SD_IN(T) in T
#define SD_INOUT(T) inout T
#define SD_OUT(T) out T
#define SD_READONLY_REF(Name, T, member, align)                                                    \
    layout(buffer_reference, std430, buffer_reference_align = align) readonly buffer Name {        \
        T member[];                                                                                \
    }
#define SD_BEGIN_NAMESPACE
#define SD_END_NAMESPACE

#endif // __cplusplus

#endif // SPINDRIFT_KERNELS_SHARED_TYPES_H
