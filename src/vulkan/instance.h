// The Vulkan instance, and the validation layer's messages when it is on.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"

namespace spindrift::vk {

inline constexpr const char* kValidationLayerName = "VK_LAYER_KHRONOS_validation";

// Every warning and error the debug messenger reports, as "<severity> [<type>] <id>: <message>",
// in order. The layer calls back on the thread making the Vulkan call; the lock keeps appends
// from two threads apart. Read messages() only while no Vulkan call is in flight (the renderer
// is used from one thread at a time).
class MessageLog {
public:
    void append(std::string message);
    const std::vector<std::string>& messages() const { return messages_; }

private:
    std::mutex mutex_;
    std::vector<std::string> messages_;
};

class Instance {
public:
    // A Vulkan 1.3 instance. With validation, VK_LAYER_KHRONOS_validation and VK_EXT_debug_utils
    // are enabled and a messenger (also chained into instance creation and destruction) records
    // every validation warning and error, and any error from other sources, in messages().
    // Returns nullptr with an error naming the cause: no Vulkan driver, the loader too old for
    // Vulkan 1.3, the validation layer missing (with the package that provides it).
    static std::unique_ptr<Instance> create(bool validation, std::vector<Diagnostic>& diagnostics);
    // A host's instance, borrowed (docs/host-vulkan.md): used, never destroyed, no messenger of
    // Spindrift's (the host's own messenger sees Spindrift's calls).
    static std::unique_ptr<Instance> borrow(VkInstance instance);
    // Destroys the messenger and the instance when they are Spindrift's own.
    ~Instance();
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    VkInstance handle() const { return instance_; }
    bool validation() const { return messenger_ != VK_NULL_HANDLE; }
    bool owned() const { return owned_; }
    const MessageLog& messages() const { return *log_; }

private:
    Instance() = default;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    bool owned_ = true;
    // Heap-held so the address the messenger was given stays valid.
    std::unique_ptr<MessageLog> log_ = std::make_unique<MessageLog>();
};

} // namespace spindrift::vk
