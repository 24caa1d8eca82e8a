// Distortion billboards on lavapipe, validation on (docs/rendering.md, "Distortion"), measured on
// the pixels of a checker ground seen from above: a lens bends the ground inside its disc and
// leaves every other pixel as it was; a flat mid-grey displacement texture (read as data) bends
// nothing, where the same bytes read as sRGB colour would shift the image; an opaque box nearer
// than the haze is never pulled into it; the compute rasteriser leaves distortion to the graphics
// path and the frame is the same; malformed batches are refused.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "render/billboard_params.h"
#include "render/renderer.h"
#include "render/shader/distortion.h"
#include "render/strip_params.h"
#include "square_frame_fixture.h"

namespace spindrift::render {
namespace {

using test::errors;
using test::kHeight_m;
using test::kSide;
using test::pixelAt;

constexpr float kLensHeight_m = 2;
constexpr float kLensSize_m = 4; // 24 pixels across, 8 m from the eye

const uint8_t* pixelBytes(const Image& image, uint32_t x, uint32_t y) {
    return &image.rgba8[(size_t{y} * image.width + x) * 4];
}

int channelDifference(const Image& a, const Image& b, uint32_t x, uint32_t y) {
    int largest = 0;
    for (int c = 0; c < 3; ++c) {
        largest =
            std::max(largest, std::abs(int(pixelBytes(a, x, y)[c]) - int(pixelBytes(b, x, y)[c])));
    }
    return largest;
}

// Dark stripes 1 m wide and 1 m apart across a light ground, along z: high contrast for the
// bending to show (the ground's own checker is faint).
const std::vector<PrimitiveDesc>& stripes() {
    static const std::vector<PrimitiveDesc> boxes = [] {
        std::vector<PrimitiveDesc> b;
        for (int i = -5; i <= 5; ++i) {
            b.push_back(PrimitiveDesc{PrimitiveKind::box,
                                      {2.0f * float(i), 0.005f, 0},
                                      {1, 0.01f, 20},
                                      1,
                                      {0.02f, 0.02f, 0.02f}});
        }
        return b;
    }();
    return boxes;
}

// Straight down on the striped ground from 10 m with a 90-degree field, lit from straight above.
FrameView stripedGroundView() {
    FrameView view = test::topDownView(kHeight_m);
    view.ground.enabled = true;
    view.ground.color = {0.6f, 0.6f, 0.6f};
    view.sun.direction = {0, 1, 0};
    view.sun.color = {1, 1, 1};
    view.sun.intensity = 1;
    view.ambient = {0.2f, 0.2f, 0.2f};
    view.primitives = stripes();
    return view;
}

BillboardParams distortionParams(float strength) {
    return test::cameraFacingParams(kBlendAdditive, kRenderFlagDistortion, strength);
}

DrawRecord quad(vec3 position, float size, float alpha) {
    return sdDrawRecord(position, size, vec4(1, 1, 1, alpha), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u);
}

class DistortionRenderTest : public test::SquareFrameTest {
protected:
    BillboardBatch lens(std::span<const DrawRecord> records, float strength = 0.6f) const {
        BillboardBatch b;
        b.params = distortionParams(strength);
        b.records = records;
        return b;
    }
};

TEST_F(DistortionRenderTest, ALensBendsTheGroundInsideItsDiscAndLeavesEveryOtherPixel) {
    const FrameView view = stripedGroundView();
    const Image plain = render(view);
    const DrawRecord records[] = {quad(vec3(0, kLensHeight_m, 0), kLensSize_m, 1)};
    const Image bent = render(view, {lens(records)});
    EXPECT_EQ(stats_.distortion_batches, 1u);
    EXPECT_EQ(stats_.particles_drawn, 1u);

    const float centre = pixelAt(0, kLensHeight_m);
    const float radius = pixelAt(kLensSize_m / 2, kLensHeight_m) - centre;
    uint32_t inside = 0, inside_changed = 0, outside_changed = 0;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            const float r = std::hypot(float(x) + 0.5f - centre, float(y) + 0.5f - centre);
            const int difference = channelDifference(plain, bent, x, y);
            if (r > radius + 1.5f) {
                if (difference != 0) ++outside_changed;
            } else if (r < radius - 1.5f) {
                ++inside;
                if (difference > 8) ++inside_changed;
            }
        }
    }
    EXPECT_EQ(outside_changed, 0u) << "a pixel outside the lens changed";
    // The checker's edges move under the lens: a good share of its pixels change colour.
    EXPECT_GT(inside_changed * 5, inside) << inside_changed << " of " << inside << " changed";

