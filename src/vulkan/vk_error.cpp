#include "vulkan/vk_error.h"

namespace spindrift::vk {

std::string resultName(VkResult result) {
    switch (result) {
#define SPINDRIFT_VK_RESULT(name)                                                                  \
    case name:                                                                                     \
        return #name;
        SPINDRIFT_VK_RESULT(VK_SUCCESS)
        SPINDRIFT_VK_RESULT(VK_NOT_READY)
        SPINDRIFT_VK_RESULT(VK_TIMEOUT)
        SPINDRIFT_VK_RESULT(VK_EVENT_SET)
        SPINDRIFT_VK_RESULT(VK_EVENT_RESET)
        SPINDRIFT_VK_RESULT(VK_INCOMPLETE)
        SPINDRIFT_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        SPINDRIFT_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        SPINDRIFT_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        SPINDRIFT_VK_RESULT(VK_ERROR_DEVICE_LOST)
        SPINDRIFT_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        SPINDRIFT_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        SPINDRIFT_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        SPINDRIFT_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        SPINDRIFT_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        SPINDRIFT_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        SPINDRIFT_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        SPINDRIFT_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
        SPINDRIFT_VK_RESULT(VK_ERROR_UNKNOWN)
        SPINDRIFT_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        SPINDRIFT_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        SPINDRIFT_VK_RESULT(VK_ERROR_FRAGMENTATION)
        SPINDRIFT_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        SPINDRIFT_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
        SPINDRIFT_VK_RESULT(VK_ERROR_SURFACE_LOST_KHR)
        SPINDRIFT_VK_RESULT(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        SPINDRIFT_VK_RESULT(VK_SUBOPTIMAL_KHR)
        SPINDRIFT_VK_RESULT(VK_ERROR_OUT_OF_DATE_KHR)
        SPINDRIFT_VK_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
#undef SPINDRIFT_VK_RESULT
    default:
        break;
    }
    return "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
}

namespace {

// What a result most often means for this renderer, so the message says what to do.
std::string_view hint(VkResult result) {
    switch (result) {
    case VK_ERROR_INCOMPATIBLE_DRIVER:
        return "no Vulkan driver (ICD) could be loaded; install one, e.g. Mesa's lavapipe CPU "
               "driver (Debian: apt install mesa-vulkan-drivers)";
    case VK_ERROR_LAYER_NOT_PRESENT:
        return "a requested layer is not installed (Debian: apt install vulkan-validationlayers)";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return "out of memory; try a smaller resolution or fewer particles";
    case VK_ERROR_DEVICE_LOST:
        return "the device was lost (driver crash or timeout)";
    default:
        return {};
    }
}

} // namespace

Diagnostic vulkanError(std::string_view call, VkResult result, std::string_view what) {
    Diagnostic d;
    d.severity = Severity::error;
    d.path = std::string(call);
    d.message = "failed with " + resultName(result);
    if (!what.empty()) d.message += " (" + std::string(what) + ")";
    std::string_view h = hint(result);
    if (!h.empty()) d.message += ": " + std::string(h);
    return d;
}

Diagnostic vulkanSetupError(std::string_view where, std::string message) {
    Diagnostic d;
    d.severity = Severity::error;
    d.path = std::string(where);
    d.message = std::move(message);
    return d;
}

bool check(VkResult result, std::string_view call, std::vector<Diagnostic>& diagnostics,
           std::string_view what) {
    if (result == VK_SUCCESS) return true;
    diagnostics.push_back(vulkanError(call, result, what));
    return false;
}

} // namespace spindrift::vk
