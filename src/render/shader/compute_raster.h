// The compute rasteriser of billboards (docs/rendering.md, "Compute rasteriser"): the buffer
// layouts its passes share and the maths they run, written once in the C++/GLSL subset so the
// shaders (shaders/raster_*.comp) and the CPU-side tests run the same text. The quad itself is the
// graphics path's (sdBillboardQuad, billboard.h); this header turns it into what a tile needs:
// its screen rectangle in tiles, and per pixel the corner and depth where the pixel's ray meets
// the quad's plane (what the hardware rasteriser's perspective-correct interpolation gives).
//
// FROZEN: RasterJob (a std430 buffer) and RasterPush (a push-constant block); offsets pinned
// below.
#ifndef SPINDRIFT_RENDER_SHADER_COMPUTE_RASTER_H
#define SPINDRIFT_RENDER_SHADER_COMPUTE_RASTER_H

#include "billboard.h"
#include "frame_globals.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// Tiles are kRasterTileSize pixels square; one workgroup of kRasterTileSize^2 invocations blends
// a tile, one pixel each, staging kRasterTileSize^2 particles at a time in shared memory.
SD_CONST uint kRasterTileSize = 16u;
SD_CONST uint kRasterTilePixels = kRasterTileSize * kRasterTileSize;
// The projection and emit passes: workgroups of kRasterGroupSize invocations, each handling
// kRasterPerInvocation particles of the workgroup's chunk of kRasterChunk.
SD_CONST uint kRasterGroupSize = 256u;
SD_CONST uint kRasterPerInvocation = 8u;
SD_CONST uint kRasterChunk = kRasterGroupSize * kRasterPerInvocation;
// Sums the scan saturates at: a frame whose particles cover more tile entries than this is
// refused before anything is emitted (ComputeRaster, kMaxComputeRasterPairs is far below).
SD_CONST uint kRasterSaturated = 0xFFFFFFFFu;
// The raster passes' descriptor set is the particle passes' frame set (kSetFrame: the frame
// globals, the opaque scene's linear depth) plus the frame colour as a storage image; the
// batch's texture is set kSetTexture as for the graphics path (frame_globals.h).
SD_CONST uint kBindingRasterFrame = 2u;
// A pixel stops blending once less than this much of what lies behind still shows (3D Gaussian
// splatting stops at 1e-4): at most 1/8192 of the frame and the particles behind is lost.
SD_CONST float kRasterStopTransmittance = 1.0f / 8192.0f;

// One billboard batch the rasteriser draws: what the graphics path's push constants carry
// (BillboardPushConstants), and where the batch's particles and tiles sit in the frame's shared
// buffers.
struct RasterJob {
    BillboardParams params;
    uvec4 records; // as BillboardPushConstants::records
    uvec4 order;   // as BillboardPushConstants::order
    DrawOverrides overrides;
    // xy: address of the device count (a uint; 0 for host records), z: host records: the count;
    // device records: max_records; w: index of the job's first particle in the rectangle buffer.
    uvec4 count;
    // x: the job's first chunk in the chunk sums, y: its first key (job index x tiles), z: its
    // chunks, w: 0.
    uvec4 bases;
};

// The push constants of every raster pass. Addresses are (low, high) words.
struct RasterPush {
    uvec4 grid;       // x: job index, y: tiles across, z: tiles down, w: total chunks
    uvec2 jobs;       // RasterJob[]
    uvec2 rects;      // uvec2 per particle: tile rectangle (x0 | y0 << 16, x1 | y1 << 16)
    uvec2 chunk_sums; // uint per chunk: tiles covered, then (scan) the chunk's first pair
    uvec2 total;      // uint: every pair of the frame (written by the scan)
    uvec2 keys;       // uint per pair: job's first key + tile index
    uvec2 payloads;   // uint per pair: the particle's draw index in its job
    uvec2 ranges;     // uvec2 per key: [first, end) of its pairs once sorted
    uvec2 pad;
};

// The tile rectangle of a quad that shows nothing: x0 > x1.
SD_CONST uint kRasterEmptyRect0 = 1u;
SD_CONST uint kRasterEmptyRect1 = 0u;

// Packs tiles [x0, x1] x [y0, y1] (each < 2^16) into two words.
SD_FUNC uvec2 sdRasterPackRect(uvec4 r) {
    return uvec2(r.x | (r.y << 16u), r.z | (r.w << 16u));
}
SD_FUNC uvec4 sdRasterUnpackRect(uvec2 p) {
    return uvec4(p.x & 0xFFFFu, p.x >> 16u, p.y & 0xFFFFu, p.y >> 16u);
}
// Tiles a packed rectangle covers (0 when empty).
SD_FUNC uint sdRasterTileCount(uvec2 packed_rect) {
    uvec4 r = sdRasterUnpackRect(packed_rect);
    if (r.x > r.z || r.y > r.w) return 0u;
    return (r.z - r.x + 1u) * (r.w - r.y + 1u);
}