    // Alpha scales the strength: a transparent quad bends nothing.
    const DrawRecord faded[] = {quad(vec3(0, kLensHeight_m, 0), kLensSize_m, 0)};
    const Image none = render(view, {lens(faded)});
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            ASSERT_EQ(channelDifference(plain, none, x, y), 0) << "at " << x << ", " << y;
        }
    }
}

// The distortion phase draws the distortion batches alone: a ribbon and a puff beside the lens
// are drawn once, as in the frame without it.
TEST_F(DistortionRenderTest, TheOtherBatchesAreDrawnOnceBesideADistortionBatch) {
    const FrameView view = stripedGroundView();
    EmitterRecord e{};
    e.blend = kBlendAdditive;
    e.render_type = kRenderRibbon;
    e.emission = vec4(1, 0, 0, 0);
    std::vector<StripPoint> points(2);
    for (int i = 0; i < 2; ++i) {
        points[i].position_width = vec4(-8, 1, i == 0 ? -8.0f : 8.0f, 1);
        points[i].color = vec4(0.3f, 0.2f, 0.1f, 1);
        points[i].tangent_u = vec4(0, 0, 1, float(i));
    }
    const std::vector<uint32_t> segments = {0};
    StripBatch ribbon;
    ribbon.params = stripParams(e);
    ribbon.points = points;
    ribbon.segments = segments;
    BillboardBatch puff;
    puff.params = distortionParams(1);
    puff.params.render_flags = 0;
    puff.params.distortion = 0;
    const DrawRecord puffs[] = {quad(vec3(6, 1, 6), 2, 0.5f)};
    puff.records = puffs;
    const Image without = render(view, {ribbon, puff});
    const DrawRecord records[] = {quad(vec3(0, kLensHeight_m, 0), kLensSize_m, 1)};
    const Image with = render(view, {ribbon, lens(records), puff});
    const float centre = pixelAt(0, kLensHeight_m);
    const float radius = pixelAt(kLensSize_m / 2, kLensHeight_m) - centre;
    uint32_t changed = 0;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            const float r = std::hypot(float(x) + 0.5f - centre, float(y) + 0.5f - centre);
            if (r > radius + 1.5f && channelDifference(without, with, x, y) != 0) ++changed;
        }
    }
    EXPECT_EQ(changed, 0u);
    // The ribbon and the puff are in the frame (not off screen).
    const auto ribbon_column = static_cast<uint32_t>(pixelAt(-8, 1));
    const auto puff_pixel = static_cast<uint32_t>(pixelAt(6, 1));
    const Image empty = render(view);
    EXPECT_GT(channelDifference(empty, without, ribbon_column, kSide / 2), 20);
    EXPECT_GT(channelDifference(empty, without, puff_pixel, puff_pixel), 10);
}

