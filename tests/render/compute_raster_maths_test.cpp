// The compute rasteriser's maths on the CPU (render/shader/compute_raster.h, the text its shaders
// run): a quad's pixel bounds hold every pixel the per-pixel test says it covers; the per-pixel
// corner and depth are the quad's own; clipping at the near plane; and front-to-back compositing
// gives what blending back to front with the pipeline's blend states gives.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/random.h"
#include "render/renderer.h"
#include "render/shader/compute_raster.h"
#include "render/view_globals.h"

namespace spindrift::render {
namespace {

constexpr uint32_t kRasterWidth = 96;
constexpr uint32_t kRasterHeight = 64;

RasterCamera camera() {
    FrameView view;
    view.camera.eye = {0.5f, 1.0f, 5.0f};
    view.camera.target = {0, 0, 0};
    view.camera.up = {0, 1, 0};
    view.fov_deg = 60;
    return sdRasterCamera(viewGlobals(view, kRasterWidth, kRasterHeight));
}

BillboardParams params(uint32_t alignment) {
    BillboardParams p{};
    p.axis_stretch = vec4(normalize(vec3(0.3f, 1.0f, 0.2f)), 0.3f);
    p.alignment = alignment;
    return p;
}

DrawRecord record(uint32_t i) {
    const uint key = sdParticleKey(3u, 0u, i, 0u);
    const vec3 p(3.0f * sdRandom01(key, 0u) - 1.5f, 2.0f * sdRandom01(key, 1u) - 1.0f,
                 2.0f * sdRandom01(key, 2u) - 1.0f);
    const vec3 v(sdRandom01(key, 3u) - 0.5f, 2.0f * sdRandom01(key, 4u), 0.5f);
    return sdDrawRecord(p, 0.2f + 0.8f * sdRandom01(key, 5u), vec4(1), v,
                        6.0f * sdRandom01(key, 6u), 0.5f, 0.0f, 0u, key);
}

bool covers(vec4 hit, const RasterCamera& cam) {
    return hit.w != 0.0f && std::abs(hit.x) <= 1.0f && std::abs(hit.y) <= 1.0f &&
           hit.z >= cam.near_m && hit.z <= cam.far_m;
}

// Every pixel a quad covers lies inside its bounds (so inside its tiles), for every alignment.
TEST(ComputeRasterMaths, PixelBoundsHoldEveryCoveredPixel) {
    const RasterCamera cam = camera();
    uint32_t covered_quads = 0;
    for (uint32_t alignment = 0; alignment < kAlignCount; ++alignment) {
        for (uint32_t i = 0; i < 40; ++i) {
            const BillboardQuad q =
                sdBillboardQuad(record(i), params(alignment), cam.eye, cam.right, cam.up);
            const vec4 bounds = sdRasterPixelBounds(q, cam);
            const RasterSplat s = sdRasterSplat(q, cam.eye);
            vec4 seen(1e9f, 1e9f, -1e9f, -1e9f);
            for (uint32_t y = 0; y < kRasterHeight; ++y) {
                for (uint32_t x = 0; x < kRasterWidth; ++x) {
                    const vec2 centre(float(x) + 0.5f, float(y) + 0.5f);
                    if (!covers(sdRasterHit(s, sdRasterRay(centre, cam)), cam)) continue;
                    ASSERT_GE(float(x), bounds.x) << alignment << " " << i;
                    ASSERT_LE(float(x), bounds.z) << alignment << " " << i;
                    ASSERT_GE(float(y), bounds.y) << alignment << " " << i;
                    ASSERT_LE(float(y), bounds.w) << alignment << " " << i;
                    seen = vec4(std::min(seen.x, float(x)), std::min(seen.y, float(y)),
                                std::max(seen.z, float(x)), std::max(seen.w, float(y)));
                }
            }
            if (seen.x <= seen.z) ++covered_quads;
        }
    }
    EXPECT_GT(covered_quads, 100u);
}

// The ray through a point of the quad meets it at that point's corner and linear depth.
TEST(ComputeRasterMaths, HitGivesTheCornerAndDepthOfThePoint) {
    const RasterCamera cam = camera();
    for (uint32_t i = 0; i < 50; ++i) {
        const BillboardQuad q =
            sdBillboardQuad(record(i), params(kAlignFixed), cam.eye, cam.right, cam.up);
        const vec2 corner(0.7f * std::sin(float(i)), 0.6f * std::cos(float(i) * 1.3f));
        const vec3 p = sdQuadPoint(q, corner);
        const float depth = dot(p - cam.eye, cam.forward);
        const vec4 hit = sdRasterHit(sdRasterSplat(q, cam.eye), (p - cam.eye) / depth);
        ASSERT_EQ(hit.w, 1.0f);
        EXPECT_NEAR(hit.x, corner.x, 1e-4f);
        EXPECT_NEAR(hit.y, corner.y, 1e-4f);
        EXPECT_NEAR(hit.z, depth, 1e-4f * depth);
    }
}

TEST(ComputeRasterMaths, QuadsBehindTheEyeAreEmptyAndThroughTheNearPlaneFillTheScreen) {
    const RasterCamera cam = camera();
    BillboardQuad behind;
    behind.center = cam.eye - cam.forward * 2.0f;
    behind.half_x = cam.right * 0.5f;
    behind.half_y = cam.up * 0.5f;
    const vec4 none = sdRasterPixelBounds(behind, cam);
    EXPECT_GT(none.x, none.z);
    EXPECT_EQ(sdRasterTileCount(sdRasterTileRect(none)), 0u);
    BillboardQuad through = behind;
    through.center = cam.eye + cam.forward * 0.5f;
    through.half_y = cam.forward * 2.0f; // from behind the eye to in front of it
    const vec4 all = sdRasterPixelBounds(through, cam);
    EXPECT_EQ(all, vec4(0, 0, kRasterWidth - 1, kRasterHeight - 1));
    const uint32_t tiles = ((kRasterWidth + 15) / 16) * ((kRasterHeight + 15) / 16);
    EXPECT_EQ(sdRasterTileCount(sdRasterTileRect(all)), tiles);
    BillboardQuad flat = behind;
    flat.center = cam.eye + cam.forward * 3.0f;
    flat.half_y = vec3(0.0f); // no area
    const vec4 nothing = sdRasterPixelBounds(flat, cam);
    EXPECT_GT(nothing.x, nothing.z);
}

// A stack of fragments of every blend mode: blended back to front with the blend states
// (ONE/ONE, ONE/ONE_MINUS_SRC_ALPHA, SRC_ALPHA/ONE_MINUS_SRC_ALPHA), and composited front to
// back with sdRasterUnder then sdRasterComposite, give the same colour.
TEST(ComputeRasterMaths, FrontToBackCompositingEqualsBackToFrontBlending) {
    const vec4 frame(0.2f, 0.3f, 0.4f, 1.0f);
    std::vector<vec4> outputs;
    std::vector<uint32_t> blends;
    for (uint32_t i = 0; i < 30; ++i) {
        const uint key = sdParticleKey(9u, 0u, i, 0u);
        outputs.emplace_back(sdRandom01(key, 0u), sdRandom01(key, 1u), 2.0f * sdRandom01(key, 2u),
                             sdRandom01(key, 3u));
        blends.push_back(i % 3 == 0   ? kBlendAdditive
                         : i % 3 == 1 ? kBlendPremultiplied
                                      : kBlendAlpha);
    }
    vec3 dst(frame);
    for (size_t i = 0; i < outputs.size(); ++i) { // outputs[0] is drawn first: the farthest
        const vec4 o = outputs[i];
        const vec3 rgb(o);
        if (blends[i] == kBlendAdditive) dst = dst + rgb;
        if (blends[i] == kBlendPremultiplied) dst = rgb + dst * (1.0f - o.w);
        if (blends[i] == kBlendAlpha) dst = rgb * o.w + dst * (1.0f - o.w);
    }
    vec3 colour(0.0f);
    float transmittance = 1.0f;
    for (size_t i = outputs.size(); i-- > 0;)
        sdRasterUnder(outputs[i], blends[i], colour, transmittance);
    const vec4 composited = sdRasterComposite(colour, transmittance, frame);
    EXPECT_NEAR(composited.x, dst.x, 1e-5f);
    EXPECT_NEAR(composited.y, dst.y, 1e-5f);
    EXPECT_NEAR(composited.z, dst.z, 1e-5f);
    // And the order matters (the test would notice a reversed loop).
    vec3 reversed(0.0f);
    float t = 1.0f;
    for (size_t i = 0; i < outputs.size(); ++i) sdRasterUnder(outputs[i], blends[i], reversed, t);
    EXPECT_GT(std::abs(sdRasterComposite(reversed, t, frame).x - dst.x), 1e-2f);
}

TEST(ComputeRasterMaths, TileRectanglesPackAndCount) {
    const uvec2 packed = sdRasterPackRect(uvec4(3, 4, 7, 5));
    EXPECT_EQ(sdRasterUnpackRect(packed), uvec4(3, 4, 7, 5));
    EXPECT_EQ(sdRasterTileCount(packed), 10u);
    EXPECT_EQ(sdRasterTileCount(uvec2(kRasterEmptyRect0, kRasterEmptyRect1)), 0u);
    // Pixels 16..47 across, 0..15 down: tiles 1..2 by 0..0.
    EXPECT_EQ(sdRasterUnpackRect(sdRasterTileRect(vec4(16, 0, 47, 15))), uvec4(1, 0, 2, 0));
}

} // namespace
} // namespace spindrift::render