// The camera a raster pass needs, from FrameGlobals: clip_from_world's columns, the eye, the
// unit axes, near and far, and the viewport.
struct RasterCamera {
    vec4 c0;
    vec4 c1;
    vec4 c2;
    vec4 c3;
    vec3 eye;
    vec3 right;
    vec3 up;
    vec3 forward;
    float near_m;
    float far_m;
    vec2 viewport; // pixels
};

// The raster passes' camera from the frame globals.
SD_FUNC RasterCamera sdRasterCamera(FrameGlobals g) {
    RasterCamera cam;
    cam.c0 = g.clip_from_world_c0;
    cam.c1 = g.clip_from_world_c1;
    cam.c2 = g.clip_from_world_c2;
    cam.c3 = g.clip_from_world_c3;
    cam.eye = vec3(g.eye);
    cam.right = vec3(g.camera_right);
    cam.up = vec3(g.camera_up);
    cam.forward = vec3(g.camera_forward);
    cam.near_m = g.eye.w;
    cam.far_m = g.camera_right.w;
    cam.viewport = vec2(g.viewport.x, g.viewport.y);
    return cam;
}

// Slack, in pixels, between a quad's projected corners and the pixel centres counted inside its
// bounds: the per-pixel test (sdRasterHit) reaches the same edge through other rounding.
SD_CONST float kRasterBoundsSlack = 1.0f / 16.0f;

// The pixels whose centres a quad may cover: xy the first pixel, zw the last (inclusive), as
// floats; empty (x > z or y > w) when the quad is entirely behind the near plane or beyond the
// far plane, has no area, or is off screen. A quad crossing the near plane takes the whole screen
// (its projection is unbounded there). Conservative: the per-pixel test decides.
SD_FUNC vec4 sdRasterPixelBounds(BillboardQuad q, RasterCamera cam) {
    vec4 empty = vec4(1.0f, 1.0f, 0.0f, 0.0f);
    if (dot(cross(q.half_x, q.half_y), cross(q.half_x, q.half_y)) <= 0.0f) return empty;
    vec2 lo = vec2(3.0e38f);
    vec2 hi = vec2(-3.0e38f);
    uint behind = 0u;
    uint beyond = 0u;
    for (uint i = 0u; i < 4u; ++i) {
        vec2 c = vec2(float(int(i & 1u)) * 2.0f - 1.0f, float(int(i >> 1u)) * 2.0f - 1.0f);
        vec3 p = sdQuadPoint(q, c);
        float depth = dot(p - cam.eye, cam.forward);
        if (depth >= cam.far_m) beyond += 1u;
        if (depth <= cam.near_m) {
            behind += 1u;
            continue;
        }
        vec4 clip = cam.c0 * p.x + cam.c1 * p.y + cam.c2 * p.z + cam.c3;
        vec2 pixel = (vec2(clip.x, clip.y) / clip.w * 0.5f + vec2(0.5f)) * cam.viewport;
        lo = min(lo, pixel);
        hi = max(hi, pixel);
    }
    if (behind == 4u || beyond == 4u) return empty;
    if (behind > 0u) {
        lo = vec2(0.0f);
        hi = cam.viewport;
    }
    // Pixel centres are at integer + 0.5: pixel k is inside when lo <= k + 0.5 <= hi.
    vec2 first = max(floor(lo - vec2(0.5f + kRasterBoundsSlack)) + vec2(1.0f), vec2(0.0f));
    vec2 last = min(floor(hi - vec2(0.5f - kRasterBoundsSlack)), cam.viewport - vec2(1.0f));
    if (first.x > last.x || first.y > last.y) return empty;
    return vec4(first, last);
}

// The tiles of sdRasterPixelBounds, packed (sdRasterPackRect); empty when the bounds are.
SD_FUNC uvec2 sdRasterTileRect(vec4 bounds) {
    if (bounds.x > bounds.z || bounds.y > bounds.w) {
        return uvec2(kRasterEmptyRect0, kRasterEmptyRect1);
    }
    uvec4 r =
        uvec4(uint(bounds.x), uint(bounds.y), uint(bounds.z), uint(bounds.w)) / kRasterTileSize;
    return sdRasterPackRect(r);
}

