// How a billboard particle becomes a quad: the parameters the billboard shaders read for one
// emitter, the corner placement, the flipbook cell lookup and the blend-mode output, written once
// in the C++/GLSL subset (shared_types.h) so the shaders and the CPU-side tests run the same text
// (docs/rendering.md, "Renderer").
//
// FROZEN: BillboardParams and BillboardPushConstants are a push-constant block (std430 offsets ==
// C++ offsets, pinned below).
//
// Quad convention: a corner is c in [-1, 1]^2. c.x runs along the quad's side axis, c.y along its
// long (up) axis; texture v = 0 (the image's top row) is at c.y = +1. A camera-facing quad with
// rotation 0 has c.x along the camera's right and c.y along its up; a positive rotation turns it
// counter-clockwise as the camera sees it.
#ifndef SPINDRIFT_RENDER_SHADER_BILLBOARD_H
#define SPINDRIFT_RENDER_SHADER_BILLBOARD_H

#include "kernels/draw_record.h"
#include "kernels/effect_records.h"
#include "kernels/sd_math.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

struct BillboardParams {
    vec4 axis_stretch;        // xyz: world-space unit axis (kAlignAxis: the long axis; kAlignFixed:
                              // the quad's normal); w: stretch in seconds (kAlignVelocityStretch)
    uint alignment;           // kAlign*
    uint blend;               // kBlend*
    uint render_flags;        // kRenderFlag* (lit, frame blend, ...)
    uint flipbook_frames;     // >= 1
    uint flipbook_columns;    // >= 1
    uint flipbook_rows;       // >= 1
    float soft_fade_distance; // metres; 0 disables the soft fade
    uint textured;            // 0: procedural soft disc, 1: the bound texture
    float emissive;           // render.emissive: the colour's multiplier in the HDR target
    float emissive_share;     // render.emissive_share in [0, 1] (sdEmissiveShare)
    float distortion;         // render.distortion (kRenderFlagDistortion): shader/distortion.h
    uint pad1;
};

// The instance overrides a draw applies to every record (or strip point) it reads: colour x tint,
// size (a strip's width) x size_scale (World::setTint, setSizeScale). The draw list applies them
// to host records itself, so only batches drawn from the device carry other than 1 here.
// FROZEN: the last member of each particle pass's push-constant block (offsets pinned below).
struct DrawOverrides {
    vec4 tint;        // linear RGBA multiplier; finite, >= 0
    float size_scale; // finite, >= 0
    uint pad0;
    uint pad1;
    uint pad2;
};

// A record as drawn under the overrides: the same multiply the draw list applies on the host.
SD_FUNC DrawRecord sdOverriddenRecord(DrawRecord r, DrawOverrides o) {
    r.position_size.w *= o.size_scale;
    r.color *= o.tint;
    return r;
}

// The whole push-constant block of a billboard draw: the emitter's parameters and where its
// records are. records.xy is a buffer device address (low, high 32 bits): with records.z 0, of
// the batch's first DrawRecord; otherwise of a table of 64-bit draw-record chunk addresses, each
// chunk records.z records, record 0 at index records.w of the table's first chunk
// (sdDrawRecordPlace, shaders/draw_record_fetch.glsl: a GPU emitter's records in one draw, past
// the buffer limit too). order.xy is 0, or the address of uint indices: quad i draws record
// order[i] (a GPU-sorted draw order over all the chunks); order.zw are 0. overrides: applied to
// each record read (sdOverriddenRecord).
struct BillboardPushConstants {
    BillboardParams params;
    uvec4 records;
    uvec4 order;
    DrawOverrides overrides;
};

// Push constants of the draw-argument pass (shaders/draw_args.comp): turns a live count the
// device wrote (at `count`) into a VkDrawIndirectCommand (at `args`) drawing
// min(count, max_records) records of vertices_per_record vertices each (billboards: a quad per
// record; device strips, render/device_draw_args.h: a polyline per record), or with `instanced`
// one instance of vertices_per_record vertices per record (meshes: the mesh's vertex count).
struct DrawArgsPush {
    uvec2 count; // address of a uint
    uvec2 args;  // address of 4 uints: vertexCount, instanceCount, firstVertex, firstInstance
    uint max_records;
    uint instanced; // 0: records x vertices_per_record vertices, 1 instance; 1: an instance each
    uint vertices_per_record; // kBillboardVerticesPerQuad; a device strip's 6 x its segments
    uint pad2;
};

