// Spindrift drawing into a host's Vulkan frame (include/spindrift/vulkan_renderer.h), on lavapipe
// with the validation layer (synchronization validation too) and a messenger of the host's own:
// every test fails on any message. The host (test_host.h) owns its instance, device, images and
// command buffer; Spindrift records into them and the host submits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "hostvk/test_host.h"
#include "image/png_io.h"
#include "render/draw_list_batches.h"
#include "render/readback.h"
#include "render/renderer.h"
#include "spindrift/runtime.h"
#include "spindrift/vulkan_renderer.h"
#include "support/scratch_dir.h"

namespace spindrift {
namespace {

constexpr uint32_t kWidth = 96;
constexpr uint32_t kHeight = 64;
// The offscreen frame's default background (render::FrameView), linear.
constexpr float kClear[4] = {0.02f, 0.02f, 0.03f, 1.0f};
constexpr int kFrames = 24;

std::string campfire() {
    return std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/campfire.json";
}

DrawView view(bool order_independent = false, float eye_x = 0.0f) {
    DrawView v;
    v.order_independent = order_independent;
    v.eye = {eye_x, 1.0f, 3.5f};
    v.forward = {0.0f, -0.1f, -1.0f};
    v.fov_y_deg = 45;
    v.viewport_width = kWidth;
    v.viewport_height = kHeight;
    v.aspect = static_cast<float>(kWidth) / kHeight;
    return v;
}

// The offscreen renderer's view of the same camera (as the host frame derives it).
render::FrameView offscreenView(const DrawView& v) {
    render::FrameView f;
    f.camera.eye = {v.eye.x, v.eye.y, v.eye.z};
    f.camera.target = {v.eye.x + v.forward.x, v.eye.y + v.forward.y, v.eye.z + v.forward.z};
    f.camera.up = {v.up.x, v.up.y, v.up.z};
    f.fov_deg = v.fov_y_deg;
    f.near_m = v.near_m;
    f.far_m = v.far_m;
    f.background = {kClear[0], kClear[1], kClear[2]};
    f.ground.enabled = false;
    f.transparency = v.order_independent ? Transparency::weighted_oit : Transparency::sorted;
    return f;
}

// The offscreen renderer's textures of the library's effects.
class OffscreenAssets final : public render::DrawAssets {
public:
    OffscreenAssets(render::Renderer& renderer, const EffectLibrary& library, EffectId effect) {
        EffectInfo info;
        if (!library.info(effect, info)) return;
        std::vector<Diagnostic> diagnostics;
        for (const std::string& path : info.textures) {
            Image image;
            textures_.push_back(!path.empty() && readPng(path, image, diagnostics)
                                    ? render::addTexture(renderer, image, path, diagnostics)
                                    : render::kNoTexture);
        }
    }
    render::TextureHandle texture(EffectId, uint32_t emitter) const override {
        return emitter < textures_.size() ? textures_[emitter] : render::kNoTexture;
    }
    render::MeshHandle mesh(EffectId, uint32_t) const override { return render::kNoMesh; }

private:
    std::vector<render::TextureHandle> textures_;
};

std::string joined(const std::vector<Diagnostic>& diagnostics) {
    std::string s;
    for (const Diagnostic& d : diagnostics) s += d.message + "\n";
    return s;
}

class HostFrameTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string why;
        host = test::TestHost::create(why);
        if (!host) GTEST_SKIP() << "no Vulkan host: " << why;
    }
    void TearDown() override {
        if (host) {
            for (const std::string& m : host->messages()) ADD_FAILURE() << "validation: " << m;
        }
    }

    std::unique_ptr<VulkanRenderer> makeRenderer(VkFormat color, VkFormat depth,
                                                 uint32_t frames_in_flight = 2) {
        VulkanRendererConfig config;
        config.device = host->device();
        config.color_format = color;
        config.depth_format = depth;
        config.frames_in_flight = frames_in_flight;
        std::vector<Diagnostic> diagnostics;
        auto r = VulkanRenderer::create(config, diagnostics);
        EXPECT_TRUE(r) << joined(diagnostics);
        return r;
    }

    // Draws the list over the host's scene (wall_depth < 1: a wall over the left half) and reads
    // the colour back as 8-bit sRGB (RGBA16F converted as the offscreen readback does).
    // `adjust` changes the frame before it is recorded.
    Image drawHostFrame(VulkanRenderer& r, const DrawList& list, const EffectLibrary& library,
                        VkFormat color, float wall_depth, VulkanFrameResult& result,
                        bool order_independent = false, float eye_x = 0.0f,
                        const std::function<void(VulkanFrame&)>& adjust = {}) {
        VulkanFrame frame = beginFrame(wall_depth);
        frame.view = view(order_independent, eye_x);
        frame.shadows = frame_shadows;
        if (adjust) adjust(frame);
        std::vector<Diagnostic> diagnostics;
        EXPECT_TRUE(r.record(frame, list, library, result, diagnostics)) << joined(diagnostics);
        EXPECT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
        return readImage(color, 0);
    }

    // What host frame `frame` read back, as 8-bit sRGB.
    Image readImage(VkFormat color, uint32_t frame) const {
        Image out;
        if (color == VK_FORMAT_R16G16B16A16_SFLOAT) {
            const auto* half = reinterpret_cast<const uint16_t*>(host->pixels(frame));
            render::convertHalfRgbaToSrgb8(std::span(half, size_t{kWidth} * kHeight * 4), kWidth,
                                           kHeight, out);
        } else {
            out.width = kWidth;
            out.height = kHeight;
            out.rgba8.assign(host->pixels(frame),
                             host->pixels(frame) + size_t{kWidth} * kHeight * 4);
            for (size_t i = 3; i < out.rgba8.size(); i += 4) out.rgba8[i] = 255;
        }
        return out;
    }

    // A frame over the host's scene (TestHost::beginScene: wall_depth, frame slot `frame`) with
    // its images and the default view.
    VulkanFrame beginFrame(float wall_depth, uint32_t frame = 0) const {
        VulkanFrame f;
        f.command_buffer = host->beginScene(kClear, wall_depth, frame);
        f.extent = host->extent();
        f.color = host->color();
        f.depth = host->depth();
        f.view = view();
        return f;
    }