// The view ray through the centre of pixel (x, y), scaled so that its linear view depth is 1:
// the point at ray parameter t has linear depth t. sx, sy: the projection's scales (the lengths
// of clip_from_world's x and y rows; y is flipped, as in Vulkan clip space).
SD_FUNC vec3 sdRasterRay(vec2 pixel_centre, RasterCamera cam) {
    float sx = length(vec3(cam.c0.x, cam.c1.x, cam.c2.x));
    float sy = length(vec3(cam.c0.y, cam.c1.y, cam.c2.y));
    vec2 ndc = pixel_centre / cam.viewport * 2.0f - vec2(1.0f);
    return cam.forward + cam.right * (ndc.x / sx) - cam.up * (ndc.y / sy);
}

// A quad as the blend pass stages it: its plane and its two axes, relative to the eye, so a
// pixel finds its corner with a few dot products (sdRasterHit).
struct RasterSplat {
    vec4 plane;  // xyz: the plane's normal cross(half_x, half_y); w: dot(center - eye, normal)
    vec4 axis_x; // xyz: half_x / |half_x|^2; w: dot(center - eye, xyz)
    vec4 axis_y; // likewise for half_y
};

SD_FUNC RasterSplat sdRasterSplat(BillboardQuad q, vec3 eye) {
    vec3 o = q.center - eye;
    vec3 n = cross(q.half_x, q.half_y);
    float hx2 = dot(q.half_x, q.half_x);
    float hy2 = dot(q.half_y, q.half_y);
    vec3 ax = hx2 > 0.0f ? q.half_x / hx2 : vec3(0.0f);
    vec3 ay = hy2 > 0.0f ? q.half_y / hy2 : vec3(0.0f);
    RasterSplat s;
    s.plane = vec4(n, dot(o, n));
    s.axis_x = vec4(ax, dot(o, ax));
    s.axis_y = vec4(ay, dot(o, ay));
    return s;
}

// Where the ray (sdRasterRay) meets the quad's plane: xy the corner (the quad covers the pixel
// when both are in [-1, 1]), z the linear view depth, w 1 when the ray meets the plane in front
// of the eye, else 0 (parallel to it, or behind).
SD_FUNC vec4 sdRasterHit(RasterSplat s, vec3 ray) {
    float dn = dot(ray, vec3(s.plane));
    if (dn == 0.0f) return vec4(0.0f);
    float t = s.plane.w / dn;
    if (!(t > 0.0f)) return vec4(0.0f);
    vec2 corner =
        vec2(t * dot(ray, vec3(s.axis_x)) - s.axis_x.w, t * dot(ray, vec3(s.axis_y)) - s.axis_y.w);
    return vec4(corner, t, 1.0f);
}

// The lit sphere's frame of a staged quad (what the vertex shader passes the fragment shader):
// the unit axes (fallbacks as there) and the facing normal on the eye's side.
SD_FUNC vec3 sdRasterFacing(RasterSplat s) {
    vec3 n = sdUnitOr(vec3(s.plane), vec3(0.0f, 0.0f, 1.0f));
    // center - eye is on the far side: the eye sees the face whose normal points back at it.
    return s.plane.w > 0.0f ? -n : n;
}

// Front-to-back compositing of one fragment under what is in front of it, the same result as
// drawing the fragments back to front with the pipeline's blend state (billboard.h,
// sdBillboardOutput; render/particle_bindings.cpp): out is the fragment shader's output; colour
// accumulates premultiplied light, transmittance what still shows of everything behind.
// - additive (ONE, ONE):                      colour += T * out.rgb
// - premultiplied (ONE, ONE_MINUS_SRC_ALPHA): colour += T * out.rgb,       T *= 1 - out.a
// - alpha (SRC_ALPHA, ONE_MINUS_SRC_ALPHA):   colour += T * out.rgb * a,   T *= 1 - out.a
// The frame behind is added last: frame = colour + T * frame (sdRasterComposite).
SD_FUNC void sdRasterUnder(vec4 out_color, uint blend, SD_INOUT(vec3) colour,
                           SD_INOUT(float) transmittance) {
    vec3 rgb = vec3(out_color);
    if (blend == kBlendAlpha) rgb = rgb * out_color.w;
    colour = colour + rgb * transmittance;
    if (blend != kBlendAdditive) transmittance = transmittance * (1.0f - out_color.w);
}

SD_FUNC vec4 sdRasterComposite(vec3 colour, float transmittance, vec4 frame) {
    return vec4(colour + vec3(frame) * transmittance,
                1.0f - transmittance + frame.w * transmittance);
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(RasterJob, 160);
static_assert(offsetof(RasterJob, records) == 64);
static_assert(offsetof(RasterJob, order) == 80);
static_assert(offsetof(RasterJob, overrides) == 96);
static_assert(offsetof(RasterJob, count) == 128);
static_assert(offsetof(RasterJob, bases) == 144);
SD_ASSERT_RECORD(RasterPush, 80);
static_assert(offsetof(RasterPush, jobs) == 16);
static_assert(offsetof(RasterPush, ranges) == 64);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_COMPUTE_RASTER_H