// Specialisation-constant ids of the billboard shaders (all uint). Each batch draws with a
// pipeline variant compiled for its blend, alignment and features, so a device that runs both
// sides of every branch (lavapipe does) pays only for what the batch uses; on a GPU they are
// free either way. The push constants carry the same values for the kernels' sake.
SD_CONST uint kSpecBillboardBlend = 0u;      // kBlend*
SD_CONST uint kSpecBillboardAlignment = 1u;  // kAlign*
SD_CONST uint kSpecBillboardTextured = 2u;   // 0: soft disc, 1: texture
SD_CONST uint kSpecBillboardLit = 3u;        // kBillboardLit* (sdBillboardLitVariant)
SD_CONST uint kSpecBillboardSoftFade = 4u;   // 1: soft_fade_distance > 0
SD_CONST uint kSpecBillboardFrameBlend = 5u; // 1: kRenderFlagFrameBlend (and textured)
SD_CONST uint kSpecBillboardOit = 6u;        // 1: writes the OIT targets (render/shader/oit.h)
SD_CONST uint kSpecBillboardDistortion = 7u; // 1: kRenderFlagDistortion (billboard_distortion.frag)
// 1: the motion-vector variant (billboard_motion.frag): the vertex stage hands over the velocity
SD_CONST uint kSpecBillboardMotion = 8u;
SD_CONST uint kSpecBillboardCount = 9u;

// kSpecBillboardLit's values: unlit, lit per pixel, lit per particle (render.lighting).
SD_CONST uint kBillboardUnlit = 0u;
SD_CONST uint kBillboardLitPerPixel = 1u;
SD_CONST uint kBillboardLitPerParticle = 2u;

// The lit variant of an emitter's render flags (kRenderFlagLit, kRenderFlagLitPerParticle).
SD_FUNC uint sdBillboardLitVariant(uint render_flags) {
    if ((render_flags & kRenderFlagLit) == 0u) return kBillboardUnlit;
    return (render_flags & kRenderFlagLitPerParticle) != 0u ? kBillboardLitPerParticle
                                                            : kBillboardLitPerPixel;
}

// The largest finite half float, the most the HDR target (RGBA16F) holds.
SD_CONST float kHalfFloatMax = 65504.0f;
// Below this speed (m/s) a velocity-stretched particle has no direction and faces the camera.
SD_CONST float kBillboardMinSpeed = 1.0e-4f;
// Below this |cross(axis, to_eye)| / |to_eye| the axis points at the eye and the side axis
// falls back to one built from the camera's up (the quad is seen edge-on either way).
SD_CONST float kBillboardMinSine = 1.0e-4f;
// Vertices per particle: two triangles, no index buffer (vertex pulling).
SD_CONST uint kBillboardVerticesPerQuad = 6u;

// A placed quad: world-space centre and half-extent vectors along the corner's x and y.
struct BillboardQuad {
    vec3 center;
    vec3 half_x;
    vec3 half_y;
};

// Corner i (0..5) of the two triangles (-1,-1) (1,-1) (1,1) and (-1,-1) (1,1) (-1,1); bit i of
// 0x16 / 0x34 says whether x / y is +1.
SD_FUNC vec2 sdQuadCorner(uint i) {
    float x = float(int((0x16u >> i) & 1u)) * 2.0f - 1.0f;
    float y = float(int((0x34u >> i) & 1u)) * 2.0f - 1.0f;
    return vec2(x, y);
}

// Texture coordinates of a corner (v = 0 at the top, c.y = +1).
SD_FUNC vec2 sdQuadUv(vec2 corner) {
    return vec2(corner.x * 0.5f + 0.5f, 0.5f - corner.y * 0.5f);
}

// Two unit axes a, b rotated by angle_rad in their plane (a toward b).
SD_FUNC BillboardQuad sdRotatedQuad(vec3 center, vec3 a, vec3 b, float angle_rad, float half_size) {
    float s;
    float c;
    sdSinCos(angle_rad, s, c);
    BillboardQuad q;
    q.center = center;
    q.half_x = (a * c + b * s) * half_size;
    q.half_y = (b * c - a * s) * half_size;
    return q;
}

