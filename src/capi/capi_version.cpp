// The C API's process-wide calls: version, result names, the last-error message, the allocator.
#include <cstdio>

#include "capi/call_guard.h"
#include "capi/host_memory.h"
#include "spindrift/spindrift.h"

// The header's version macros are the CMake project's version (src/capi/CMakeLists.txt passes
// it): the build fails when they drift apart.
static_assert(SPINDRIFT_VERSION_MAJOR == SPINDRIFT_PROJECT_VERSION_MAJOR &&
                  SPINDRIFT_VERSION_MINOR == SPINDRIFT_PROJECT_VERSION_MINOR &&
                  SPINDRIFT_VERSION_PATCH == SPINDRIFT_PROJECT_VERSION_PATCH,
              "include/spindrift/spindrift.h's SPINDRIFT_VERSION_* differ from CMakeLists.txt's "
              "project version");

using namespace spindrift::capi;

#define SPINDRIFT_STRINGIFY2(x) #x
#define SPINDRIFT_STRINGIFY(x) SPINDRIFT_STRINGIFY2(x)

extern "C" {

SPINDRIFT_API uint32_t spindrift_version(void) {
    return SPINDRIFT_HEADER_VERSION;
}

SPINDRIFT_API const char* spindrift_version_string(void) {
    return SPINDRIFT_STRINGIFY(SPINDRIFT_VERSION_MAJOR) "." SPINDRIFT_STRINGIFY(
        SPINDRIFT_VERSION_MINOR) "." SPINDRIFT_STRINGIFY(SPINDRIFT_VERSION_PATCH);
}

SPINDRIFT_API const char* spindrift_result_name(spindrift_result result) {
    switch (result) {
    case SPINDRIFT_OK:
        return "ok";
    case SPINDRIFT_ERROR_NULL_HANDLE:
        return "null handle";
    case SPINDRIFT_ERROR_INVALID_HANDLE:
        return "invalid handle";
    case SPINDRIFT_ERROR_STALE_HANDLE:
        return "stale handle";
    case SPINDRIFT_ERROR_NULL_POINTER:
        return "null pointer";
    case SPINDRIFT_ERROR_STRUCT_SIZE:
        return "wrong struct size";
    case SPINDRIFT_ERROR_INVALID_ARGUMENT:
        return "invalid argument";
    case SPINDRIFT_ERROR_UNKNOWN_EFFECT:
        return "unknown effect";
    case SPINDRIFT_ERROR_EFFECT_FAILED:
        return "effect failed";
    case SPINDRIFT_ERROR_UNKNOWN_EMITTER:
        return "unknown emitter";
    case SPINDRIFT_ERROR_UNKNOWN_PARAMETER:
        return "unknown parameter";
    case SPINDRIFT_ERROR_UNSUPPORTED:
        return "unsupported";
    case SPINDRIFT_ERROR_NOT_RUNNING:
        return "not running";
    case SPINDRIFT_ERROR_CAPACITY_EXCEEDED:
        return "capacity exceeded";
    case SPINDRIFT_ERROR_BACKEND_UNAVAILABLE:
        return "backend unavailable";
    case SPINDRIFT_ERROR_OUT_OF_MEMORY:
        return "out of memory";
    case SPINDRIFT_ERROR_BUFFER_TOO_SMALL:
        return "buffer too small";
    case SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE:
        return "index out of range";
    case SPINDRIFT_ERROR_IN_USE:
        return "in use";
    case SPINDRIFT_ERROR_INTERNAL:
        return "internal error";
    }
    return "unknown result";
}

SPINDRIFT_API const char* spindrift_last_error_message(void) {
    return lastMessage();
}

SPINDRIFT_API spindrift_result spindrift_set_allocator(const spindrift_allocator* allocator) {
    return guarded(__func__, [&] {
        if (allocator != nullptr) {
            if (const spindrift_result r = requireStruct(allocator, "allocator"); r != SPINDRIFT_OK)
                return r;
            if (allocator->allocate == nullptr || allocator->reallocate == nullptr ||
                allocator->release == nullptr) {
                return fail(SPINDRIFT_ERROR_NULL_POINTER,
                            "allocator: allocate, reallocate and release are all required");
            }
        }
        if (setHostAllocator(allocator) != SPINDRIFT_OK) {
            return fail(SPINDRIFT_ERROR_IN_USE,
                        "%llu blocks of the current allocator are still in use: destroy every "
                        "library, world, draw list and diagnostics list first",
                        static_cast<unsigned long long>(hostBlocksOutstanding()));
        }
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_transform spindrift_identity_transform(void) {
    return {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
}

} // extern "C"
