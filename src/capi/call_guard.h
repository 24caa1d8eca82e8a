// The error model of the C API (include/spindrift/spindrift.h, "Errors"): every entry point runs
// its body through guarded(), which clears the calling thread's last-error message, catches every
// exception (std::bad_alloc: SPINDRIFT_ERROR_OUT_OF_MEMORY; anything else:
// SPINDRIFT_ERROR_INTERNAL with its text) and returns a result code. fail() writes the message,
// prefixed with the entry point's name, into a fixed thread-local buffer: reporting an error
// allocates nothing, so it works when memory has run out.
#pragma once

#include <exception>
#include <new>
#include <string_view>

#include "spindrift/runtime.h"
#include "spindrift/spindrift.h"

namespace spindrift::capi {

// Sets the calling thread's message to "<call>: <formatted text>" and returns code.
spindrift_result fail(spindrift_result code, const char* format, ...)
    __attribute__((format(printf, 2, 3)));

// This thread's message ("" after a call that succeeded).
const char* lastMessage();

// The entry point now running on this thread (its name prefixes messages); clears the message.
void beginCall(const char* call);

// The C result for a C++ runtime error.
spindrift_result resultOf(RuntimeError error);

// none: SPINDRIFT_OK; else the mapped code with the C++ call's message.
spindrift_result fromRuntime(RuntimeError error, std::string_view message);

template <typename Body> spindrift_result guarded(const char* call, Body&& body) noexcept {
    beginCall(call);
    try {
        return body();
    } catch (const std::bad_alloc&) {
        return fail(SPINDRIFT_ERROR_OUT_OF_MEMORY, "out of memory");
    } catch (const std::exception& e) {
        return fail(SPINDRIFT_ERROR_INTERNAL, "unexpected failure: %s", e.what());
    } catch (...) {
        return fail(SPINDRIFT_ERROR_INTERNAL, "unexpected failure");
    }
}

// A required pointer argument: NULL_POINTER naming it when null.
template <typename T> spindrift_result requirePointer(const T* p, const char* name) {
    if (p == nullptr) return fail(SPINDRIFT_ERROR_NULL_POINTER, "%s is NULL", name);
    return SPINDRIFT_OK;
}

// A struct passed in or out: not null, and struct_size this library's size of it.
template <typename T> spindrift_result requireStruct(const T* p, const char* name) {
    if (p == nullptr) return fail(SPINDRIFT_ERROR_NULL_POINTER, "%s is NULL", name);
    if (p->struct_size != sizeof(T)) {
        return fail(SPINDRIFT_ERROR_STRUCT_SIZE,
                    "%s->struct_size is %u; this library's size of it is %zu (compiled against "
                    "another version of spindrift.h, or struct_size not set)",
                    name, p->struct_size, sizeof(T));
    }
    return SPINDRIFT_OK;
}

// Copies text into a caller buffer by the rule spindrift.h states for strings handed out.
spindrift_result copyOut(std::string_view text, char* buffer, size_t buffer_bytes,
                         size_t* out_length);

} // namespace spindrift::capi