    std::unique_ptr<test::TestHost> host;
    ShadowDesc frame_shadows{false}; // drawHostFrame's
};

// Sun shadows at a resolution lavapipe draws quickly.
ShadowDesc smallShadows() {
    ShadowDesc shadows;
    shadows.resolution = 256;
    shadows.opacity_resolution = 128;
    return shadows;
}

// A world of campfires on the CPU backend, run kFrames frames.
struct CpuScene {
    EffectLibrary library;
    std::unique_ptr<World> world;
    EffectId effect;
    DrawList list;

    // tint multiplies every particle's colour (InstanceDesc::tint).
    explicit CpuScene(bool order_independent = false, Color tint = {},
                      const std::string& path = campfire()) {
        effect = library.add(path);
        world = std::make_unique<World>(library);
        InstanceDesc desc;
        desc.effect = effect;
        desc.tint = tint;
        InstanceHandle h;
        EXPECT_EQ(world->create(desc, h), RuntimeError::none);
        for (int i = 0; i < kFrames; ++i) world->update(1.0 / 60.0);
        EXPECT_EQ(world->drawList(view(order_independent), list), RuntimeError::none);
    }
};

// What else offscreenImage draws: motion vectors (with motion_desc, into motion) and shadows.
struct OffscreenExtras {
    const render::MotionVectorsDesc* motion_desc = nullptr;
    render::MotionImage* motion = nullptr;
    ShadowDesc shadows{false};
    bool half_resolution = false;
};

// The offscreen renderer's image of the same list (its own device, validation on).
Image offscreenImage(const CpuScene& scene, bool order_independent = false,
                     const OffscreenExtras& extras = {}) {
    render::RendererConfig config;
    config.width = kWidth;
    config.height = kHeight;
    config.validation = true;
    std::vector<Diagnostic> diagnostics;
    render::RendererPtr renderer = render::createRenderer(config, diagnostics);
    EXPECT_TRUE(renderer) << joined(diagnostics);
    if (!renderer) return {};
    OffscreenAssets assets(*renderer, scene.library, scene.effect);
    std::vector<render::DrawBatch> batches;
    render::appendDrawListBatches(scene.list, assets, batches);
    Image out;
    render::FrameStats stats;
    render::FrameView frame_view = offscreenView(view(order_independent));
    if (extras.motion_desc != nullptr) frame_view.motion = *extras.motion_desc;
    frame_view.shadows = extras.shadows;
    if (extras.half_resolution) frame_view.particle_resolution = ParticleResolution::half;
    EXPECT_TRUE(
        render::renderFrame(*renderer, frame_view, batches, out, extras.motion, stats, diagnostics))
        << joined(diagnostics);
    EXPECT_EQ(stats.oit_records > 0, order_independent);
    for (const std::string& m : render::validationMessages(*renderer)) {
        ADD_FAILURE() << "offscreen validation: " << m;
    }
    return out;
}

// The depth-buffer value (Spindrift's projection, as the host's own draw would write it) of the
// point `distance_m` along the view's forward direction from its eye.
float depthAlongView(const DrawView& v, float distance_m) {
    float clip_from_world[16];
    vulkanClipFromWorld(v, kWidth, kHeight, clip_from_world);
    const float length = std::sqrt(v.forward.x * v.forward.x + v.forward.y * v.forward.y +
                                   v.forward.z * v.forward.z);
    const float k = distance_m / length;
    const float p[4] = {v.eye.x + v.forward.x * k, v.eye.y + v.forward.y * k,
                        v.eye.z + v.forward.z * k, 1.0f};
    float clip[4] = {0, 0, 0, 0};
    for (int row = 0; row < 4; ++row) {
        for (int c = 0; c < 4; ++c) clip[row] += clip_from_world[c * 4 + row] * p[c];
    }
    return clip[2] / clip[3];
}

// Pixels of the image that differ from the background.
size_t particlePixels(const Image& image, uint32_t x0, uint32_t x1) {
    const uint8_t* bg = &image.rgba8[0];
    size_t n = 0;
    for (uint32_t y = 0; y < image.height; ++y) {
        for (uint32_t x = x0; x < x1; ++x) {
            const uint8_t* p = &image.rgba8[(size_t{y} * image.width + x) * 4];
            n += std::memcmp(p, bg, 3) != 0 ? 1 : 0;
        }
    }
    return n;
}

