// Compute rasteriser, pass 5 of 5, one job (a billboard batch) over the frame: one workgroup per
// 16 x 16 tile, one invocation per pixel. The tile's pairs are in draw order (back to front for a
// sorted batch); they are staged nearest first, kRasterTilePixels at a time, in shared memory
// (each invocation places one quad: sdBillboardQuad, as the vertex shader does), and each pixel
// composites them front to back (sdRasterUnder) with the fragment shader's own appearance
// (shadeBillboard), depth-tested against the opaque scene's linear depth as the graphics path
// tests against its depth buffer, until almost nothing behind shows
// (kRasterStopTransmittance); then it puts the sum over the frame (sdRasterComposite). A fixed
// loop over a stable order and no float atomics: the same image every run.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#define SD_SUN_SHADOWS 1 // receives sun shadows (frame_bindings.glsl)
#include "raster_common.glsl"
#include "lighting.h"
#include "particle_light_pack.glsl"
#include "billboard_shade.glsl"

// The billboard variant's specialisation constants (the same ids as the graphics pipeline's).
layout(constant_id = kSpecBillboardBlend) const uint kVariantBlend = 0u;
layout(constant_id = kSpecBillboardAlignment) const uint kVariantAlignment = 0u;
layout(constant_id = kSpecBillboardTextured) const uint kVariantTextured = 0u;
layout(constant_id = kSpecBillboardLit) const uint kVariantLit = 0u;
layout(constant_id = kSpecBillboardSoftFade) const uint kVariantSoftFade = 0u;
layout(constant_id = kSpecBillboardFrameBlend) const uint kVariantFrameBlend = 0u;

layout(set = kSetFrame, binding = kBindingSceneDepth) uniform sampler2D scene_depth;
layout(set = kSetFrame, binding = kBindingRasterFrame, rgba16f) uniform image2D frame_color;
layout(set = kSetTexture, binding = kBindingTexture) uniform sampler2D particle_texture;

layout(local_size_x = kRasterTileSize, local_size_y = kRasterTileSize) in;

shared RasterSplat s_splat[kRasterTilePixels];
shared vec4 s_bounds[kRasterTilePixels]; // sdRasterPixelBounds: most quads miss most pixels
shared vec4 s_color[kRasterTilePixels];
shared float s_frame[kRasterTilePixels];
// Lit per particle: each staged quad's ParticleLight (lighting.h), gathered once as it is staged
// and kept as 12 half floats (6 words), so the staging stays within 32 KiB of shared memory; the
// other variants keep one unused entry.
const uint kStagedLightWords = kVariantLit == kBillboardLitPerParticle ? 6u * kRasterTilePixels : 1u;
shared uint s_light[kStagedLightWords];
shared uint s_done;

void stageParticleLight(uint slot, ParticleLight l) {
    uvec3 first;
    uvec3 second;
    sdPackParticleLight(l, first, second);
    uint w = slot * 6u;
    s_light[w] = first.x;
    s_light[w + 1u] = first.y;
    s_light[w + 2u] = first.z;
    s_light[w + 3u] = second.x;
    s_light[w + 4u] = second.y;
    s_light[w + 5u] = second.z;
}

ParticleLight stagedParticleLight(uint slot) {
    uint w = slot * 6u;
    return sdUnpackParticleLight(uvec3(s_light[w], s_light[w + 1u], s_light[w + 2u]),
                                 uvec3(s_light[w + 3u], s_light[w + 4u], s_light[w + 5u]));
}

