// The scene depth buffers' sizes (src/render/scene_depth_export.h): a host frame's device buffer
// only grows, by at least half each time, and keeps what it outgrew (a world fed before may still
// step with that address); the offscreen renderer's follows the frame exactly.
#include <gtest/gtest.h>

#include "render/scene_depth_export.h"
#include "vulkan/context.h"

namespace spindrift::render {
namespace {

std::string joinedMessages(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += d.message + "\n";
    return out;
}

TEST(SceneDepthExport, AHostFramesBufferGrowsByHalvesAndKeepsWhatItOutgrew) {
    std::vector<Diagnostic> d;
    std::shared_ptr<vk::Context> context = vk::createContext("", true, d);
    ASSERT_NE(context, nullptr) << joinedMessages(d);
    FrameTargets targets;
    SceneDepthBuffers buffers;
    auto fit = [&](uint32_t width, uint32_t height) {
        targets.width = width;
        targets.height = height;
        EXPECT_TRUE(
            prepareSceneDepth(*context->device, targets, false, SceneDepthGrowth::keep, buffers, d))
            << joinedMessages(d);
    };
    fit(100, 100);
    EXPECT_EQ(buffers.device_bytes, 40000u);
    const VkDeviceAddress first = buffers.device.address;
    // Smaller, then the same size: the same buffer, at the same address.
    fit(50, 80);
    EXPECT_EQ(buffers.device.address, first);
    EXPECT_EQ(buffers.width, 50u);
    fit(100, 100);
    EXPECT_EQ(buffers.device.address, first);
    EXPECT_TRUE(buffers.outgrown.empty());
    // One pixel more: half as large again, the old one kept.
    fit(101, 100);
    EXPECT_EQ(buffers.device_bytes, 60000u);
    EXPECT_EQ(buffers.outgrown.size(), 1u);
    EXPECT_EQ(buffers.outgrown[0].address, first);
    // Much larger: exactly what it needs.
    fit(400, 300);
    EXPECT_EQ(buffers.device_bytes, 480000u);
    EXPECT_EQ(buffers.outgrown.size(), 2u);
    EXPECT_FALSE(buffers.host);
    // A window dragged wider a pixel at a time: few buffers, bounded bytes in all.
    for (uint32_t w = 401; w <= 1600; ++w) fit(w, 300);
    VkDeviceSize all = buffers.device_bytes;
    for (const vk::Buffer& b : buffers.outgrown) all += b.size;
    EXPECT_LE(buffers.outgrown.size(), 7u);
    EXPECT_LE(all, VkDeviceSize{4} * 1600 * 300 * sizeof(float));
    EXPECT_TRUE(context->instance->messages().messages().empty());
}

TEST(SceneDepthExport, TheOffscreenBuffersFollowTheFrameExactly) {
    std::vector<Diagnostic> d;
    std::shared_ptr<vk::Context> context = vk::createContext("", true, d);
    ASSERT_NE(context, nullptr) << joinedMessages(d);
    FrameTargets targets;
    targets.width = 64;
    targets.height = 32;
    SceneDepthBuffers buffers;
    ASSERT_TRUE(
        prepareSceneDepth(*context->device, targets, true, SceneDepthGrowth::exact, buffers, d));
    EXPECT_EQ(buffers.device_bytes, 64u * 32 * 4);
    EXPECT_TRUE(buffers.host);
    targets.width = 32;
    ASSERT_TRUE(
        prepareSceneDepth(*context->device, targets, true, SceneDepthGrowth::exact, buffers, d));
    EXPECT_EQ(buffers.device_bytes, 32u * 32 * 4);
    EXPECT_TRUE(buffers.outgrown.empty());
}

} // namespace
} // namespace spindrift::render