TEST_F(HostFrameTest, Rgba16fFrameIsByteIdenticalToTheOffscreenRenderer) {
    CpuScene scene;
    ASSERT_GT(scene.list.batches().size(), 0u);
    const Image reference = offscreenImage(scene);
    ASSERT_GT(particlePixels(reference, 0, kWidth), 100u) << "the campfire must be in view";

    ASSERT_TRUE(
        host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    VulkanFrameResult result;
    // Twice: the second frame waits for the first's signal and reuses its buffers.
    for (int i = 0; i < 2; ++i) {
        const Image image = drawHostFrame(*renderer, scene.list, scene.library,
                                          VK_FORMAT_R16G16B16A16_SFLOAT, 1.0f, result);
        EXPECT_EQ(result.signal_value, static_cast<uint64_t>(i + 1));
        EXPECT_EQ(result.batches, scene.list.batches().size());
        EXPECT_GT(result.host_particles, 0u);
        ASSERT_EQ(image.rgba8.size(), reference.rgba8.size());
        EXPECT_TRUE(image.rgba8 == reference.rgba8) << "frame " << i;
    }
}

// Weighted-blended OIT (DrawView::order_independent): the accumulation tests the host's depth and
// the composite blends over the host's colour, the same bytes as offscreen.
TEST_F(HostFrameTest, WeightedOitFrameIsByteIdenticalToTheOffscreenRenderer) {
    CpuScene scene(true);
    const Image reference = offscreenImage(scene, true);
    ASSERT_TRUE(
        host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    VulkanFrameResult result;
    const Image image = drawHostFrame(*renderer, scene.list, scene.library,
                                      VK_FORMAT_R16G16B16A16_SFLOAT, 1.0f, result, true);
    ASSERT_EQ(image.rgba8.size(), reference.rgba8.size());
    EXPECT_TRUE(image.rgba8 == reference.rgba8);
    EXPECT_GT(particlePixels(image, 0, kWidth), 100u);
}

// An 8-bit sRGB target blends in 8 bits per channel (each blend's result is rounded to 8 bits
// before the next reads it) where the offscreen frame blends in half floats and rounds once:
// every channel within 6 steps of 8-bit sRGB of the offscreen image and the mean difference under
// 0.2 steps, only where particles overlap. Measured on lavapipe: worst 5, mean 0.145 with the
// five-emitter campfire, whose large additive glows (firelight, halo) overlap the flames and smoke
// in many layers (the three-emitter campfire gave worst 3, mean 0.012). The campfire is tinted to
// a fifth so its HDR flames (up to 5) stay within [0, 1]: an 8-bit target clips them before the
// smoke blends over them, a difference of an LDR target, not of rounding.
TEST_F(HostFrameTest, Srgb8FrameMatchesTheOffscreenRendererWithinBlendRounding) {
    CpuScene scene(false, Color{0.2f, 0.2f, 0.2f, 1});
    const Image reference = offscreenImage(scene);
    ASSERT_TRUE(host->makeImages(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    VulkanFrameResult result;
    const Image image =
        drawHostFrame(*renderer, scene.list, scene.library, VK_FORMAT_R8G8B8A8_SRGB, 1.0f, result);
    ASSERT_EQ(image.rgba8.size(), reference.rgba8.size());
    int worst = 0;
    double total = 0;
    for (size_t i = 0; i < image.rgba8.size(); ++i) {
        const int d = std::abs(int(image.rgba8[i]) - int(reference.rgba8[i]));
        worst = std::max(worst, d);
        total += d;
    }
    const double mean = total / static_cast<double>(image.rgba8.size());
    EXPECT_LE(worst, 6) << "mean " << mean;
    EXPECT_LE(mean, 0.2) << "worst " << worst;
    EXPECT_GT(particlePixels(image, 0, kWidth), 100u);
}

TEST_F(HostFrameTest, HostDepthHidesParticlesBehindIt) {
    CpuScene scene;
    ASSERT_TRUE(
        host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    VulkanFrameResult result;
    const Image open = drawHostFrame(*renderer, scene.list, scene.library,
                                     VK_FORMAT_R16G16B16A16_SFLOAT, 1.0f, result);
    // A wall 1 m in front of the eye (the fire is ~3.5 m away), its depth from Spindrift's
    // projection as the host's own draw would write it.
    const float wall_depth = depthAlongView(view(), 1.0f);
    ASSERT_GT(wall_depth, 0.0f);
    ASSERT_LT(wall_depth, 1.0f);
    const Image walled = drawHostFrame(*renderer, scene.list, scene.library,
                                       VK_FORMAT_R16G16B16A16_SFLOAT, wall_depth, result);

    ASSERT_GT(particlePixels(open, 0, kWidth / 2), 20u) << "the fire must reach the left half";
    EXPECT_EQ(particlePixels(walled, 0, kWidth / 2), 0u) << "the wall hides the left half";
    for (uint32_t y = 0; y < kHeight; ++y) {
        for (uint32_t x = kWidth / 2; x < kWidth; ++x) {
            const size_t i = (size_t{y} * kWidth + x) * 4;
            ASSERT_EQ(std::memcmp(&open.rgba8[i], &walled.rgba8[i], 4), 0)
                << "right half changed at " << x << ", " << y;
        }
    }
}

// A world using the host renderer runs its GPU instances on the host's device and queue: their
// particles are drawn from device memory, nothing read back.
TEST_F(HostFrameTest, GpuInstanceRunsOnTheHostDevice) {
    ASSERT_TRUE(host->makeImages(VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_D16_UNORM, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_D16_UNORM);
    ASSERT_TRUE(renderer);
    EffectLibrary library;
    const EffectId effect = library.add(campfire());
    WorldConfig config;
    config.backend = SimulationBackend::gpu;
    World world(library, config);
    renderer->useFor(world);
    InstanceDesc desc;
    desc.effect = effect;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    InstanceInfo info;
    ASSERT_EQ(world.info(h, info), RuntimeError::none);
    EXPECT_EQ(info.backend, SimulationBackend::gpu);
    DrawList list;
    VulkanFrameResult result;
    Image image;
    for (int i = 0; i < kFrames; ++i) {
        world.update(1.0 / 60.0);
        ASSERT_EQ(world.drawList(view(), list), RuntimeError::none);
        EXPECT_TRUE(list.diagnostics().empty()) << joined(list.diagnostics());
        image = drawHostFrame(*renderer, list, library, VK_FORMAT_B8G8R8A8_UNORM, 1.0f, result);
    }
    EXPECT_GT(result.device_batches, 0u);
    EXPECT_EQ(result.host_particles, 0u);
    EXPECT_GT(particlePixels(image, 0, kWidth), 100u) << "the GPU campfire must be drawn";
    // The world (its GPU instances) goes before the renderer and the host's device.
}

// Distortion billboards read a copy of the frame's colour: drawn when the host's colour image is
// a transfer source (VulkanImage::usage says so), byte for byte as the offscreen frame draws them
// (the golden heat haze: flames bent by the haze in front of them); left out and counted when
// the usage is not stated.
TEST_F(HostFrameTest, DistortionIsTheOffscreenFramesWhenTheColourCanBeCopied) {
    constexpr VkFormat kColor = VK_FORMAT_R16G16B16A16_SFLOAT;
    const CpuScene scene(
        false, {}, std::string(SPINDRIFT_SOURCE_DIR) + "/tests/golden/effects/heat_haze.json");
    const Image offscreen = offscreenImage(scene);
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    auto draw = [&](VkImageUsageFlags usage, VulkanFrameResult& result) {
        return drawHostFrame(*renderer, scene.list, scene.library, kColor, 1.0f, result, false,
                             0.0f, [&](VulkanFrame& frame) { frame.color.usage = usage; });
    };
    VulkanFrameResult plain;
    const Image undistorted = draw(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, plain);
    EXPECT_EQ(plain.distortion_batches, 0u);
    EXPECT_GT(plain.distortion_not_drawn, 0u);
    VulkanFrameResult copied;
    const Image distorted =
        draw(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, copied);
    EXPECT_GT(copied.distortion_batches, 0u);
    EXPECT_EQ(copied.distortion_not_drawn, 0u);
    ASSERT_EQ(distorted.rgba8.size(), offscreen.rgba8.size());
    EXPECT_EQ(distorted.rgba8, offscreen.rgba8) << "the offscreen frame's distortion";
    size_t bent = 0;
    for (size_t i = 0; i < distorted.rgba8.size(); i += 4) {
        bent += std::memcmp(&distorted.rgba8[i], &undistorted.rgba8[i], 3) != 0 ? 1 : 0;
    }
    EXPECT_GT(bent, 20u) << "the haze bends the flames behind it"; // 42 of 6144 measured
    // A new size makes the copy image again (validation watches the rebinding).
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth * 2, kHeight));
    VulkanFrameResult wider;
    draw(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, wider);
    EXPECT_EQ(wider.distortion_batches, copied.distortion_batches);
}

// Half-resolution particles in a host frame: the offscreen frame's layer and upsample, byte for
// byte, over a wall in the host's depth (the upsample's depth-aware edge); again after a change of
// size (the layer made again).
TEST_F(HostFrameTest, HalfResolutionIsTheOffscreenFramesByteForByte) {
    constexpr VkFormat kColor = VK_FORMAT_R16G16B16A16_SFLOAT;
    const CpuScene scene;
    OffscreenExtras extras;
    extras.half_resolution = true;
    const Image offscreen = offscreenImage(scene, false, extras);
    const Image full = offscreenImage(scene);
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    auto draw = [&](VulkanFrameResult& result) {
        return drawHostFrame(*renderer, scene.list, scene.library, kColor, 1.0f, result, false,
                             0.0f, [](VulkanFrame& frame) { frame.half_resolution = true; });
    };
    VulkanFrameResult result;
    const Image half = draw(result);
    EXPECT_GT(result.half_res_batches, 0u);
    ASSERT_EQ(half.rgba8.size(), offscreen.rgba8.size());
    EXPECT_EQ(half.rgba8, offscreen.rgba8);
    EXPECT_NE(half.rgba8, full.rgba8) << "half resolution changes the image";
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth * 2, kHeight * 2));
    VulkanFrameResult larger;
    draw(larger);
    EXPECT_EQ(larger.half_res_batches, result.half_res_batches);
}

// Rain that sticks where it meets the scene depth (depth_buffer collision), on the GPU backend,
// born over x, z in [-2, 2] at y = 3.
std::string depthRain(const std::filesystem::path& dir) {
    const std::filesystem::path path = dir / "rain.json";
    std::ofstream(path) << R"({"version": 1, "name": "rain", "seed": 11, "emitters": [
        {"name": "drops", "capacity": 2048, "transform": {"position": [0, 3, 0]},
         "spawn": {"rate_per_s": 400}, "shape": {"type": "box", "size": [4, 0, 4]},
         "init": {"lifetime_s": [3, 3], "speed": 0, "size": [0.1, 0.1]},
         "update": [{"type": "gravity"},
                    {"type": "collision", "response": "stick", "radius_scale": 0,
                     "depth_buffer": true}]}]})";
    return path.string();
}

