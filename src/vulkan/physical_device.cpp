#include "vulkan/physical_device.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "vulkan/vk_error.h"

namespace spindrift::vk {

namespace {

std::string typeName(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "cpu";
    default:
        return "other";
    }
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string deviceList(const std::vector<PhysicalDevice>& devices) {
    std::string list;
    for (const PhysicalDevice& d : devices) {
        if (!list.empty()) list += ", ";
        list += std::to_string(d.index) + ": " + d.name + " (" + d.type + ")";
    }
    return list.empty() ? "none" : list;
}

std::string versionText(uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) +
           "." + std::to_string(VK_API_VERSION_PATCH(v));
}

} // namespace

bool isCpuDevice(VkPhysicalDevice device) {
    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(device, &properties);
    return properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

PhysicalDevice describePhysicalDevice(VkPhysicalDevice handle, uint32_t index) {
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    // Driver properties are core in 1.2; an older device leaves them zeroed.
    VkPhysicalDeviceProperties basic{};
    vkGetPhysicalDeviceProperties(handle, &basic);
    if (basic.apiVersion >= VK_API_VERSION_1_2) properties.pNext = &driver;
    vkGetPhysicalDeviceProperties2(handle, &properties);

    PhysicalDevice d;
    d.handle = handle;
    d.index = index;
    d.name = properties.properties.deviceName;
    d.type = typeName(properties.properties.deviceType);
    d.api_version = properties.properties.apiVersion;
    if (driver.driverName[0] != '\0') {
        d.driver = driver.driverName;
        if (driver.driverInfo[0] != '\0') d.driver += std::string(" (") + driver.driverInfo + ")";
    }
    return d;
}

std::vector<PhysicalDevice> enumeratePhysicalDevices(VkInstance instance,
                                                     std::vector<Diagnostic>& diagnostics) {
    uint32_t count = 0;
    if (!check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices",
               diagnostics)) {
        return {};
    }
    std::vector<VkPhysicalDevice> handles(count);
    VkResult r = vkEnumeratePhysicalDevices(instance, &count, handles.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        check(r, "vkEnumeratePhysicalDevices", diagnostics);
        return {};
    }
    handles.resize(count);
    if (handles.empty()) {
        diagnostics.push_back(vulkanSetupError(
            "vkEnumeratePhysicalDevices",
            "no Vulkan device found; install a driver, e.g. Mesa's lavapipe CPU driver (Debian: "
            "apt install mesa-vulkan-drivers)"));
        return {};
    }

    std::vector<PhysicalDevice> devices;
    for (uint32_t i = 0; i < handles.size(); ++i) {
        devices.push_back(describePhysicalDevice(handles[i], i));
    }
    return devices;
}

std::optional<size_t> selectPhysicalDevice(const std::vector<PhysicalDevice>& devices,
                                           const std::string& request,
                                           std::vector<Diagnostic>& diagnostics) {
    if (devices.empty()) {
        diagnostics.push_back(vulkanSetupError("device", "no Vulkan device to choose from"));
        return std::nullopt;
    }
    if (request.empty()) {
        for (const char* preferred : {"discrete", "integrated"}) {
            for (size_t i = 0; i < devices.size(); ++i) {
                if (devices[i].type == preferred) return i;
            }
        }
        return 0;
    }

    bool all_digits = std::all_of(request.begin(), request.end(),
                                  [](unsigned char c) { return std::isdigit(c) != 0; });
    if (all_digits) {
        size_t index = 0;
        auto [end, error] = std::from_chars(request.data(), request.data() + request.size(), index);
        if (error == std::errc() && end == request.data() + request.size() &&
            index < devices.size()) {
            return index;
        }
        diagnostics.push_back(
            vulkanSetupError("device", "device index " + request +
                                           " is out of range; devices: " + deviceList(devices)));
        return std::nullopt;
    }

    std::string wanted = lower(request);
    for (size_t i = 0; i < devices.size(); ++i) {
        if (lower(devices[i].name).find(wanted) != std::string::npos) return i;
    }
    diagnostics.push_back(vulkanSetupError("device", "no Vulkan device name contains '" + request +
                                                         "'; devices: " + deviceList(devices)));
    return std::nullopt;
}

bool checkDeviceSupport(const PhysicalDevice& device, DeviceSupport& support,
                        std::vector<Diagnostic>& diagnostics) {
    std::string where = "device '" + device.name + "'";
    if (device.api_version < VK_API_VERSION_1_3) {
        diagnostics.push_back(vulkanSetupError(
            where, "supports Vulkan " + versionText(device.api_version) +
                       "; the renderer needs Vulkan 1.3 (dynamic rendering, synchronization2)"));
        return false;
    }

    VkPhysicalDeviceVulkan13Features features13{};
    features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    VkPhysicalDeviceVulkan12Features features12{};
    features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    features12.pNext = &features13;
    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features.pNext = &features12;
    vkGetPhysicalDeviceFeatures2(device.handle, &features);

    std::string missing;
    auto require = [&](VkBool32 present, const char* name) {
        if (present == VK_TRUE) return;
        if (!missing.empty()) missing += ", ";
        missing += name;
    };
    require(features13.dynamicRendering, "dynamicRendering (Vulkan 1.3)");
    require(features13.synchronization2, "synchronization2 (Vulkan 1.3)");
    require(features12.bufferDeviceAddress, "bufferDeviceAddress (Vulkan 1.2)");
    if (!missing.empty()) {
        diagnostics.push_back(
            vulkanSetupError(where, "lacks features the renderer needs: " + missing));
        return false;
    }

    uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device.handle, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(device.handle, &family_count, families.data());
    for (uint32_t i = 0; i < family_count; ++i) {
        if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0 && families[i].queueCount > 0) {
            VkPhysicalDeviceProperties properties{};
            vkGetPhysicalDeviceProperties(device.handle, &properties);
            support.queue_family = i;
            support.timestamps =
                families[i].timestampValidBits > 0 && properties.limits.timestampPeriod > 0;
            support.timestamp_period_ns = properties.limits.timestampPeriod;
            return true;
        }
    }
    diagnostics.push_back(vulkanSetupError(where, "has no graphics queue"));
    return false;
}

} // namespace spindrift::vk