// A quad spanned by the unit long axis and a side axis perpendicular to it that faces the eye
// (the quad turns about the long axis). half_long and half_side are the half extents.
SD_FUNC BillboardQuad sdAxisQuad(vec3 center, vec3 axis, vec3 eye, vec3 camera_up, float half_long,
                                 float half_side) {
    vec3 to_eye = eye - center;
    vec3 side = cross(axis, to_eye);
    float side_length = length(side);
    if (side_length <= kBillboardMinSine * length(to_eye)) {
        side = cross(axis, camera_up);
        side_length = length(side);
    }
    side = side_length > 0.0f ? side / side_length : vec3(1.0f, 0.0f, 0.0f);
    BillboardQuad q;
    q.center = center;
    q.half_x = side * half_side;
    q.half_y = axis * half_long;
    return q;
}

// Where a particle's quad is, for the four alignments (kAlign*). eye is the camera position,
// camera_right / camera_up its unit view-plane axes, all in the space of the records (world).
// - camera: in the view plane, rotated by the record's rotation; edge = size.
// - velocity_stretch: long axis along the velocity, length size + speed * stretch, width size,
//   side axis facing the camera, centred on the particle; camera alignment below
//   kBillboardMinSpeed. Rotation is not applied (it would turn the streak off its velocity).
// - axis: long axis = params axis, turned about it toward the camera; edge = size; no rotation.
// - fixed: a decal whose normal is params axis (sdPlaneBasis), rotated in its plane.
SD_FUNC BillboardQuad sdBillboardQuad(DrawRecord r, BillboardParams p, vec3 eye, vec3 camera_right,
                                      vec3 camera_up) {
    vec3 center = vec3(r.position_size);
    float half_size = 0.5f * r.position_size.w;
    float rotation = r.velocity_rotation.w;
    BillboardQuad q = sdRotatedQuad(center, camera_right, camera_up, rotation, half_size);
    if (p.alignment == kAlignVelocityStretch) {
        vec3 velocity = vec3(r.velocity_rotation);
        float speed = length(velocity);
        if (speed > kBillboardMinSpeed) {
            float half_long = half_size + 0.5f * speed * p.axis_stretch.w;
            q = sdAxisQuad(center, velocity / speed, eye, camera_up, half_long, half_size);
        }
    } else if (p.alignment == kAlignAxis) {
        q = sdAxisQuad(center, vec3(p.axis_stretch), eye, camera_up, half_size, half_size);
    } else if (p.alignment == kAlignFixed) {
        vec3 t1;
        vec3 t2;
        sdPlaneBasis(vec3(p.axis_stretch), t1, t2);
        q = sdRotatedQuad(center, t1, t2, rotation, half_size);
    }
    return q;
}

// The world-space position of corner c of quad q.
SD_FUNC vec3 sdQuadPoint(BillboardQuad q, vec2 corner) {
    return q.center + q.half_x * corner.x + q.half_y * corner.y;
}

// The unit normal of the quad's plane, on the side the eye is on.
SD_FUNC vec3 sdQuadFacing(BillboardQuad q, vec3 eye) {
    vec3 n = sdUnitOr(cross(q.half_x, q.half_y), sdUnitOr(eye - q.center, vec3(0.0f, 0.0f, 1.0f)));
    return dot(n, eye - q.center) < 0.0f ? -n : n;
}

// Lit particles: the normal of a sphere bulging out of the quad toward the viewer at corner c
// (c inside the unit disc; outside it the rim normal). axis_x, axis_y: the quad's unit axes,
// facing: sdQuadFacing.
SD_FUNC vec3 sdBillboardSphereNormal(vec2 corner, vec3 axis_x, vec3 axis_y, vec3 facing) {
    float r2 = min(dot(corner, corner), 1.0f);
    vec3 n = axis_x * corner.x + axis_y * corner.y + facing * sqrt(1.0f - r2);
    return normalize(n);
}

// The untextured particle: a soft disc, 1 at the centre falling smoothly to 0 at the edge,
// (1 - r^2)^2 with r the distance from the centre in corner units (0 outside the disc).
SD_FUNC float sdSoftDisc(vec2 corner) {
    float t = clamp(1.0f - dot(corner, corner), 0.0f, 1.0f);
    return t * t;
}

// The two flipbook frames a fragment blends and the weight of the second. frame is a
// DrawRecord's flipbook_frame: its integer part the frame (clamped to [0, frames - 1]), its
// fractional part the blend toward the next frame when blend_frames; the frame after the last
// is frame 0.
struct FlipbookSample {
    uint frame0;
    uint frame1;
    float blend;
};
SD_FUNC FlipbookSample sdFlipbookSample(float frame, uint frames, bool blend_frames) {
    uint count = max(frames, 1u);
    float f = clamp(frame, 0.0f, float(count)); // keeps the conversion below defined
    uint whole = min(uint(f), count - 1u);
    FlipbookSample s;
    s.frame0 = whole;
    s.frame1 = whole + 1u == count ? 0u : whole + 1u;
    s.blend = blend_frames ? clamp(f - float(whole), 0.0f, 1.0f) : 0.0f;
    return s;
}

