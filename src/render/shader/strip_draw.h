// Drawing strips (src/kernels/strip.h holds the StripPoint both backends write): the push
// constants of the strip pass and the vertex maths its shaders run, in the C++/GLSL subset so the
// CPU-side tests run the same text. Each segment between two consecutive points of one polyline
// is a camera-facing quad whose edges at a point are shared with the neighbouring segment, so a
// polyline is one seamless band (docs/rendering.md, "Strips").
//
// FROZEN: StripParams and StripPushConstants are a push-constant block (offsets pinned below).
#ifndef SPINDRIFT_RENDER_SHADER_STRIP_DRAW_H
#define SPINDRIFT_RENDER_SHADER_STRIP_DRAW_H

#include "billboard.h"
#include "kernels/sd_math.h"
#include "kernels/shared_types.h"
#include "kernels/strip.h"

SD_BEGIN_NAMESPACE

// What the strip shaders read for one batch (an emitter): the billboard settings that apply to a
// band. FROZEN: a push-constant block (std430 offsets == C++ offsets, pinned below).
struct StripParams {
    uint blend;               // kBlend*
    uint render_flags;        // kRenderFlag* (only kRenderFlagLit matters to a strip)
    float soft_fade_distance; // metres; 0 disables the soft fade
    uint textured;            // 0: procedural soft band, 1: the bound texture
    float emissive;           // render.emissive (sdEmissiveTint)
    float emissive_share;     // render.emissive_share (sdEmissiveShare)
    uint pad0;
    uint pad1;
};

// The whole push-constant block of a strip draw. points.xy / segments.xy are the buffer device
// addresses (low, high 32 bits) of the batch's first StripPoint and first segment index,
// points.z / segments.z their counts; .w is 0. Segment indices count from the batch's first point.
// Drawn from device blocks (kSpecStripBlocks, render::DeviceStrips): points.xy the first block's
// address, points.w the points per block; segments.xy the address of the per-block point counts;
// the z fields 0.
// velocities, read by the motion variant only (kSpecStripMotion; docs/rendering.md, "Motion
// vectors"): host points, velocities.xy the address of one vec4 per point (xyz its world velocity,
// m/s), parallel to the points from the batch's first; device blocks, velocities.xy the polylines'
// DrawRecords as BillboardPushConstants::records (z chunk_records, w first_in_chunk), polyline i's
// velocity that of record i. velocities.xy 0: the points stand still.
struct StripPushConstants {
    StripParams params;
    uvec4 points;
    uvec4 segments;
    DrawOverrides overrides; // applied to each point read (sdOverriddenPoint)
    uvec4 velocities;
};

// A strip point as drawn under the overrides: colour x tint, width x size_scale, as the draw list
// applies them to host points.
SD_FUNC StripPoint sdOverriddenPoint(StripPoint p, DrawOverrides o) {
    p.position_width.w *= o.size_scale;
    p.color *= o.tint;
    return p;
}

// Specialisation-constant ids of the strip shaders (all uint): each batch draws with a pipeline
// variant compiled for its blend and features, as billboards do (billboard.h).
SD_CONST uint kSpecStripBlend = 0u;    // kBlend*
SD_CONST uint kSpecStripTextured = 1u; // 0: soft band, 1: texture
SD_CONST uint kSpecStripLit = 2u;      // 1: kRenderFlagLit
SD_CONST uint kSpecStripSoftFade = 3u; // 1: soft_fade_distance > 0
SD_CONST uint kSpecStripOit = 4u;      // 1: writes the OIT targets (kernels/oit.h)
SD_CONST uint kSpecStripBlocks = 5u;   // 1: polylines in fixed blocks on the device
// 1: the motion-vector variant (strip_motion.frag): the vertex stage hands over each vertex's
// previous clip position (sdMotionPreviousClip) from its point's velocity.
SD_CONST uint kSpecStripMotion = 6u;
// A sun shadow caster (docs/rendering.md, "Shadows"), drawn with the sun's orthographic view in
// the frame block: 0 drawn in the frame; kStripCasterOpacity: optical depth into the opacity map;
// kStripCasterCutout: depth into the cascades where at least half covered.
SD_CONST uint kSpecStripCaster = 7u;
SD_CONST uint kSpecStripCount = 8u;

