// The appearance of a strip fragment, for the colour draw (strip.frag) and the motion draw
// (strip_motion.frag, whose coverage is this output's alpha): texture (u along, v across) or the
// soft band, lighting, soft fade and the blend-mode output, all from the billboard kernels
// (src/render/shader/billboard.h through strip_draw.h). The variant flags are specialisation
// constants at both call sites, so the branches fold. Needs strip_draw.h, lighting.h and
// frame_bindings.glsl.
#ifndef SPINDRIFT_SHADERS_STRIP_SHADE_GLSL
#define SPINDRIFT_SHADERS_STRIP_SHADE_GLSL

// What the vertex stage hands the fragment stage.
struct StripFragment {
    float u;
    float across;       // -1 .. +1 over the band (clamped here)
    vec4 color;         // the point's linear colour, straight alpha
    float linear_depth; // metres
    vec3 side;          // lit only: the band's unit side and facing, its world position
    vec3 facing;
    vec3 position;
};

// The output sdBillboardOutput gives for the fragment, before the emissive share. scene_depth:
// the opaque scene's linear depth at the pixel (read only with soft_fade).
vec4 shadeStrip(sampler2D tex, StripParams p, StripFragment f, float scene_depth, uint textured,
                uint lit, uint soft_fade) {
    float across = clamp(f.across, -1.0, 1.0);
    vec4 texel = textured != 0u ? texture(tex, sdStripUv(f.u, across))
                                : sdSoftBandTexel(across, p.blend);
    vec4 tint = f.color;
    if (lit != 0u) {
        vec3 n = sdStripNormal(across, sdUnitOr(f.side, frame.camera_right.xyz),
                               sdUnitOr(f.facing, -frame.camera_forward.xyz));
        // The whole light model, as lit billboards and meshes take it: the shadowed sun,
        // ambient, the sky and the frame's clustered point and spot lights.
        tint.rgb *= frameLight(n, f.position);
    }
    tint = sdEmissiveTint(tint, p.emissive);
    float fade = 1.0;
    if (soft_fade != 0u) fade = sdSoftFade(scene_depth, f.linear_depth, p.soft_fade_distance);
    return sdBillboardOutput(texel, tint, p.blend, fade);
}

#endif