// The texture coordinates of uv (in [0, 1]^2 over the quad) inside cell `frame` of a
// columns x rows atlas, cells numbered left to right, top to bottom. uv is kept half a texel
// inside the cell (texture_size: the atlas in texels at the coarsest mip level sampled) so linear
// filtering does not bleed the neighbouring cell in.
SD_FUNC vec2 sdFlipbookCellUv(vec2 uv, uint frame, uint columns, uint rows, vec2 texture_size) {
    uint cols = max(columns, 1u);
    uint rws = max(rows, 1u);
    uint cell = min(frame, cols * rws - 1u);
    vec2 grid = vec2(float(cols), float(rws));
    vec2 inset = min(0.5f * grid / max(texture_size, vec2(1.0f)), vec2(0.5f));
    vec2 inside = clamp(uv, inset, vec2(1.0f) - inset);
    vec2 origin = vec2(float(cell % cols), float(cell / cols));
    return (origin + inside) / grid;
}

// Texture level of detail, worked out per billboard rather than from screen-space derivatives,
// so the fragment shader and the compute rasteriser (which has none) pick the same level.

SD_CONST float kInvLn2 = 1.44269504088896340736f; // 1 / ln(2): log2(x) = ln(x) / ln(2)

// The most one axis may be minified more than the other before the level follows it (as a
// GPU's anisotropic filter caps its ratio): a velocity-stretched spark keeps its soft
// cross-section instead of taking the level of its long axis and turning into a flat bar.
SD_CONST float kBillboardMaxAnisotropy = 8.0f;

// The mip level for a texture cell of cell_texels drawn over a quad of quad_size_m metres (its
// full width and height) at linear_depth metres: log2 of the texels per pixel, from the less
// minified axis unless the other is over kBillboardMaxAnisotropy times more minified (one sample,
// so that axis may alias a little; the hardware would take several). The quad's tilt away from
// the view is not counted. Never below 0.
SD_FUNC float sdBillboardTextureLod(vec2 cell_texels, vec2 quad_size_m, float linear_depth,
                                    float focal_pixels) {
    vec2 pixels = max(quad_size_m, vec2(1.0e-6f)) * (focal_pixels / max(linear_depth, 1.0e-6f));
    vec2 texels_per_pixel = cell_texels / pixels;
    float major = max(texels_per_pixel.x, texels_per_pixel.y);
    float minor = min(texels_per_pixel.x, texels_per_pixel.y);
    float rho = max(major / kBillboardMaxAnisotropy, minor);
    return max(sdLog(max(rho, 1.0f)) * kInvLn2, 0.0f);
}

// The LOD clamp: the coarsest level a billboard's texture cell (the whole image, or one frame of
// a flipbook atlas) is sampled at, where the cell still spans 4 texels along its shorter side.
// Past it a level's texels straddle neighbouring cells of an atlas (the chain is filtered over
// the whole atlas), so a small, distant particle would show its neighbours' frames; and even a
// single image loses the fall-off to its transparent edge, so a far particle would draw as a
// flat, hard-edged square.
SD_FUNC float sdBillboardMaxLod(vec2 cell_texels) {
    float side = min(cell_texels.x, cell_texels.y);
    // floor(log2(side)), nudged so an exact power of two is not rounded a level down.
    float level = float(sdFloorToInt(sdLog(max(side, 1.0f)) * kInvLn2 + 1.0e-4f));
    return max(level - 2.0f, 0.0f);
}

// The soft-particle fade: 0 where the particle touches the scene, 1 at soft_fade_distance
// metres in front of it (linear view depths); 1 when the fade is off (distance <= 0).
SD_FUNC float sdSoftFade(float scene_depth, float particle_depth, float soft_fade_distance) {
    return soft_fade_distance > 0.0f
               ? clamp((scene_depth - particle_depth) / soft_fade_distance, 0.0f, 1.0f)
               : 1.0f;
}