// The host's depth reaches the world's GPU instances (VulkanFrame::collision_world): a camera at
// (0, 8, 8) looking at the origin, the host's wall over the left half of its depth at a view
// depth of 15 / sqrt(2) m (the plane y + z = 1). Rain on the left half sticks on it; on the
// right half, where the host's depth is empty, it falls through; without the frame's depth the
// world counts the unfed collisions and the rain falls through everywhere.
TEST_F(HostFrameTest, TheHostsDepthStopsGpuRainOneFrameLate) {
    constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    DrawView camera;
    camera.eye = {0, 8, 8};
    camera.forward = {0, -1, -1};
    camera.fov_y_deg = 60;
    camera.viewport_width = kWidth;
    camera.viewport_height = kHeight;
    camera.aspect = static_cast<float>(kWidth) / kHeight;
    const float wall_depth = depthAlongView(camera, 15.0f / std::sqrt(2.0f));
    ASSERT_GT(wall_depth, 0.0f);
    ASSERT_LT(wall_depth, 1.0f);

    EffectLibrary library;
    const EffectId rain = library.add(depthRain(test::scratchDir("host_frame", "depth_rain")));
    auto run = [&](bool feed, std::vector<Particle>& particles, WorldUpdateReceipt& last) {
        WorldConfig config;
        config.backend = SimulationBackend::gpu;
        World world(library, config);
        renderer->useFor(world);
        InstanceDesc desc;
        desc.effect = rain;
        InstanceHandle h;
        ASSERT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
        DrawList list;
        for (int i = 0; i < 90; ++i) {
            last = world.update(1.0 / 60.0);
            ASSERT_EQ(world.drawList(camera, list), RuntimeError::none);
            VulkanFrame frame = beginFrame(wall_depth);
            frame.view = camera;
            frame.collision_world = feed ? &world : nullptr;
            VulkanFrameResult result;
            std::vector<Diagnostic> diagnostics;
            ASSERT_TRUE(renderer->record(frame, list, library, result, diagnostics))
                << joined(diagnostics);
            EXPECT_EQ(result.collision_depth, feed);
            ASSERT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
        }
        ASSERT_TRUE(world.waitForGpu());
        ASSERT_EQ(world.readParticles(h, particles), RuntimeError::none);
    };
    std::vector<Particle> fed;
    WorldUpdateReceipt fed_receipt;
    run(true, fed, fed_receipt);
    EXPECT_EQ(fed_receipt.depth_collisions_unfed, 0u);
    size_t left_stuck = 0;
    size_t right_fallen = 0;
    float left_lowest = 100;
    for (const Particle& p : fed) {
        if (p.position.x < -0.5f) {
            left_lowest = std::min(left_lowest, p.position.y);
            left_stuck += std::fabs(p.position.y + p.position.z - 1.0f) < 0.05f ? 1 : 0;
        }
        if (p.position.x > 0.5f) right_fallen += p.position.y < -2.0f ? 1 : 0;
    }
    EXPECT_GT(left_stuck, 100u) << "drops on the wall's side stick on its plane y + z = 1";
    EXPECT_GT(left_lowest, -1.5f) << "none falls through the wall";
    EXPECT_GT(right_fallen, 50u) << "the right half of the host's depth is empty";
    std::vector<Particle> unfed;
    WorldUpdateReceipt unfed_receipt;
    run(false, unfed, unfed_receipt);
    EXPECT_EQ(unfed_receipt.depth_collisions_unfed, 1u);
    float lowest = 100;
    for (const Particle& p : unfed) lowest = std::min(lowest, p.position.y);
    EXPECT_LT(lowest, -3.0f);
}