void main() {
    RasterJob job = rasterJob();
    BillboardParams p = job.params;
    p.blend = kVariantBlend;
    p.alignment = kVariantAlignment;
    uvec2 tile = gl_WorkGroupID.xy;
    uvec2 range = RasterPairRef(push.ranges).v[job.bases.y + tile.y * push.grid.y + tile.x];
    if (range.x >= range.y) return; // uniform over the workgroup

    uint lane = gl_LocalInvocationIndex;
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    RasterCamera cam = rasterCamera();
    bool inside = pixel.x < int(cam.viewport.x) && pixel.y < int(cam.viewport.y);
    float scene = inside ? texelFetch(scene_depth, pixel, 0).r : 0.0;
    vec3 ray = sdRasterRay(vec2(pixel) + vec2(0.5), cam);
    RasterWordRef payloads = RasterWordRef(push.payloads);

    vec3 colour = vec3(0.0);
    float transmittance = 1.0;
    bool done = !inside;
    bool touched = false;
    uint count = range.y - range.x;
    uint base = 0u;
    for (; base < count; base += kRasterTilePixels) {
        if (lane == 0u) s_done = 0u;
        if (base + lane < count) {
            DrawRecord r = rasterRecord(job, payloads.v[range.y - 1u - base - lane]);
            BillboardQuad q = rasterQuad(p, r);
            s_splat[lane] = sdRasterSplat(q, cam.eye);
            s_bounds[lane] = sdRasterPixelBounds(q, cam);
            s_color[lane] = r.color;
            s_frame[lane] = r.flipbook_frame;
            if (kVariantLit == kBillboardLitPerParticle) {
                // The vertex stage's gathering (billboard.vert), once per staged quad.
                stageParticleLight(lane, frameParticleLight(q.center, sdQuadFacing(q, cam.eye)));
            }
        }
        barrier();
        uint staged = min(kRasterTilePixels, count - base);
        uint k = 0u;
        vec2 here = vec2(pixel);
        for (; !done && k < staged; ++k) {
            vec4 bounds = s_bounds[k];
            if (here.x < bounds.x || here.y < bounds.y || here.x > bounds.z || here.y > bounds.w) {
                continue;
            }
            vec4 hit = sdRasterHit(s_splat[k], ray);
            if (hit.w == 0.0 || abs(hit.x) > 1.0 || abs(hit.y) > 1.0) continue;
            // The graphics path clips at the near and far planes and tests LESS against the
            // opaque depth; the scene's linear depth is that depth, linear.
            if (hit.z < cam.near_m || hit.z > cam.far_m || !(hit.z < scene)) continue;
            BillboardPoint b;
            b.corner = hit.xy;
            b.color = s_color[k];
            b.frame = s_frame[k];
            b.linear_depth = hit.z;
            b.axis_x = vec3(0.0);
            b.axis_y = vec3(0.0);
            b.facing = vec3(0.0);
            // The ray's forward component is 1 (sdRasterRay), so its length along the view is
            // the linear depth: the point the graphics path interpolates.
            b.position = cam.eye + ray * hit.z;
            b.size_m = vec2(0.0);
            if (kVariantTextured != 0u) {
                // axis_x is half_x / |half_x|^2 (sdRasterSplat): its length is 1 / |half_x|.
                vec2 inverse_half = vec2(length(s_splat[k].axis_x.xyz), length(s_splat[k].axis_y.xyz));
                b.size_m = 2.0 / max(inverse_half, vec2(1.0e-30));
            }
            if (kVariantLit != 0u) {
                b.axis_x = sdUnitOr(s_splat[k].axis_x.xyz, cam.right);
                b.axis_y = sdUnitOr(s_splat[k].axis_y.xyz, cam.up);
                b.facing = sdRasterFacing(s_splat[k]);
            }
            b.light = sdParticleLightAmbient(vec3(0.0));
            if (kVariantLit == kBillboardLitPerParticle) b.light = stagedParticleLight(k);
            // The emissive share as the sorted graphics path writes it (billboard.frag).
            vec4 out_color = sdEmissiveShare(
                shadeBillboard(particle_texture, p, b, scene, kVariantTextured, kVariantLit,
                               kVariantSoftFade, kVariantFrameBlend),
                p.emissive_share);
            sdRasterUnder(out_color, kVariantBlend, colour, transmittance);
            touched = true;
            if (transmittance < kRasterStopTransmittance) done = true;
        }
        if (!done && k != staged) rasterReportCutShort();
        if (done) atomicAdd(s_done, 1u);
        barrier();
        bool all_done = s_done == kRasterTilePixels;
        barrier(); // everyone has read s_done and the staged quads before they are replaced
        if (all_done) break;
    }
    if (base < count && s_done != kRasterTilePixels) rasterReportCutShort();
    if (!inside || !touched) return;
    vec4 behind = imageLoad(frame_color, pixel);
    imageStore(frame_color, pixel, sdRasterComposite(colour, transmittance, behind));
}