TEST_F(DistortionRenderTest, AMidGreyFieldReadAsDataBendsNothingWhereReadAsColourItWould) {
    Image flat;
    flat.width = 8;
    flat.height = 8;
    flat.rgba8.assign(size_t{8} * 8 * 4, 128);
    for (size_t i = 3; i < flat.rgba8.size(); i += 4) flat.rgba8[i] = 255;
    std::vector<Diagnostic> d;
    const TextureHandle data = addTexture(*renderer_, flat, "flat field", d, TextureEncoding::data);
    const TextureHandle colour = addTexture(*renderer_, flat, "flat colour", d);
    ASSERT_NE(data, kNoTexture) << errors(d);
    ASSERT_NE(colour, kNoTexture) << errors(d);

    const FrameView view = stripedGroundView();
    const Image plain = render(view);
    const DrawRecord records[] = {quad(vec3(0, kLensHeight_m, 0), kLensSize_m, 1)};
    BillboardBatch batch = lens(records, 1.0f);
    batch.texture = data;
    const Image as_data = render(view, {batch});
    batch.texture = colour;
    const Image as_colour = render(view, {batch});
    uint32_t data_changed = 0, colour_changed = 0;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            if (channelDifference(plain, as_data, x, y) > 32) ++data_changed;
            if (channelDifference(plain, as_colour, x, y) > 32) ++colour_changed;
        }
    }
    // 128/255 is 0.0039 off the middle: 0.008 m here, a twentieth of a pixel (the stripes' edges
    // move by that much: a few codes).
    EXPECT_EQ(data_changed, 0u);
    // Decoded as sRGB, 128 reads 0.216: a shift of 0.57 of the half size, 7 pixels; the stripes
    // under the quad move.
    EXPECT_GT(colour_changed, 50u);
}

TEST_F(DistortionRenderTest, AnOpaqueBoxNearerThanTheHazeIsNeverPulledIntoIt) {
    FrameView view = stripedGroundView();
    // A red box floating 6 to 8 m up, all of it nearer the eye than a lens 0.5 m over the ground:
    // the lens pulls its samples toward its middle, where the box is; those that land on the box
    // must read the ground behind the lens instead.
    std::vector<PrimitiveDesc> primitives = stripes();
    primitives.push_back(
        PrimitiveDesc{PrimitiveKind::box, {0.6f, 7, 0.3f}, {1, 2, 1}, 1, {1, 0, 0}});
    view.primitives = primitives;
    const Image plain = render(view);
    const DrawRecord records[] = {quad(vec3(0, 0.5f, 0), 8, 1)};
    const Image bent = render(view, {lens(records, 1.5f)});
    auto reddish = [](const Image& image, uint32_t x, uint32_t y) {
        const uint8_t* p = pixelBytes(image, x, y);
        return int(p[0]) > int(p[1]) + 40;
    };
    uint32_t pulled = 0, box = 0, kept = 0;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            if (reddish(plain, x, y)) {
                ++box;
                if (reddish(bent, x, y) && channelDifference(plain, bent, x, y) == 0) ++kept;
            } else if (reddish(bent, x, y)) {
                ++pulled;
            }
        }
    }
    EXPECT_GT(box, 100u);
    EXPECT_EQ(kept, box) << "the box is in front of the lens: unchanged";
    EXPECT_EQ(pulled, 0u) << "pixels of the box's colour appeared in the haze";
}

TEST_F(DistortionRenderTest, TheComputeRasteriserLeavesDistortionToTheGraphicsPath) {
    FrameView view = stripedGroundView();
    const DrawRecord lens_records[] = {quad(vec3(0, kLensHeight_m, 0), kLensSize_m, 1)};
    const DrawRecord puffs[] = {quad(vec3(-1, 1, -1), 2, 0.5f), quad(vec3(1, 1, 1), 2, 0.5f)};
    BillboardBatch smoke;
    smoke.params = distortionParams(1);
    smoke.params.render_flags = 0;
    smoke.params.blend = kBlendAlpha;
    smoke.params.distortion = 0;
    smoke.records = puffs;
    const std::vector<DrawBatch> batches = {smoke, lens(lens_records)};
    view.raster = RasterPath::graphics;
    const Image graphics = render(view, batches);
    EXPECT_EQ(stats_.raster_batches, 0u);
    view.raster = RasterPath::compute;
    const Image compute = render(view, batches);
    EXPECT_EQ(stats_.raster_batches, 1u) << "the smoke by compute, the lens by graphics";
    EXPECT_EQ(stats_.distortion_batches, 1u);
    int largest = 0;
    for (uint32_t y = 0; y < kSide; ++y) {
        for (uint32_t x = 0; x < kSide; ++x) {
            largest = std::max(largest, channelDifference(graphics, compute, x, y));
        }
    }
    EXPECT_LE(largest, 2);
}

