// What the renderer's pixel tests share (lights, shadows, distortion, lighting per particle,
// motion, half resolution): a kSide x kSide offscreen renderer on lavapipe with validation on,
// every validation message a failure, a frame rendered with its statistics kept, the camera
// looking straight down from kHeight_m, where a point lands in it, a billboard batch and a
// pixel's red channel.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/renderer.h"
#include "render_test_helpers.h"

namespace spindrift::render::test {

inline constexpr uint32_t kSide = 96;
inline constexpr float kHeight_m = 10; // the camera's height over the ground, looking straight down
inline constexpr float kGrey = 0.5f;   // a grey ground's colour

// Straight down from height_m with a 90-degree field: the image spans x and z in
// [-height_m, height_m] (for a ground at y = 0), +x to the right and -z up. Black background, no
// ground, sun or ambient: each test adds what its frame is lit and seen by.
inline FrameView topDownView(float height_m) {
    FrameView view;
    view.camera.eye = {0, height_m, 0};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 0, -1};
    view.fov_deg = 90;
    view.background = {0, 0, 0};
    view.ground.enabled = false;
    view.sun.intensity = 0;
    view.ambient = {0, 0, 0};
    return view;
}

// The pixel column (or row) of world coordinate v at height y_m, seen by topDownView(kHeight_m).
inline float pixelAt(float v_m, float y_m) {
    return 0.5f * float(kSide) * (1.0f + v_m / (kHeight_m - y_m));
}

// Channel c (0 red .. 3 alpha) of pixel (x, y).
inline int channel(const Image& image, uint32_t x, uint32_t y, int c) {
    return image.rgba8[(size_t{y} * image.width + x) * 4 + size_t(c)];
}

inline int red(const Image& image, uint32_t x, uint32_t y) {
    return channel(image, x, y, 0);
}

// Success when every pixel's red channel of a and b (the same size) differs by at most
// tolerance codes; else names the first pixel that does not.
inline ::testing::AssertionResult redWithin(const Image& a, const Image& b, int tolerance) {
    if (a.width != b.width || a.height != b.height) {
        return ::testing::AssertionFailure() << "the images differ in size";
    }
    for (uint32_t y = 0; y < a.height; ++y) {
        for (uint32_t x = 0; x < a.width; ++x) {
            if (std::abs(red(a, x, y) - red(b, x, y)) > tolerance) {
                return ::testing::AssertionFailure() << "pixel (" << x << ", " << y << "): red "
                                                     << red(a, x, y) << " against " << red(b, x, y);
            }
        }
    }
    return ::testing::AssertionSuccess();
}

// What the renderer draws a camera-facing billboard emitter at the identity transform with
// (billboardParams): `blend`, its colour as given (emissive 1), these kRenderFlag* flags, and a
// distortion strength (emission.z; with kRenderFlagDistortion).
inline BillboardParams cameraFacingParams(uint32_t blend, uint32_t render_flags = 0,
                                          float distortion = 0) {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.axis = vec4(0, 1, 0, 0);
    e.blend = blend;
    e.alignment = kAlignCamera;
    e.render_flags = render_flags;
    e.emission = vec4(1, 0, distortion, 0);
    return billboardParams(e, Rows3x4{});
}

// records drawn as camera-facing billboards of `blend` (cameraFacingParams).
inline BillboardBatch batchOf(std::span<const DrawRecord> records, uint32_t blend = kBlendAlpha) {
    BillboardBatch b;
    b.params = cameraFacingParams(blend);
    b.records = records;
    return b;
}

class SquareFrameTest : public ::testing::Test {
protected:
    void SetUp() override {
        RendererConfig config;
        config.width = kSide;
        config.height = kSide;
        config.validation = true;
        std::vector<Diagnostic> d;
        renderer_ = createRenderer(config, d);
        ASSERT_NE(renderer_, nullptr) << errors(d);
    }

    void TearDown() override {
        if (!renderer_) return;
        for (const std::string& m : validationMessages(*renderer_)) ADD_FAILURE() << m;
    }

    Image render(const FrameView& view, const std::vector<DrawBatch>& batches = {}) {
        Image image;
        std::vector<Diagnostic> d;
        EXPECT_TRUE(renderFrame(*renderer_, view, batches, image, stats_, d)) << errors(d);
        return image;
    }

    RendererPtr renderer_;
    FrameStats stats_;
};

} // namespace spindrift::render::test
