#include "capi/call_guard.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace spindrift::capi {

namespace {

thread_local char t_message[SPINDRIFT_MAX_ERROR_MESSAGE_BYTES];
thread_local const char* t_call = "spindrift";

} // namespace

void beginCall(const char* call) {
    t_call = call;
    t_message[0] = '\0';
}

const char* lastMessage() {
    return t_message;
}

spindrift_result fail(spindrift_result code, const char* format, ...) {
    const int prefix = std::snprintf(t_message, sizeof t_message, "%s: ", t_call);
    if (prefix >= 0 && static_cast<size_t>(prefix) < sizeof t_message) {
        va_list args;
        va_start(args, format);
        std::vsnprintf(t_message + prefix, sizeof t_message - static_cast<size_t>(prefix), format,
                       args);
        va_end(args);
    }
    return code;
}

spindrift_result resultOf(RuntimeError error) {
    switch (error) {
    case RuntimeError::none:
        return SPINDRIFT_OK;
    case RuntimeError::invalid_handle:
        return SPINDRIFT_ERROR_INVALID_HANDLE;
    case RuntimeError::stale_handle:
        return SPINDRIFT_ERROR_STALE_HANDLE;
    case RuntimeError::unknown_effect:
        return SPINDRIFT_ERROR_UNKNOWN_EFFECT;
    case RuntimeError::effect_failed:
        return SPINDRIFT_ERROR_EFFECT_FAILED;
    case RuntimeError::unknown_emitter:
        return SPINDRIFT_ERROR_UNKNOWN_EMITTER;
    case RuntimeError::invalid_argument:
        return SPINDRIFT_ERROR_INVALID_ARGUMENT;
    case RuntimeError::unsupported:
        return SPINDRIFT_ERROR_UNSUPPORTED;
    case RuntimeError::not_running:
        return SPINDRIFT_ERROR_NOT_RUNNING;
    case RuntimeError::capacity_exceeded:
        return SPINDRIFT_ERROR_CAPACITY_EXCEEDED;
    case RuntimeError::backend_unavailable:
        return SPINDRIFT_ERROR_BACKEND_UNAVAILABLE;
    case RuntimeError::unknown_parameter:
        return SPINDRIFT_ERROR_UNKNOWN_PARAMETER;
    }
    return SPINDRIFT_ERROR_INTERNAL;
}

spindrift_result fromRuntime(RuntimeError error, std::string_view message) {
    if (error == RuntimeError::none) return SPINDRIFT_OK;
    if (message.empty()) message = describe(error);
    return fail(resultOf(error), "%.*s", static_cast<int>(message.size()), message.data());
}

spindrift_result copyOut(std::string_view text, char* buffer, size_t buffer_bytes,
                         size_t* out_length) {
    if (out_length != nullptr) *out_length = text.size();
    if (buffer_bytes == 0) return SPINDRIFT_OK; // a length query
    if (buffer == nullptr)
        return fail(SPINDRIFT_ERROR_NULL_POINTER, "buffer is NULL but buffer_bytes is %zu",
                    buffer_bytes);
    const size_t n = text.size() < buffer_bytes ? text.size() : buffer_bytes - 1;
    std::memcpy(buffer, text.data(), n);
    buffer[n] = '\0';
    if (n < text.size()) {
        return fail(SPINDRIFT_ERROR_BUFFER_TOO_SMALL,
                    "%zu bytes needed (with the NUL), the buffer has %zu", text.size() + 1,
                    buffer_bytes);
    }
    return SPINDRIFT_OK;
}

} // namespace spindrift::capi
