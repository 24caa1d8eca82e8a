// Distortion billboards (heat haze, shock waves, glass shards; docs/rendering.md, "Distortion"):
// the maths the distortion fragment shader (shaders/billboard_distortion.frag) and the CPU-side
// tests share, in the C++/GLSL subset (shared_types.h).
//
// A distortion billboard draws no colour of its own. Each of its pixels shows the frame as it was
// before the distortion phase, read at a point displaced across the quad: the displacement is a
// field over the quad (the texture's red and green channels, or the procedural lens below) times
// render.distortion times the particle's alpha, in units of the quad's half extents, so it shrinks
// with distance like the particle and turns with it.
#ifndef SPINDRIFT_RENDER_SHADER_DISTORTION_H
#define SPINDRIFT_RENDER_SHADER_DISTORTION_H

#include "kernels/sd_math.h"
#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// The displacement field of an untextured distortion billboard at quad corner coordinate c in
// [-1, 1]^2: a lens that pulls the image toward the centre, xy along the quad's axes (units of
// its half extents), zero at the centre and on the rim (r = |c| = 1), largest at r = 1/sqrt(3);
// w the coverage (1 inside the disc, 0 outside). A positive strength magnifies what is behind
// the middle of the disc, a negative one shrinks it (a shock wave's bright ring of squeezed image).
SD_FUNC vec4 sdDistortionLens(vec2 c) {
    float r2 = dot(c, c);
    if (r2 >= 1.0f) return vec4(0.0f, 0.0f, 0.0f, 0.0f);
    vec2 d = c * (-(1.0f - r2));
    return vec4(d.x, d.y, 0.0f, 1.0f);
}

// The field of a textured distortion billboard from its texel (the texture holds data, not
// colour: it is sampled as UNORM, never sRGB-decoded): red and green map [0, 1] to [-1, 1]
// (0.5 is no displacement; green up, along the quad's +y, the image's up), alpha is the coverage.
SD_FUNC vec4 sdDistortionTexel(vec4 texel) {
    return vec4(texel.x * 2.0f - 1.0f, texel.y * 2.0f - 1.0f, 0.0f, texel.w);
}

// The world-space displacement of a point of the quad: field (xy along the quad's half axes
// half_x and half_y, w coverage) times strength (render.distortion) times weight (the particle's
// alpha and the soft fade).
SD_FUNC vec3 sdDistortionDisplacement(vec4 field, vec3 half_x, vec3 half_y, float strength,
                                      float weight) {
    float k = strength * weight * field.w;
    return (half_x * field.x + half_y * field.y) * k;
}

// Where (pixels) to read the frame behind the point `here_px`: the displaced point's pixel
// `there_px`, unless the scene there (scene_depth_there: the nearest of the texels the filtered
// read mixes) is nearer the eye than the particle (an opaque surface in front of the haze must
// not be pulled into it) or it falls outside the viewport; then here.
SD_FUNC vec2 sdDistortionSourcePixel(vec2 here_px, vec2 there_px, float scene_depth_there,
                                     float particle_depth, vec2 viewport_px) {
    bool inside = there_px.x >= 0.0f && there_px.y >= 0.0f && there_px.x < viewport_px.x &&
                  there_px.y < viewport_px.y;
    if (!inside || scene_depth_there < particle_depth) return here_px;
    return there_px;
}

SD_END_NAMESPACE

#endif
