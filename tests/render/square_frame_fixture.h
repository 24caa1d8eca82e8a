// What the renderer's pixel tests share (lights, shadows, distortion): a kSide x kSide offscreen
// renderer on lavapipe with validation on, every validation message a failure, and a frame
// rendered with its statistics kept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/renderer.h"

namespace spindrift::render::test {

inline constexpr uint32_t kSide = 96;

inline std::string errors(const std::vector<Diagnostic>& d) {
    std::string s;
    for (const Diagnostic& x : d) s += formatDiagnostic(x) + "\n";
    return s;
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
