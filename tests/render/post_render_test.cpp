// The HDR post passes on lavapipe (validation on, any message fails): the GPU result against the
// CPU reference of render/shader/post.h for every curve, bloom's energy, automatic exposure
// converging and adapting, and extreme HDR never reaching the image as NaN.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/readback.h"
#include "render/renderer.h"
#include "render/shader/post.h"
#include "render_test_helpers.h"

namespace spindrift::render {
namespace {

using test::errors;

constexpr uint32_t kPostFrameSide = 64;

// Nothing but the background: every pixel of the HDR frame is `background`.
FrameView flatView(Float3 background) {
    FrameView view;
    view.camera.eye = {0, 0, 5};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.fov_deg = 60;
    view.background = background;
    view.ground.enabled = false;
    return view;
}

// The linear value of an 8-bit sRGB code.
double decodeSrgb(int code) {
    const double s = code / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}

class PostRenderTest : public ::testing::Test {
protected:
    void SetUp() override {
        RendererConfig config;
        config.width = kPostFrameSide;
        config.height = kPostFrameSide;
        config.validation = true;
        std::vector<Diagnostic> d;
        renderer_ = createRenderer(config, d);
        ASSERT_NE(renderer_, nullptr) << errors(d);
    }
    void TearDown() override {
        if (!renderer_) return;
        for (const std::string& m : validationMessages(*renderer_)) ADD_FAILURE() << m;
    }
    Image render(const FrameView& view) {
        Image image;
        std::vector<Diagnostic> d;
        EXPECT_TRUE(renderFrame(*renderer_, view, {}, image, stats_, d)) << errors(d);
        return image;
    }
    // The largest difference of any pixel's R, G, B from the expected codes.
    static int differenceFrom(const Image& image, const int expected[3]) {
        int largest = 0;
        for (size_t i = 0; i < image.rgba8.size(); ++i) {
            if (i % 4 == 3) continue;
            largest = std::max(largest, std::abs(int(image.rgba8[i]) - expected[i % 4]));
        }
        return largest;
    }
    RendererPtr renderer_;
    FrameStats stats_;
};

TEST_F(PostRenderTest, EveryCurveMatchesTheCpuReferenceAndBloomKeepsAFlatFrame) {
    const Float3 hdr{2.5f, 0.9f, 0.12f};
    for (uint curve = 0; curve < kTonemapCount; ++curve) {
        FrameView view = flatView(hdr);
        view.tonemap = static_cast<Tonemap>(curve);
        view.exposure.ev = -0.5f;
        view.bloom = {0.3f, 5};
        const Image image = render(view);
        // A flat frame blurred is itself: the reference needs no bloom.
        const vec3 expected =
            sdPostPixel(vec3(hdr.x, hdr.y, hdr.z), vec3(0.0f), 0u, 0.0f, std::exp2(-0.5f), curve);
        const int codes[3] = {encodeSrgb8(expected.x), encodeSrgb8(expected.y),
                              encodeSrgb8(expected.z)};
        EXPECT_LE(differenceFrom(image, codes), 1) << "curve " << curve;
        EXPECT_NEAR(stats_.exposure, std::exp2(-0.5f), 1e-6f);
    }
}

TEST_F(PostRenderTest, WithoutPostTheFrameIsReadBackAsDrawn) {
    FrameView view = flatView({0.5f, 2.0f, 0.25f});
    const Image image = render(view);
    const int codes[3] = {encodeSrgb8(0.5f), 255, encodeSrgb8(0.25f)};
    EXPECT_EQ(differenceFrom(image, codes), 0);
    EXPECT_EQ(stats_.exposure, 1.0f);
}

// The frame's GPU time splits into its phases: the post's share is 0 without post and part of
// the frame with it, the readback's is part of the frame either way.
TEST_F(PostRenderTest, GpuTimesSplitIntoPostAndReadback) {
    FrameView view = flatView({0.5f, 2.0f, 0.25f});
    render(view);
    ASSERT_GT(stats_.gpu_ms, 0.0) << "lavapipe has timestamps";
    const double without_post = stats_.gpu_post_ms;
    EXPECT_GT(stats_.gpu_readback_ms, 0.0);
    EXPECT_LE(stats_.gpu_post_ms + stats_.gpu_readback_ms, stats_.gpu_ms);
    view.bloom = {0.3f, 5};
    view.exposure.mode = ExposureMode::automatic;
    render(view);
    EXPECT_GT(stats_.gpu_post_ms, without_post);
    EXPECT_GT(stats_.gpu_readback_ms, 0.0);
    EXPECT_LE(stats_.gpu_post_ms + stats_.gpu_readback_ms, stats_.gpu_ms);
}

// A lit sphere on black, dim enough that nothing clips without a tone map.
FrameView sphereView(std::vector<PrimitiveDesc>& primitives) {
    FrameView view = flatView({0, 0, 0});
    view.ambient = {0.1f, 0.1f, 0.1f};
    view.sun.direction = {0, 0, 1};
    view.sun.intensity = 0.5f;
    primitives.assign(1, PrimitiveDesc{});
    primitives[0].type = PrimitiveKind::sphere;
    primitives[0].radius = 0.4f;
    primitives[0].color = {0.8f, 0.8f, 0.8f};
    view.primitives = primitives;
    return view;
}

double linearSum(const Image& image) {
    double sum = 0;
    for (size_t i = 0; i < image.rgba8.size(); ++i) {
        if (i % 4 != 3) sum += decodeSrgb(image.rgba8[i]);
    }
    return sum;
}

TEST_F(PostRenderTest, BloomSpreadsLightWithoutAddingAny) {
    std::vector<PrimitiveDesc> primitives;
    FrameView view = sphereView(primitives);
    const Image sharp = render(view);
    view.bloom = {0.6f, 6};
    const Image bloomed = render(view);
    const double before = linearSum(sharp);
    ASSERT_GT(before, 10.0);
    EXPECT_NEAR(linearSum(bloomed) / before, 1.0, 0.05);
    // A corner pixel, far from the sphere: black before, lit by the bloom.
    EXPECT_EQ(sharp.rgba8[0], 0);
    const size_t near_edge = (size_t{kPostFrameSide / 2} * kPostFrameSide + kPostFrameSide / 6) * 4;
    EXPECT_GT(bloomed.rgba8[near_edge], sharp.rgba8[near_edge]);
}

TEST_F(PostRenderTest, ExtremeHdrGivesWhiteNeverNan) {
    std::vector<PrimitiveDesc> primitives;
    FrameView view = sphereView(primitives);
    view.background = {60000, 60000, 60000};
    primitives[0].color = {1e30f, 1e30f, 1e30f}; // Inf in the half-float frame
    view.bloom = {1.0f, 8};
    for (Tonemap curve : {Tonemap::aces, Tonemap::agx, Tonemap::reinhard, Tonemap::none}) {
        view.tonemap = curve;
        const Image image = render(view);
        for (size_t i = 0; i < image.rgba8.size(); ++i) {
            ASSERT_GE(image.rgba8[i], 250) << "pixel " << i / 4 << " curve " << int(curve);
        }
    }
}

// The CPU reference of a flat frame's measured log2 luminance: its bin's centre.
float measuredLog2(float grey) {
    return sdHistogramBinLog2(sdHistogramBin(sdLuminance(vec3(grey))));
}

TEST_F(PostRenderTest, AutomaticExposureConvergesOnAStillAndAdaptsInASequence) {
    auto view = [](float grey, float time_s) {
        FrameView v = flatView({grey, grey, grey});
        v.exposure.mode = ExposureMode::automatic;
        v.exposure.speed = 3;
        v.tonemap = Tonemap::aces;
        v.time_s = time_s;
        v.continues_previous = true;
        return v;
    };
    // A still: converged at once, to 0.18 / luminance (within half a histogram bin).
    render(view(0.8f, 10));
    const float first = measuredLog2(0.8f);
    EXPECT_NEAR(stats_.exposure / sdAutoExposureScale(first, 1.0f), 1.0f, 1e-3f);
    EXPECT_NEAR(std::log2(stats_.exposure), std::log2(kExposureKey / 0.8f), 0.05f);

    // The next frame, 0.1 s later, four times brighter: 1 - e^(-0.3) of the way toward it.
    render(view(3.2f, 10.1f));
    const float adapted = sdAdaptLog2(first, measuredLog2(3.2f), 0.1f, 3.0f);
    EXPECT_GT(adapted, first + 0.4f);
    EXPECT_NEAR(stats_.exposure / sdAutoExposureScale(adapted, 1.0f), 1.0f, 2e-3f);

    // A seek back converges again.
    render(view(3.2f, 1.0f));
    EXPECT_NEAR(stats_.exposure / sdAutoExposureScale(measuredLog2(3.2f), 1.0f), 1.0f, 1e-3f);

    // A frame that does not continue the sequence converges whatever the renderer drew just
    // before (a still of another scene drawn with the same renderer, as the golden test does).
    render(view(3.2f, 1.1f));           // continues the frame at 1.0 s
    FrameView still = view(0.8f, 1.2f); // 0.1 s later, but not of that sequence
    still.continues_previous = false;
    render(still);
    EXPECT_NEAR(stats_.exposure / sdAutoExposureScale(first, 1.0f), 1.0f, 1e-3f);
}

TEST_F(PostRenderTest, AutomaticExposureIsClampedToItsRange) {
    FrameView view = flatView({100, 100, 100});
    view.exposure.mode = ExposureMode::automatic;
    view.exposure.max_ev = 2; // exposes as if the frame had luminance 4
    render(view);
    EXPECT_NEAR(stats_.exposure, kExposureKey / 4.0f, 1e-4f);
}

} // namespace
} // namespace spindrift::render
