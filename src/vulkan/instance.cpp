#include "vulkan/instance.h"

#include <algorithm>
#include <cstring>

#include "vulkan/keep_libraries.h"
#include "vulkan/vk_error.h"

namespace spindrift::vk {

void MessageLog::append(std::string message) {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.push_back(std::move(message));
}

namespace {

// Validation warnings and errors are recorded, and errors of any type (general, performance):
// the tests fail on any. Loader and driver chatter at info/verbose level is not.
VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT type,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user) {
    bool is_error = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0;
    bool is_validation = (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0;
    if (is_error || is_validation) {
        std::string text = is_error ? "error" : "warning";
        text += is_validation ? " [validation]" : " [general]";
        if (data != nullptr && data->pMessageIdName != nullptr) {
            text += " ";
            text += data->pMessageIdName;
        }
        text += ": ";
        text += data != nullptr && data->pMessage != nullptr ? data->pMessage : "(no message)";
        static_cast<MessageLog*>(user)->append(std::move(text));
    }
    return VK_FALSE; // never abort the call
}

VkDebugUtilsMessengerCreateInfoEXT messengerInfo(MessageLog* log) {
    VkDebugUtilsMessengerCreateInfoEXT info{};
    info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onDebugMessage;
    info.pUserData = log;
    return info;
}

bool hasLayer(const char* name, std::vector<Diagnostic>& diagnostics) {
    uint32_t count = 0;
    if (!check(vkEnumerateInstanceLayerProperties(&count, nullptr),
               "vkEnumerateInstanceLayerProperties", diagnostics)) {
        return false;
    }
    std::vector<VkLayerProperties> layers(count);
    VkResult r = vkEnumerateInstanceLayerProperties(&count, layers.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        return check(r, "vkEnumerateInstanceLayerProperties", diagnostics);
    }
    layers.resize(count);
    return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& layer) {
        return std::strcmp(layer.layerName, name) == 0;
    });
}

bool hasInstanceExtension(const char* layer, const char* name,
                          std::vector<Diagnostic>& diagnostics) {
    uint32_t count = 0;
    if (!check(vkEnumerateInstanceExtensionProperties(layer, &count, nullptr),
               "vkEnumerateInstanceExtensionProperties", diagnostics)) {
        return false;
    }
    std::vector<VkExtensionProperties> extensions(count);
    VkResult r = vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        return check(r, "vkEnumerateInstanceExtensionProperties", diagnostics);
    }
    extensions.resize(count);
    return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

} // namespace

std::unique_ptr<Instance> Instance::create(bool validation, std::vector<Diagnostic>& diagnostics) {
    // Before any Vulkan call: the enumerations below already load the drivers and layers.
    const std::vector<std::string> libraries_before = loadedLibraries();
    uint32_t loader_version = VK_API_VERSION_1_0;
    if (!check(vkEnumerateInstanceVersion(&loader_version), "vkEnumerateInstanceVersion",
               diagnostics)) {
        return nullptr;
    }
    if (loader_version < VK_API_VERSION_1_3) {
        diagnostics.push_back(
            vulkanSetupError("vkEnumerateInstanceVersion",
                             "the Vulkan loader supports Vulkan " +
                                 std::to_string(VK_API_VERSION_MAJOR(loader_version)) + "." +
                                 std::to_string(VK_API_VERSION_MINOR(loader_version)) +
                                 "; the renderer needs 1.3 (Debian 12: apt install libvulkan1)"));
        return nullptr;
    }

    std::unique_ptr<Instance> instance(new Instance());
    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    bool sync_validation = false;
    if (validation) {
        size_t errors_before = diagnostics.size();
        if (!hasLayer(kValidationLayerName, diagnostics)) {
            if (diagnostics.size() == errors_before) {
                diagnostics.push_back(vulkanSetupError(
                    "vkCreateInstance",
                    std::string("validation was requested but the layer ") + kValidationLayerName +
                        " is not installed (Debian: apt install vulkan-validationlayers)"));
            }
            return nullptr;
        }
        if (!hasInstanceExtension(nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME, diagnostics) &&
            !hasInstanceExtension(kValidationLayerName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                                  diagnostics)) {
            if (diagnostics.size() == errors_before) {
                diagnostics.push_back(vulkanSetupError(
                    "vkCreateInstance", std::string("validation needs the instance extension ") +
                                            VK_EXT_DEBUG_UTILS_EXTENSION_NAME +
                                            ", which this Vulkan installation lacks"));
            }
            return nullptr;
        }
        layers.push_back(kValidationLayerName);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        sync_validation = hasInstanceExtension(
            kValidationLayerName, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME, diagnostics);
        if (sync_validation) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    }

    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "spindrift";
    app.pEngineName = "spindrift";
    app.apiVersion = VK_API_VERSION_1_3;

    VkDebugUtilsMessengerCreateInfoEXT messenger_info = messengerInfo(instance->log_.get());
    // Synchronization validation too: a missing barrier is as much a bug as a bad argument.
    VkValidationFeatureEnableEXT enables[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{};
    features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
    features.pNext = &messenger_info;
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    if (validation) {
        info.pNext = sync_validation ? static_cast<const void*>(&features) : &messenger_info;
    }
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    if (!check(vkCreateInstance(&info, nullptr, &instance->instance_), "vkCreateInstance",
               diagnostics)) {
        instance->instance_ = VK_NULL_HANDLE;
        return nullptr;
    }
    keepLibrariesLoadedSince(libraries_before);

    if (validation) {
        auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance->instance_, "vkCreateDebugUtilsMessengerEXT"));
        if (create_messenger == nullptr) {
            diagnostics.push_back(vulkanSetupError(
                "vkGetInstanceProcAddr", "vkCreateDebugUtilsMessengerEXT is not available"));
            return nullptr;
        }
        if (!check(create_messenger(instance->instance_, &messenger_info, nullptr,
                                    &instance->messenger_),
                   "vkCreateDebugUtilsMessengerEXT", diagnostics)) {
            instance->messenger_ = VK_NULL_HANDLE;
            return nullptr;
        }
    }
    return instance;
}

std::unique_ptr<Instance> Instance::borrow(VkInstance instance) {
    std::unique_ptr<Instance> borrowed(new Instance());
    borrowed->instance_ = instance;
    borrowed->owned_ = false;
    return borrowed;
}

Instance::~Instance() {
    if (!owned_) return; // the host's: it destroys it, after Spindrift is gone
    if (messenger_ != VK_NULL_HANDLE) {
        auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy_messenger != nullptr) destroy_messenger(instance_, messenger_, nullptr);
    }
    if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

} // namespace spindrift::vk