// A world that does not run on the renderer's device cannot take its depth.
TEST_F(HostFrameTest, ACollisionWorldOnAnotherDeviceIsRefused) {
    constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_UNORM;
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    EffectLibrary library;
    World world(library); // never given this renderer (useFor)
    DrawList list;
    ASSERT_EQ(world.drawList(view(), list), RuntimeError::none);
    VulkanFrame frame = beginFrame(1.0f);
    frame.collision_world = &world;
    VulkanFrameResult result;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(renderer->record(frame, list, library, result, diagnostics));
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_NE(diagnostics.back().message.find("does not run on this renderer's device"),
              std::string::npos)
        << diagnostics.back().message;
    // Nothing was recorded: the host finishes its frame without the world.
    frame.collision_world = nullptr;
    EXPECT_TRUE(renderer->record(frame, list, library, result, diagnostics)) << joined(diagnostics);
    EXPECT_FALSE(result.collision_depth);
    EXPECT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
}

// A host depth with stencil (D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT, whichever the device can
// both attach and sample): particles are tested against its depth exactly as against D32_SFLOAT
// (the same image, a wall over the left half included), and the host's stencil is left as it was.
TEST_F(HostFrameTest, DepthWithStencilTestsLikeD32AndKeepsTheStencil) {
    constexpr VkFormat kColor = VK_FORMAT_R16G16B16A16_SFLOAT;
    CpuScene scene;
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    VulkanFrameResult result;
    const float wall_depth = 0.5f; // in front of the fire: hides the left half
    Image reference;
    {
        auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT);
        ASSERT_TRUE(renderer);
        reference = drawHostFrame(*renderer, scene.list, scene.library, kColor, wall_depth, result);
    }
    ASSERT_GT(particlePixels(reference, kWidth / 2, kWidth), 20u);
    int tested = 0;
    for (VkFormat depth : {VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
        VkFormatProperties properties{};
        vkGetPhysicalDeviceFormatProperties(host->device().physical_device, depth, &properties);
        const VkFormatFeatureFlags needed =
            VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
        if ((properties.optimalTilingFeatures & needed) != needed) continue;
        ++tested;
        ASSERT_TRUE(host->makeImages(kColor, depth, kWidth, kHeight));
        auto renderer = makeRenderer(kColor, depth);
        ASSERT_TRUE(renderer);
        const Image image =
            drawHostFrame(*renderer, scene.list, scene.library, kColor, wall_depth, result);
        EXPECT_TRUE(image.rgba8 == reference.rgba8) << "depth format " << depth;
        std::vector<uint8_t> stencil;
        ASSERT_TRUE(host->readStencil(stencil));
        ASSERT_EQ(stencil.size(), size_t{kWidth} * kHeight);
        size_t changed = 0;
        for (uint8_t s : stencil) changed += s != test::TestHost::kStencil ? 1 : 0;
        EXPECT_EQ(changed, 0u) << "depth format " << depth;
    }
    EXPECT_GT(tested, 0) << "the device samples neither depth format with stencil";
}

// Three frames recorded before the GPU may start any of them: each submission waits for a gate
// the test opens only after the third record. Each frame has its own camera and its own particles
// (the world moves on and the one draw list is refilled between records, as a game does), so a
// frame drawn with another frame's globals or records shows. Each must equal the same frame drawn
// alone (one frame in flight, submitted and waited for).
TEST_F(HostFrameTest, FramesInFlightEachDrawTheirOwnCameraAndParticles) {
    constexpr uint32_t kInFlight = 3;
    constexpr VkFormat kColor = VK_FORMAT_R16G16B16A16_SFLOAT;
    // With sun shadows: each camera fits its own light views (per frame slot).
    frame_shadows = smallShadows();
    ASSERT_TRUE(host->makeImages(kColor, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto eye_x = [](uint32_t i) { return -0.4f + 0.4f * static_cast<float>(i); };
    // Frame i: the world after kFrames + 10 i updates, seen from eye_x(i).
    auto advance = [](World& world, uint32_t i) {
        for (int k = 0; k < (i == 0 ? kFrames : 10); ++k) world.update(1.0 / 60.0);
    };

    std::vector<Image> alone;
    {
        CpuScene scene;
        auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT, 1);
        ASSERT_TRUE(renderer);
        VulkanFrameResult result;
        for (uint32_t i = 0; i < kInFlight; ++i) {
            if (i > 0) advance(*scene.world, i);
            ASSERT_EQ(scene.world->drawList(view(false, eye_x(i)), scene.list), RuntimeError::none);
            alone.push_back(drawHostFrame(*renderer, scene.list, scene.library, kColor, 1.0f,
                                          result, false, eye_x(i)));
            ASSERT_GT(particlePixels(alone.back(), 0, kWidth), 100u);
        }
        for (uint32_t i = 1; i < kInFlight; ++i) {
            ASSERT_FALSE(alone[i].rgba8 == alone[i - 1].rgba8) << "frames must differ";
        }
    }

    EffectLibrary library;
    World world(library);
    InstanceDesc desc;
    desc.effect = library.add(campfire());
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    auto renderer = makeRenderer(kColor, VK_FORMAT_D32_SFLOAT, kInFlight);
    ASSERT_TRUE(renderer);
    VkSemaphoreTypeCreateInfo type{};
    type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    info.pNext = &type;
    VkSemaphore gate = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateSemaphore(host->handle(), &info, nullptr, &gate), VK_SUCCESS);
    DrawList list;
    for (uint32_t i = 0; i < kInFlight; ++i) {
        advance(world, i);
        ASSERT_EQ(world.drawList(view(false, eye_x(i)), list), RuntimeError::none);
        VulkanFrame frame = beginFrame(1.0f, i);
        frame.view = view(false, eye_x(i));
        frame.shadows = frame_shadows;
        VulkanFrameResult result;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(renderer->record(frame, list, library, result, diagnostics))
            << joined(diagnostics);
        EXPECT_EQ(result.signal_value, i + 1u);
        EXPECT_GT(result.shadow_cascades, 0u);
        ASSERT_TRUE(host->submit(i, result.signal_semaphore, result.signal_value, gate, 1));
    }
    VkSemaphoreSignalInfo open{};
    open.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO;
    open.semaphore = gate;
    open.value = 1;
    ASSERT_EQ(vkSignalSemaphore(host->handle(), &open), VK_SUCCESS);
    for (uint32_t i = 0; i < kInFlight; ++i) {
        ASSERT_TRUE(host->wait(i));
        EXPECT_TRUE(readImage(kColor, i).rgba8 == alone[i].rgba8) << "frame " << i;
    }
    vkDestroySemaphore(host->handle(), gate, nullptr);
}

