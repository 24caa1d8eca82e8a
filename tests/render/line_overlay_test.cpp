// The line overlay (FrameView::overlay, render/line_overlay_pass.h) on lavapipe, validation on: a
// segment lands where viewGlobals' projection puts it, in exactly its colour whatever the tone
// map and exposure, with no depth test (a segment under the ground shows); no overlay changes no
// pixel; bad segments are refused, naming which.
#include <cmath>
#include <vector>

#include "render/view_globals.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::kSide;

const Float3 kCyan{90.0f / 255, 220.0f / 255, 1.0f};

// Where viewGlobals' camera puts a world point, in pixels (x right, y down).
vec2 projectedPixel(const FrameView& view, vec3 p) {
    const FrameGlobals g = viewGlobals(view, kSide, kSide);
    const vec4 c = g.clip_from_world_c0 * p.x + g.clip_from_world_c1 * p.y +
                   g.clip_from_world_c2 * p.z + g.clip_from_world_c3;
    return vec2((c.x / c.w * 0.5f + 0.5f) * kSide, (c.y / c.w * 0.5f + 0.5f) * kSide);
}

bool isColor(const Image& image, uint32_t x, uint32_t y, const Float3& c) {
    const uint8_t* p = &image.rgba8[(size_t{y} * image.width + x) * 4];
    return p[0] == std::lround(c.x * 255) && p[1] == std::lround(c.y * 255) &&
           p[2] == std::lround(c.z * 255);
}

// Pixels of exactly colour c within `radius` pixels of `at`.
uint32_t colorNear(const Image& image, vec2 at, int radius, const Float3& c) {
    uint32_t n = 0;
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const int x = static_cast<int>(std::floor(at.x)) + dx;
            const int y = static_cast<int>(std::floor(at.y)) + dy;
            if (x < 0 || y < 0 || x >= static_cast<int>(kSide) || y >= static_cast<int>(kSide))
                continue;
            n += isColor(image, static_cast<uint32_t>(x), static_cast<uint32_t>(y), c) ? 1 : 0;
        }
    }
    return n;
}

uint32_t colorCount(const Image& image, const Float3& c) {
    uint32_t n = 0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x) n += isColor(image, x, y, c) ? 1 : 0;
    return n;
}

class LineOverlayTest : public test::SquareFrameTest {};

// An oblique camera over a lit ground, tone mapped: the diagonal segment is drawn along its
// projection, in exactly its colour, and nowhere else.
TEST_F(LineOverlayTest, DrawsASegmentWhereTheProjectionSaysInItsExactColour) {
    FrameView view;
    view.camera.eye = {1, 3, 4};
    view.camera.target = {0, 0, 0};
    view.fov_deg = 60;
    view.background = {0.3f, 0.3f, 0.4f};
    view.tonemap = Tonemap::aces;
    view.exposure.ev = 1.5f;
    const vec3 a(-1.2f, 0.3f, -0.5f);
    const vec3 b(1.0f, 0.8f, 0.7f);
    const OverlayLine lines[] = {{{a.x, a.y, a.z}, {b.x, b.y, b.z}, kCyan}};
    view.overlay = lines;
    const Image image = render(view);
    EXPECT_EQ(stats_.overlay_lines, 1u);
    uint32_t on_line = 0;
    for (int i = 1; i < 20; ++i) {
        const float t = static_cast<float>(i) / 20.0f;
        const vec2 p = projectedPixel(view, a + (b - a) * t);
        on_line += colorNear(image, p, 1, kCyan) > 0 ? 1 : 0;
    }
    EXPECT_EQ(on_line, 19u) << "every sample along the projected segment has a pixel of its colour";
    // One pixel wide: about as many pixels as the projection is long, none elsewhere.
    const vec2 pa = projectedPixel(view, a);
    const vec2 pb = projectedPixel(view, b);
    const float long_axis = std::max(std::abs(pb.x - pa.x), std::abs(pb.y - pa.y));
    const uint32_t total = colorCount(image, kCyan);
    EXPECT_GE(total, static_cast<uint32_t>(long_axis) - 2);
    EXPECT_LE(total, static_cast<uint32_t>(long_axis) + 2);
}

// No depth test (line_overlay_pass.h says why): a segment below the opaque ground is drawn over
// it; and without an overlay the frame is the same frame, pixel for pixel.
TEST_F(LineOverlayTest, IsNotHiddenByTheGroundAndNoOverlayChangesNothing) {
    FrameView view = test::topDownView(2.0f);
    view.ground.enabled = true;
    view.sun.intensity = 2;
    view.ambient = {0.3f, 0.3f, 0.3f};
    const Image without = render(view);
    EXPECT_EQ(stats_.overlay_lines, 0u);
    EXPECT_EQ(colorCount(without, kCyan), 0u);
    const OverlayLine lines[] = {{{-1, -0.5f, 0.5f}, {1, -0.5f, 0.5f}, kCyan}};
    view.overlay = lines;
    const Image with = render(view);
    // Straight down from 2 m with a 90-degree field, y = -0.5 is 2.5 m away, where the image
    // spans 5 m: x in [-1, 1] is 0.4 of its width.
    const vec2 left = projectedPixel(view, vec3(-1, -0.5f, 0.5f));
    const vec2 right = projectedPixel(view, vec3(1, -0.5f, 0.5f));
    EXPECT_NEAR(right.x - left.x, 0.4f * kSide, 1.0f);
    EXPECT_GT(colorNear(with, (left + right) * 0.5f, 1, kCyan), 0u);
    EXPECT_GE(colorCount(with, kCyan), static_cast<uint32_t>(right.x - left.x) - 2);
    view.overlay = {};
    const Image again = render(view);
    EXPECT_EQ(again.rgba8, without.rgba8);
}

TEST_F(LineOverlayTest, RefusesNonFiniteEndsAndColoursOutOfRange) {
    FrameView view = test::topDownView(2.0f);
    const OverlayLine nan_end[] = {{{0, 0, 0}, {1, 0, 0}, kCyan}, {{0, 0, 0}, {NAN, 0, 0}, kCyan}};
    view.overlay = nan_end;
    Image image;
    std::vector<Diagnostic> d;
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    ASSERT_FALSE(d.empty());
    EXPECT_NE(d[0].message.find("overlay[1]: from and to must be finite"), std::string::npos)
        << d[0].message;
    const OverlayLine bright[] = {{{0, 0, 0}, {1, 0, 0}, {1.5f, 0, 0}}};
    view.overlay = bright;
    d.clear();
    EXPECT_FALSE(renderFrame(*renderer_, view, {}, image, stats_, d));
    ASSERT_FALSE(d.empty());
    EXPECT_NE(d[0].message.find("overlay[0]: every colour channel must be in [0, 1]"),
              std::string::npos)
        << d[0].message;
}

} // namespace
} // namespace spindrift::render