TEST_F(DistortionRenderTest, MalformedDistortionBatchesAreRefused) {
    const FrameView view = stripedGroundView();
    const DrawRecord records[] = {quad(vec3(0, kLensHeight_m, 0), kLensSize_m, 1)};
    auto refused = [&](BillboardBatch batch, const char* why) {
        Image image;
        std::vector<Diagnostic> d;
        const std::vector<DrawBatch> batches = {batch};
        EXPECT_FALSE(renderFrame(*renderer_, view, batches, image, stats_, d)) << why;
        EXPECT_NE(errors(d).find("distortion"), std::string::npos) << why << ": " << errors(d);
    };
    BillboardBatch b = lens(records);
    b.params.distortion = 0;
    refused(b, "the flag without a strength");
    b.params.distortion = 2.5f;
    refused(b, "past kMaxDistortion");
    b.params.distortion = std::nanf("");
    refused(b, "NaN");
    b = lens(records);
    b.params.render_flags |= kRenderFlagLit;
    refused(b, "lit");
    b = lens(records);
    b.params.blend = kBlendAlpha;
    refused(b, "blended as alpha");
}

TEST(DistortionMaths, TheLensIsZeroAtItsCentreAndRimAndPullsTowardTheCentre) {
    EXPECT_EQ(sdDistortionLens(vec2(0, 0)), vec4(0, 0, 0, 1));
    EXPECT_EQ(sdDistortionLens(vec2(1, 0)).w, 0.0f) << "the rim is outside";
    EXPECT_EQ(sdDistortionLens(vec2(0.8f, 0.8f)), vec4(0)) << "the corners are outside";
    const vec4 half = sdDistortionLens(vec2(0.5f, 0));
    EXPECT_LT(half.x, 0.0f) << "reads nearer the centre: magnifies";
    EXPECT_FLOAT_EQ(half.x, -0.5f * 0.75f);
    EXPECT_EQ(half.w, 1.0f);
    EXPECT_EQ(sdDistortionTexel(vec4(0.5f, 0.5f, 0.3f, 0.7f)), vec4(0, 0, 0, 0.7f));
    EXPECT_EQ(sdDistortionTexel(vec4(1, 0, 0, 1)), vec4(1, -1, 0, 1));
    const vec3 shift =
        sdDistortionDisplacement(vec4(1, -0.5f, 0, 0.5f), vec3(2, 0, 0), vec3(0, 4, 0), 0.5f, 0.8f);
    EXPECT_FLOAT_EQ(shift.x, 2 * 0.5f * 0.8f * 0.5f);
    EXPECT_FLOAT_EQ(shift.y, -0.5f * 4 * 0.5f * 0.8f * 0.5f);
}

TEST(DistortionMaths, TheSourcePixelRefusesNearerSurfacesAndPointsOffScreen) {
    const vec2 here(10.5f, 10.5f);
    const vec2 there(14.5f, 9.5f);
    const vec2 viewport(32, 32);
    EXPECT_EQ(sdDistortionSourcePixel(here, there, 20.0f, 8.0f, viewport), there);
    EXPECT_EQ(sdDistortionSourcePixel(here, there, 5.0f, 8.0f, viewport), here) << "nearer";
    EXPECT_EQ(sdDistortionSourcePixel(here, vec2(-0.5f, 3), 20.0f, 8.0f, viewport), here);
    EXPECT_EQ(sdDistortionSourcePixel(here, vec2(3, 32.5f), 20.0f, 8.0f, viewport), here);
}

} // namespace
} // namespace spindrift::render
