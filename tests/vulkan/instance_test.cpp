#include "vulkan/instance.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "vulkan/device.h"
#include "vulkan/keep_libraries.h"
#include "vulkan/physical_device.h"
#include "vulkan/scoped_env.h"

namespace spindrift::vk {
namespace {

std::string errors(const std::vector<Diagnostic>& d) {
    std::string s;
    for (const Diagnostic& x : d) s += formatDiagnostic(x) + "\n";
    return s;
}

// The libraries an instance brought in (the driver, its dependencies, the layer) stay loaded after
// it is destroyed (keep_libraries.h: the NVIDIA driver fails to load after 29 unload cycles in
// one process). CTest runs each test in its own process, so this instance is the process's first
// and the driver comes in with it.
TEST(Instance, TheDriverStaysLoadedAfterTheInstanceIsDestroyed) {
    const std::vector<std::string> before = loadedLibraries();
    std::vector<std::string> during;
    {
        std::vector<Diagnostic> d;
        std::unique_ptr<Instance> instance = Instance::create(true, d);
        ASSERT_NE(instance, nullptr) << errors(d);
        during = loadedLibraries();
    }
    const std::vector<std::string> after = loadedLibraries();
    size_t brought = 0;
    for (const std::string& name : during) {
        if (std::find(before.begin(), before.end(), name) != before.end()) continue;
        ++brought;
        EXPECT_NE(std::find(after.begin(), after.end(), name), after.end())
            << name << " was unloaded with the instance";
    }
    EXPECT_GT(brought, 0u) << "the instance loaded no driver or layer library";
}

TEST(Instance, ValidationMessagesAreRecorded) {
    std::vector<Diagnostic> d;
    std::unique_ptr<Instance> instance = Instance::create(true, d);
    ASSERT_NE(instance, nullptr) << errors(d);
    EXPECT_TRUE(instance->validation());
    std::vector<PhysicalDevice> devices = enumeratePhysicalDevices(instance->handle(), d);
    ASSERT_FALSE(devices.empty()) << errors(d);
    DeviceSupport support;
    ASSERT_TRUE(checkDeviceSupport(devices[0], support, d)) << errors(d);
    std::unique_ptr<Device> device = Device::create(devices[0], support, d);
    ASSERT_NE(device, nullptr) << errors(d);
    EXPECT_TRUE(instance->messages().messages().empty());

    // A zero-sized buffer is invalid usage (VUID-VkBufferCreateInfo-size-00912).
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = 0;
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkResult r = vkCreateBuffer(device->handle(), &info, nullptr, &buffer);
    if (r == VK_SUCCESS && buffer != VK_NULL_HANDLE) {
        vkDestroyBuffer(device->handle(), buffer, nullptr);
    }
    const std::vector<std::string>& messages = instance->messages().messages();
    ASSERT_FALSE(messages.empty());
    EXPECT_NE(messages[0].find("VUID-VkBufferCreateInfo-size-00912"), std::string::npos)
        << messages[0];
    EXPECT_EQ(messages[0].rfind("error [validation]", 0), 0u) << messages[0];
}

TEST(Instance, MissingValidationLayerIsAClearError) {
    // The loader looks for explicit layers only on VK_LAYER_PATH when it is set.
    test::ScopedEnv layers("VK_LAYER_PATH", "/nonexistent/spindrift_no_layers");
    std::vector<Diagnostic> d;
    EXPECT_EQ(Instance::create(true, d), nullptr);
    ASSERT_EQ(d.size(), 1u);
    std::string text = formatDiagnostic(d[0]);
    EXPECT_NE(text.find("VK_LAYER_KHRONOS_validation is not installed (Debian: apt install "
                        "vulkan-validationlayers)"),
              std::string::npos)
        << text;
    d.clear();
    EXPECT_NE(Instance::create(false, d), nullptr) << errors(d); // without validation: fine
}

} // namespace
} // namespace spindrift::vk