// Lights and the sky reach the lit particles of a host frame (the campfire's smoke is lit), as
// they reach the offscreen frame's; a bad light is an error naming it, nothing recorded.
TEST_F(HostFrameTest, LightsAndTheSkyReachLitParticlesAndBadLightsAreRefused) {
    CpuScene scene;
    ASSERT_TRUE(
        host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    auto draw = [&](std::span<const LightDesc> lights, const SkyDesc& sky, bool shadows,
                    VulkanFrameResult& result, std::vector<Diagnostic>& diagnostics) {
        VulkanFrame frame = beginFrame(1.0f);
        frame.lights = lights;
        frame.sky = sky;
        frame.shadows.enabled = shadows;
        const bool ok = renderer->record(frame, scene.list, scene.library, result, diagnostics);
        if (!ok) return ok;
        EXPECT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
        return ok;
    };
    auto redSum = [](const Image& image) {
        uint64_t sum = 0;
        for (size_t i = 0; i < image.rgba8.size(); i += 4) sum += image.rgba8[i];
        return sum;
    };
    VulkanFrameResult result;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(draw({}, SkyDesc{}, false, result, diagnostics)) << joined(diagnostics);
    const Image plain = readImage(VK_FORMAT_R16G16B16A16_SFLOAT, 0);
    EXPECT_EQ(result.lights_drawn, 0u);
    EXPECT_EQ(result.shadow_cascades, 0u);

    LightDesc lamp;
    lamp.position = {0.3f, 1.2f, 0.8f};
    lamp.color = {1, 0.2f, 0.1f};
    lamp.intensity = 30;
    lamp.range = 5;
    const LightDesc lamps[] = {lamp};
    ASSERT_TRUE(draw(lamps, SkyDesc{}, false, result, diagnostics)) << joined(diagnostics);
    const Image lit = readImage(VK_FORMAT_R16G16B16A16_SFLOAT, 0);
    EXPECT_EQ(result.lights_drawn, 1u);
    EXPECT_GT(redSum(lit), redSum(plain) + 200) << "the red lamp reddens the lit smoke";
    EXPECT_EQ(result.motion_batches, 0u);

    SkyDesc sky;
    sky.zenith = {0.2f, 0.4f, 2};
    sky.horizon = {0.1f, 0.2f, 1};
    ASSERT_TRUE(draw({}, sky, false, result, diagnostics)) << joined(diagnostics);
    const Image skylit = readImage(VK_FORMAT_R16G16B16A16_SFLOAT, 0);
    uint64_t blue_plain = 0, blue_sky = 0;
    for (size_t i = 2; i < plain.rgba8.size(); i += 4) {
        blue_plain += plain.rgba8[i];
        blue_sky += skylit.rgba8[i];
    }
    EXPECT_GT(blue_sky, blue_plain + 200) << "the blue sky lights the smoke";

    lamp.range = -1;
    const LightDesc bad[] = {lamp};
    VulkanFrame frame = beginFrame(1.0f);
    frame.lights = bad;
    diagnostics.clear();
    EXPECT_FALSE(renderer->record(frame, scene.list, scene.library, result, diagnostics));
    EXPECT_NE(joined(diagnostics).find("light 0"), std::string::npos) << joined(diagnostics);
    // Nothing was recorded: the host's frame is still its own to finish.
    frame.lights = {};
    diagnostics.clear();
    EXPECT_TRUE(renderer->record(frame, scene.list, scene.library, result, diagnostics))
        << joined(diagnostics);
    EXPECT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
}

TEST_F(HostFrameTest, BadUseIsAClearErrorNeverACrash) {
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(VulkanRenderer::create(VulkanRendererConfig{}, diagnostics));
    EXPECT_NE(joined(diagnostics).find("VkDevice is null"), std::string::npos)
        << joined(diagnostics);

    // A device created without timelineSemaphore (as its create info says).
    VkDeviceCreateInfo info = host->createInfo();
    auto features12 = *static_cast<const VkPhysicalDeviceVulkan12Features*>(info.pNext);
    features12.timelineSemaphore = VK_FALSE;
    info.pNext = &features12;
    VulkanRendererConfig config;
    config.device = host->device();
    config.device.device_create_info = &info;
    diagnostics.clear();
    EXPECT_FALSE(VulkanRenderer::create(config, diagnostics));
    EXPECT_NE(joined(diagnostics).find("timelineSemaphore"), std::string::npos)
        << joined(diagnostics);

    config.device = host->device();
    config.device.queue_family = 99;
    diagnostics.clear();
    EXPECT_FALSE(VulkanRenderer::create(config, diagnostics));
    EXPECT_NE(joined(diagnostics).find("queue family 99"), std::string::npos);

    for (uint32_t in_flight : {0u, 5u}) {
        config.device = host->device();
        config.frames_in_flight = in_flight;
        diagnostics.clear();
        EXPECT_FALSE(VulkanRenderer::create(config, diagnostics));
        EXPECT_NE(joined(diagnostics).find("frames in flight " + std::to_string(in_flight)),
                  std::string::npos)
            << joined(diagnostics);
    }
    config.frames_in_flight = 2;

    config.device = host->device();
    config.color_format = VK_FORMAT_R8G8B8_UNORM;
    config.depth_format = VK_FORMAT_S8_UINT;
    diagnostics.clear();
    EXPECT_FALSE(VulkanRenderer::create(config, diagnostics));
    EXPECT_NE(joined(diagnostics).find("colour format"), std::string::npos);
    EXPECT_NE(joined(diagnostics).find("depth format VkFormat 127"), std::string::npos)
        << joined(diagnostics);
    config.color_format = VK_FORMAT_R8G8B8A8_UNORM;
    config.depth_format = VK_FORMAT_D32_SFLOAT;

    ASSERT_TRUE(host->makeImages(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    EffectLibrary library;
    DrawList list;
    VulkanFrameResult result;
    VulkanFrame frame; // null command buffer, null images, zero extent
    diagnostics.clear();
    EXPECT_FALSE(renderer->record(frame, list, library, result, diagnostics));
    EXPECT_NE(joined(diagnostics).find("command buffer is null"), std::string::npos);
    EXPECT_NE(joined(diagnostics).find("extent 0x0"), std::string::npos);
    EXPECT_EQ(result.signal_semaphore, VK_NULL_HANDLE);

    frame.command_buffer = host->beginScene(kClear, 1.0f);
    frame.extent = host->extent();
    frame.color = host->color();
    frame.depth = host->depth();
    frame.depth.final_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    diagnostics.clear();
    EXPECT_FALSE(renderer->record(frame, list, library, result, diagnostics));
    EXPECT_NE(joined(diagnostics).find("final layout"), std::string::npos);
    frame.depth = host->depth();
    frame.view.fov_y_deg = 0.5f;
    diagnostics.clear();
    EXPECT_FALSE(renderer->record(frame, list, library, result, diagnostics));
    EXPECT_NE(joined(diagnostics).find("fov"), std::string::npos) << joined(diagnostics);
    // Nothing was recorded: the host's frame is still its own to finish. The colour image is in
    // COLOR_ATTACHMENT_OPTIMAL; to read it back the host moves it itself.
    frame.view = view();
    EXPECT_TRUE(renderer->record(frame, list, library, result, diagnostics)) << joined(diagnostics);
    EXPECT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));

    // Spindrift's objects go; the host's device, queue and instance are the host's still (a
    // destroyed one would be reported by the validation layer, or crash).
    renderer.reset();
    EXPECT_EQ(vkQueueWaitIdle(host->queue()), VK_SUCCESS);
    EXPECT_EQ(vkDeviceWaitIdle(host->handle()), VK_SUCCESS);
}

// Shadows in a host frame (VulkanFrame::shadows): the campfire's smoke casts into the sun's
// opacity map and its lit smoke receives, exactly as in the offscreen frame (no ground there
// either); a shadowed spot light takes its tile; the image differs from the unshadowed one.
TEST_F(HostFrameTest, ShadowsAreTheOffscreenFramesByteForByte) {
    CpuScene scene;
    OffscreenExtras extras;
    extras.shadows = smallShadows();
    const Image reference = offscreenImage(scene, false, extras);
    const Image unshadowed = offscreenImage(scene);
    ASSERT_FALSE(reference.rgba8 == unshadowed.rgba8) << "the smoke must shade itself";

    ASSERT_TRUE(
        host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    auto renderer = makeRenderer(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT);
    ASSERT_TRUE(renderer);
    frame_shadows = smallShadows();
    VulkanFrameResult result;
    // Twice: the second frame draws into the maps the first made.
    for (int i = 0; i < 2; ++i) {
        const Image image = drawHostFrame(*renderer, scene.list, scene.library,
                                          VK_FORMAT_R16G16B16A16_SFLOAT, 1.0f, result);
        EXPECT_EQ(result.shadow_cascades, extras.shadows.cascades);
        EXPECT_GT(result.shadow_opacity_batches, 0u);
        EXPECT_TRUE(image.rgba8 == reference.rgba8) << "frame " << i;
    }

    // A shadowed spot light over the fire takes one tile of the local atlas.
    LightDesc spot;
    spot.type = LightKind::spot;
    spot.position = {0.0f, 3.0f, 0.5f};
    spot.intensity = 40;
    spot.shadows = true;
    const LightDesc lights[] = {spot};
    VulkanFrame frame = beginFrame(1.0f);
    frame.lights = lights;
    frame.shadows = smallShadows();
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(renderer->record(frame, scene.list, scene.library, result, diagnostics))
        << joined(diagnostics);
    ASSERT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
    EXPECT_EQ(result.local_shadows, 1u);
    EXPECT_EQ(result.local_shadows_dropped, 0u);
}

// Motion vectors into the host's motion image (VulkanFrame::motion): the particles that write
// motion draw exactly the offscreen frame's values over the host scene's own motion
// (TestHost::kMotionClear), which every other pixel keeps; the host's depth hides them behind its
// wall; the host's scale converts them to its convention (here into R32G32_SFLOAT).
TEST_F(HostFrameTest, ParticlesDrawTheirMotionOverTheHostsMotionImage) {
    CpuScene scene;
    render::MotionVectorsDesc desc;
    desc.enabled = true;
    desc.has_previous_camera = true;
    const DrawView previous = view(false, 0.08f); // the camera moved 8 cm to the left since
    desc.previous_camera.eye = {previous.eye.x, previous.eye.y, previous.eye.z};
    desc.previous_camera.target = {previous.eye.x + previous.forward.x,
                                   previous.eye.y + previous.forward.y,
                                   previous.eye.z + previous.forward.z};
    desc.previous_camera.up = {previous.up.x, previous.up.y, previous.up.z};
    desc.previous_fov_deg = previous.fov_y_deg;
    // The campfire's smoke is thin: every fragment of its batches writes (none reaches 0.5).
    desc.coverage_threshold = 0.0f;
    render::MotionImage reference;
    OffscreenExtras extras;
    extras.motion_desc = &desc;
    extras.motion = &reference;
    offscreenImage(scene, false, extras);
    ASSERT_EQ(reference.xy.size(), size_t{kWidth} * kHeight * 2);

    auto drawMotion = [&](VkFormat motion_format, float wall_depth, float scale_x, float scale_y,
                          VulkanFrameResult& result, std::vector<float>& xy) {
        EXPECT_TRUE(
            host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
        EXPECT_TRUE(host->makeMotionImage(motion_format));
        VulkanRendererConfig config;
        config.device = host->device();
        config.color_format = VK_FORMAT_R16G16B16A16_SFLOAT;
        config.motion_format = motion_format;
        std::vector<Diagnostic> diagnostics;
        auto r = VulkanRenderer::create(config, diagnostics);
        ASSERT_TRUE(r) << joined(diagnostics);
        VulkanFrame frame = beginFrame(wall_depth);
        frame.motion.image = host->motion();
        frame.motion.has_previous_view = true;
        frame.motion.previous_view = previous;
        frame.motion.coverage_threshold = desc.coverage_threshold;
        frame.motion.scale_x = scale_x;
        frame.motion.scale_y = scale_y;
        ASSERT_TRUE(r->record(frame, scene.list, scene.library, result, diagnostics))
            << joined(diagnostics);
        ASSERT_TRUE(host->submitAndRead(result.signal_semaphore, result.signal_value));
        ASSERT_TRUE(host->readMotion(xy));
    };

    // Every pixel has either the offscreen frame's motion (a particle's, or the background's,
    // which is under 0.01 px: infinitely far, it barely moves under a sideways step) or, where no
    // particle covers it, the host's own. Returns the pixels with a particle's motion.
    auto compare = [&](const std::vector<float>& xy, uint32_t first_column, float scale_x,
                       float scale_y) {
        size_t written = 0, mismatched = 0;
        for (uint32_t y = 0; y < kHeight; ++y) {
            for (uint32_t x = first_column; x < kWidth; ++x) {
                const size_t i = (size_t{y} * kWidth + x) * 2;
                const float ex = reference.xy[i] * scale_x, ey = reference.xy[i + 1] * scale_y;
                const bool same = std::abs(xy[i] - ex) <= 2e-3f * std::abs(ex) + 1e-6f &&
                                  std::abs(xy[i + 1] - ey) <= 2e-3f * std::abs(ey) + 1e-6f;
                const bool background =
                    std::abs(reference.xy[i]) < 0.01f && std::abs(reference.xy[i + 1]) < 0.01f;
                const bool hosts = xy[i] == test::TestHost::kMotionClear[0] &&
                                   xy[i + 1] == test::TestHost::kMotionClear[1];
                if (!same && !(background && hosts)) {
                    if (mismatched < 8) {
                        ADD_FAILURE() << x << "," << y << " host " << xy[i] << "," << xy[i + 1]
                                      << " offscreen x scale " << ex << "," << ey;
                    }
                    ++mismatched;
                }
                written += !hosts && !background ? 1 : 0;
            }
        }
        EXPECT_EQ(mismatched, 0u);
        return written;
    };

    VulkanFrameResult result;
    std::vector<float> xy;
    drawMotion(VK_FORMAT_R16G16_SFLOAT, 1.0f, 1.0f, 1.0f, result, xy);
    EXPECT_GT(result.motion_batches, 0u);
    EXPECT_GT(compare(xy, 0, 1.0f, 1.0f), 100u) << "the campfire's smoke writes its motion";

    // The host's wall over the left half hides the particles there: its motion stays the host's.
    drawMotion(VK_FORMAT_R16G16_SFLOAT, 0.05f, 1.0f, 1.0f, result, xy);
    for (uint32_t y = 0; y < kHeight; ++y) {
        for (uint32_t x = 0; x < kWidth / 2; ++x) {
            const size_t i = (size_t{y} * kWidth + x) * 2;
            ASSERT_EQ(xy[i], test::TestHost::kMotionClear[0]) << x << "," << y;
            ASSERT_EQ(xy[i + 1], test::TestHost::kMotionClear[1]) << x << "," << y;
        }
    }
    EXPECT_GT(compare(xy, kWidth / 2, 1.0f, 1.0f), 20u);

    // UV from this frame to the previous, y up, in 32-bit floats.
    const float sx = -1.0f / kWidth, sy = 1.0f / kHeight;
    drawMotion(VK_FORMAT_R32G32_SFLOAT, 1.0f, sx, sy, result, xy);
    EXPECT_GT(compare(xy, 0, sx, sy), 100u);
}

// A motion image the renderer cannot draw into, a frame and view that disagree about motion and
// a scale out of range are errors naming them; nothing is recorded.
TEST_F(HostFrameTest, BadMotionSettingsAreRefusedNamingThem) {
    VulkanRendererConfig config;
    config.device = host->device();
    config.color_format = VK_FORMAT_R16G16B16A16_SFLOAT;
    config.motion_format = VK_FORMAT_R8G8B8A8_UNORM;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(VulkanRenderer::create(config, diagnostics));
    ASSERT_FALSE(diagnostics.empty());
    EXPECT_NE(diagnostics.back().message.find("motion format R8G8B8A8_UNORM"), std::string::npos)
        << joined(diagnostics);

    CpuScene scene;
    ASSERT_TRUE(
        host->makeImages(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT, kWidth, kHeight));
    ASSERT_TRUE(host->makeMotionImage(VK_FORMAT_R16G16_SFLOAT));
    auto no_motion = makeRenderer(VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_D32_SFLOAT);
    config.motion_format = VK_FORMAT_R16G16_SFLOAT;
    diagnostics.clear();
    auto with_motion = VulkanRenderer::create(config, diagnostics);
    ASSERT_TRUE(no_motion && with_motion) << joined(diagnostics);
    auto refused = [&](VulkanRenderer& r, float scale_x, const std::string& expected) {
        VulkanFrame frame = beginFrame(1.0f);
        frame.motion.image = host->motion();
        frame.motion.scale_x = scale_x;
        VulkanFrameResult result;
        std::vector<Diagnostic> errors;
        EXPECT_FALSE(r.record(frame, scene.list, scene.library, result, errors));
        ASSERT_FALSE(errors.empty());
        EXPECT_NE(errors.back().message.find(expected), std::string::npos) << joined(errors);
        EXPECT_EQ(result.signal_value, 0u);
        vkEndCommandBuffer(frame.command_buffer);
    };
    refused(*no_motion, 1.0f, "created without a motion format");
    refused(*with_motion, std::numeric_limits<float>::quiet_NaN(), "output_scale");
    refused(*with_motion, 2000.0f, "output_scale 2000");
}

} // namespace
} // namespace spindrift
