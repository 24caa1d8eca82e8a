#include "vulkan/physical_device.h"

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "render/renderer.h"
#include "vulkan/scoped_env.h"

namespace spindrift::vk {
namespace {

std::vector<PhysicalDevice> fakeDevices() {
    std::vector<PhysicalDevice> devices(3);
    devices[0].index = 0;
    devices[0].name = "llvmpipe (LLVM 15.0.6, 256 bits)";
    devices[0].type = "cpu";
    devices[1].index = 1;
    devices[1].name = "Intel(R) UHD Graphics 770";
    devices[1].type = "integrated";
    devices[2].index = 2;
    devices[2].name = "NVIDIA H200";
    devices[2].type = "discrete";
    return devices;
}

TEST(DeviceSelection, DefaultPrefersDiscreteThenIntegratedThenFirst) {
    std::vector<Diagnostic> d;
    std::vector<PhysicalDevice> devices = fakeDevices();
    EXPECT_EQ(selectPhysicalDevice(devices, "", d), 2u);
    devices.pop_back();
    EXPECT_EQ(selectPhysicalDevice(devices, "", d), 1u);
    devices.pop_back();
    EXPECT_EQ(selectPhysicalDevice(devices, "", d), 0u);
    EXPECT_TRUE(d.empty());
}

TEST(DeviceSelection, NumberIsAnIndex) {
    std::vector<Diagnostic> d;
    EXPECT_EQ(selectPhysicalDevice(fakeDevices(), "1", d), 1u);
    EXPECT_TRUE(d.empty());
    EXPECT_EQ(selectPhysicalDevice(fakeDevices(), "3", d), std::nullopt);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_NE(d[0].message.find("out of range"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("2: NVIDIA H200 (discrete)"), std::string::npos) << d[0].message;
}

TEST(DeviceSelection, TextIsACaseInsensitiveNameSubstring) {
    std::vector<Diagnostic> d;
    EXPECT_EQ(selectPhysicalDevice(fakeDevices(), "h200", d), 2u);
    EXPECT_EQ(selectPhysicalDevice(fakeDevices(), "LLVMpipe", d), 0u);
    EXPECT_TRUE(d.empty());
}

TEST(DeviceSelection, UnknownNameIsAClearErrorListingTheDevices) {
    std::vector<Diagnostic> d;
    EXPECT_EQ(selectPhysicalDevice(fakeDevices(), "radeon", d), std::nullopt);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::error);
    std::string text = formatDiagnostic(d[0]);
    EXPECT_NE(text.find("no Vulkan device name contains 'radeon'"), std::string::npos) << text;
    EXPECT_NE(text.find("0: llvmpipe"), std::string::npos) << text;
}

// On the CI machines the one device is Mesa's lavapipe (llvmpipe).
TEST(ListDevices, FindsLavapipe) {
    std::vector<Diagnostic> d;
    std::vector<render::DeviceInfo> devices = render::listDevices(d);
    ASSERT_FALSE(devices.empty()) << (d.empty() ? "" : formatDiagnostic(d[0]));
    bool found = false;
    for (const render::DeviceInfo& info : devices) {
        if (info.name.find("llvmpipe") != std::string::npos) {
            found = true;
            EXPECT_EQ(info.type, "cpu");
            EXPECT_GE(info.api_version, uint32_t{VK_API_VERSION_1_3});
            EXPECT_NE(info.driver.find("llvmpipe"), std::string::npos) << info.driver;
        }
    }
    EXPECT_TRUE(found);
}

TEST(ListDevices, NoDriverIsAClearError) {
    // The loader reads these when an instance is created: no driver manifest can be loaded.
    test::ScopedEnv icd("VK_ICD_FILENAMES", "/nonexistent/spindrift_no_icd.json");
    test::ScopedEnv driver("VK_DRIVER_FILES", "/nonexistent/spindrift_no_icd.json");
    std::vector<Diagnostic> d;
    EXPECT_TRUE(render::listDevices(d).empty());
    ASSERT_FALSE(d.empty());
    std::string text = formatDiagnostic(d[0]);
    EXPECT_EQ(d[0].severity, Severity::error);
    EXPECT_NE(text.find("mesa-vulkan-drivers"), std::string::npos) << text;

    d.clear();
    render::RendererConfig config;
    config.width = config.height = 64;
    EXPECT_EQ(render::createRenderer(config, d), nullptr);
    ASSERT_FALSE(d.empty());
    EXPECT_NE(formatDiagnostic(d[0]).find("driver"), std::string::npos) << formatDiagnostic(d[0]);
}

} // namespace
} // namespace spindrift::vk