SD_CONST uint kStripCasterOpacity = 1u;
SD_CONST uint kStripCasterCutout = 2u;

// Vertices per segment: two triangles, no index buffer (vertex pulling). Vertex i of a batch's
// draw is corner i % 6 (sdQuadCorner) of segment i / 6; the corner's x picks the end (-1: the
// segment's first point, +1: its second), its y the edge (-1 or +1, the "across" coordinate).
SD_CONST uint kStripVerticesPerSegment = 6u;

// The unit vector across the band at a point: perpendicular to the tangent and to the direction
// to the eye, so the band shows its full width to the camera and turns about its own line. Where
// the tangent points at the eye (|cross| <= kBillboardMinSine * |to_eye|) it is built from the
// camera's up instead, as axis-aligned billboards do; a zero tangent (coincident points) gives
// the camera's right. Both ends of a segment use their own point's tangent, so two segments
// meeting at a point share that point's edge vertices exactly: the band has no gap or crease.
SD_FUNC vec3 sdStripSide(vec3 position, vec3 tangent, vec3 eye, vec3 camera_right, vec3 camera_up) {
    vec3 to_eye = eye - position;
    vec3 side = cross(tangent, to_eye);
    float side_length = length(side);
    if (side_length <= kBillboardMinSine * length(to_eye)) {
        side = cross(tangent, camera_up);
        side_length = length(side);
    }
    return side_length > 0.0f ? side / side_length : camera_right;
}

// The unit normal of the band at a point, on the eye's side: the direction to the eye with its
// component along the tangent removed (the front of a tube along the strip).
SD_FUNC vec3 sdStripFacing(vec3 position, vec3 tangent, vec3 eye) {
    vec3 to_eye = eye - position;
    return sdUnitOr(to_eye - tangent * dot(to_eye, tangent),
                    sdUnitOr(to_eye, vec3(0.0f, 0.0f, 1.0f)));
}

// Bands thinner than this on screen are drawn this wide with their alpha scaled down by the
// ratio, so a far or thin strip stays a continuous faint line with the light it would have had
// (sub-pixel triangles would otherwise cover only some pixel centres and break into dashes).
SD_CONST float kStripMinWidthPixels = 1.0f;

// The width a point is drawn with (x) and the factor its alpha is scaled by (y): width when it
// covers at least kStripMinWidthPixels, else that many pixels' worth with alpha scaled by
// width / drawn width. pixels_per_metre: the screen scale at the point (0: no minimum).
SD_FUNC vec2 sdStripDrawnWidth(float width, float pixels_per_metre) {
    float min_width = pixels_per_metre > 0.0f ? kStripMinWidthPixels / pixels_per_metre : 0.0f;
    if (width >= min_width) return vec2(width, 1.0f);
    return vec2(min_width, max(width, 0.0f) / min_width);
}

// Drawn from fixed blocks of points_per_block points (one polyline each, its point count
// apart): segment `segment` of the draw is segment segment % (points_per_block - 1) of block
// segment / (points_per_block - 1); its first point is x of the result, its block y.
SD_FUNC uvec2 sdStripBlockSegment(uint segment, uint points_per_block) {
    uint per_block = points_per_block - 1u;
    uint block = segment / per_block;
    return uvec2(block * points_per_block + segment % per_block, block);
}

// Whether that segment is drawn: its second point is one of the block's point_count points.
SD_FUNC bool sdStripBlockSegmentDrawn(uint segment, uint points_per_block, uint point_count) {
    return segment % (points_per_block - 1u) + 1u < point_count;
}