// What the fragment shader writes for a blend mode (the pipeline's blend state finishes it):
// texel is the linear texture sample, tint the record's linear colour with straight alpha
// (lighting already applied), fade the soft-particle factor. Textures drawn additive or
// premultiplied are premultiplied (their colour already carries their alpha: a glow's rim is
// black), textures drawn alpha-blended are straight alpha; the sample textures follow this.
// With dst the framebuffer colour, the result is
// - additive (ONE, ONE):                      dst + texel.rgb * tint.rgb * tint.a * fade
// - premultiplied (ONE, ONE_MINUS_SRC_ALPHA): texel.rgb * tint.rgb * tint.a * fade + dst * (1 - a)
// - alpha (SRC_ALPHA, ONE_MINUS_SRC_ALPHA):   rgb * a + dst * (1 - a)
// where rgb = texel.rgb * tint.rgb and a = texel.a * tint.a * fade.
SD_FUNC vec4 sdBillboardOutput(vec4 texel, vec4 tint, uint blend, float fade) {
    float a = texel.w * tint.w * fade;
    vec3 rgb = vec3(texel) * vec3(tint);
    vec4 out_color = vec4(rgb, a);
    if (blend != kBlendAlpha) {
        out_color = vec4(rgb * (tint.w * fade), a);
    }
    return out_color;
}

// Emissive (docs/rendering.md, "Emissive"). The colour a fragment draws is its lit colour times
// the emitter's emissive intensity, clamped to the largest half float so no Inf reaches the HDR
// target: above 1 it is light the bloom spreads.
SD_FUNC vec4 sdEmissiveTint(vec4 tint, float emissive) {
    vec3 rgb = clamp(vec3(tint) * emissive, vec3(0.0f), vec3(kHalfFloatMax));
    return vec4(rgb, tint.w);
}

// The emissive share s of a premultiplied output (C, a): the fragment still adds its whole
// colour C, but covers only a (1 - s) of what is behind it, so with the blend (ONE,
// ONE_MINUS_SRC_ALPHA) the frame becomes
//   C (1 - s) + dst (1 - a (1 - s))   [alpha share: premultiplied over]   +   C s   [additive]
// — with C = rgb * a, the alpha share's colour C (1 - s) over dst with coverage a (1 - s), and the
// emissive share C s added, as light is. s = 0 is plain premultiplied over, s = 1 plain additive.
// Only premultiplied draws carry a share (the rules refuse it elsewhere).
SD_FUNC vec4 sdEmissiveShare(vec4 blend_output, float emissive_share) {
    float s = clamp(emissive_share, 0.0f, 1.0f);
    return vec4(vec3(blend_output), blend_output.w * (1.0f - s));
}

// The alpha share alone of a premultiplied output (C, a): (C (1 - s), a (1 - s)), a
// premultiplied fragment that covers and colours in proportion to 1 - s. Weighted OIT
// accumulates this; the emissive share C s is drawn additively into the frame after the
// composite by a second draw of the batch (docs/rendering.md, "Emissive", emissiveShareDraw in
// renderer.cpp), so one layer gives exactly what sdEmissiveShare gives in sorted mode.
SD_FUNC vec4 sdEmissiveAlphaShare(vec4 blend_output, float emissive_share) {
    float s = clamp(emissive_share, 0.0f, 1.0f);
    return blend_output * (1.0f - s);
}

// The untextured texel for a blend mode: a white soft disc, premultiplied unless the mode is
// alpha (the same convention as textures).
SD_FUNC vec4 sdSoftDiscTexel(vec2 corner, uint blend) {
    float d = sdSoftDisc(corner);
    return blend != kBlendAlpha ? vec4(d, d, d, d) : vec4(1.0f, 1.0f, 1.0f, d);
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(BillboardParams, 64);
static_assert(offsetof(BillboardParams, alignment) == 16);
static_assert(offsetof(BillboardParams, soft_fade_distance) == 40);
static_assert(offsetof(BillboardParams, emissive) == 48);
SD_ASSERT_RECORD(DrawOverrides, 32);
static_assert(offsetof(DrawOverrides, size_scale) == 16);
// 128 bytes: every Vulkan device's push-constant minimum (maxPushConstantsSize).
SD_ASSERT_RECORD(BillboardPushConstants, 128);
static_assert(offsetof(BillboardPushConstants, records) == 64);
static_assert(offsetof(BillboardPushConstants, order) == 80);
static_assert(offsetof(BillboardPushConstants, overrides) == 96);
SD_ASSERT_RECORD(DrawArgsPush, 32);
} // namespace spindrift
#endif

#endif // SPINDRIFT_RENDER_SHADER_BILLBOARD_H