// One vertex of a segment's quad, for the shaders and the CPU-side tests.
struct StripVertex {
    vec3 position; // world
    vec4 color;    // the point's colour
    float u;       // texture u: the point's tangent_u.w
    float across;  // -1 at one edge, +1 at the other; texture v = 0.5 - 0.5 * across
    vec3 side;     // unit, from the -1 edge toward the +1 edge
    vec3 facing;   // unit normal of the band toward the eye (lit strips)
};

// Corner `corner_index` (0..5, sdQuadCorner) of the segment from point a to point b: at the end
// the corner's x picks, the point's position plus across * side * width / 2 (sdStripSide), the
// width at least kStripMinWidthPixels (sdStripDrawnWidth). pixel_scale: pixels per metre at one
// metre of linear view depth along camera_forward (viewport height / (2 tan(fov / 2))); 0 turns
// the minimum off.
SD_FUNC StripVertex sdStripVertex(StripPoint a, StripPoint b, uint corner_index, vec3 eye,
                                  vec3 camera_right, vec3 camera_up, vec3 camera_forward,
                                  float pixel_scale) {
    vec2 corner = sdQuadCorner(corner_index);
    StripPoint p = corner.x > 0.0f ? b : a;
    vec3 center = vec3(p.position_width);
    vec3 tangent = vec3(p.tangent_u);
    float depth = dot(center - eye, camera_forward);
    float pixels_per_metre = depth > 0.0f ? pixel_scale / depth : 0.0f;
    vec2 drawn = sdStripDrawnWidth(p.position_width.w, pixels_per_metre);
    StripVertex v;
    v.side = sdStripSide(center, tangent, eye, camera_right, camera_up);
    v.position = center + v.side * (0.5f * drawn.x * corner.y);
    v.color = vec4(vec3(p.color), p.color.w * drawn.y);
    v.u = p.tangent_u.w;
    v.across = corner.y;
    v.facing = sdStripFacing(center, tangent, eye);
    return v;
}

// The eye the vertex of corner `corner_index` of the segment from a to b is built for: the
// frame's eye, or, for a sun caster (an orthographic view: every point looks at the sun along
// forward), one metre back toward the sun from the vertex's own point, so the band shows the sun
// its full width everywhere, as camera-facing billboards face the sun in its view; at that depth
// the pixel scale is the map's texels per metre, so the minimum width is one texel.
SD_FUNC vec3 sdStripEye(StripPoint a, StripPoint b, uint corner_index, vec3 eye, vec3 forward,
                        bool sun_caster) {
    if (!sun_caster) return eye;
    StripPoint p = sdQuadCorner(corner_index).x > 0.0f ? b : a;
    return vec3(p.position_width) - forward;
}

// Texture coordinates of a strip fragment: u repeats (its fractional part; the texture is
// sampled clamped to the edge, so the repeat happens here), v runs 0 at across = +1 to 1 at -1
// (the image's top row on the +1 edge, as a billboard's top is at c.y = +1).
SD_FUNC vec2 sdStripUv(float u, float across) {
    return vec2(fract(u), 0.5f - 0.5f * across);
}

// The untextured strip: the billboard's soft disc through the band's middle line, (1 - a^2)^2
// for a = across, so the band is brightest on its line and fades to 0 at both edges.
SD_FUNC vec4 sdSoftBandTexel(float across, uint blend) {
    return sdSoftDiscTexel(vec2(0.0f, across), blend);
}

// Lit strips: the normal of a tube along the strip, across * side + sqrt(1 - across^2) * facing
// (the billboard sphere normal through the quad's middle line).
SD_FUNC vec3 sdStripNormal(float across, vec3 side, vec3 facing) {
    return sdBillboardSphereNormal(vec2(0.0f, across), vec3(0.0f), side, facing);
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(StripParams, 32);
static_assert(offsetof(StripParams, soft_fade_distance) == 8);
SD_ASSERT_RECORD(StripPushConstants, 112);
static_assert(offsetof(StripPushConstants, points) == 32);
static_assert(offsetof(StripPushConstants, segments) == 48);
static_assert(offsetof(StripPushConstants, overrides) == 64);
static_assert(offsetof(StripPushConstants, velocities) == 96);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_STRIP_DRAW_H
