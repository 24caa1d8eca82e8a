// The appearance of a billboard at one point of its quad, for both draw paths: the fragment
// shader (billboard.frag) and the compute rasteriser's tile blend (raster_blend.comp) call this
// one function, so a change to how a particle looks reaches both (../shared/DESIGN.md, "One text
// for the shared maths"). Texture or soft disc, flipbook frames, lighting, soft fade, and the
// blend-mode output (src/render/shader/billboard.h); the caller blends the result (the pipeline's
// blend state, or sdRasterUnder). The variant flags are specialisation constants at both call
// sites, so the branches fold. Needs billboard.h, lighting.h and frame_bindings.glsl.
#ifndef SPINDRIFT_SHADERS_BILLBOARD_SHADE_GLSL
#define SPINDRIFT_SHADERS_BILLBOARD_SHADE_GLSL

// What the vertex stage hands the fragment stage (or the tile blend works out per pixel).
struct BillboardPoint {
    vec2 corner;        // in [-1, 1]^2 over the quad
    vec4 color;         // the record's linear colour, straight alpha
    float frame;        // the record's flipbook_frame
    float linear_depth; // of this point, metres
    vec3 axis_x;        // lit only: the quad's unit axes and its normal on the eye's side
    vec3 axis_y;
    vec3 facing;
    vec3 position; // lit only: the point's world position (the frame's lights shade it)
    vec2 size_m;   // textured only: the quad's full width and height, metres (its mip level)
    ParticleLight light; // lit per particle only: the lights gathered at the centre
};

// Textures are sampled at an explicit level (sdBillboardTextureLod, capped by the LOD clamp
// sdBillboardMaxLod), the same on both paths: the compute rasteriser has no derivatives to pick one.
vec4 sampleBillboardFlipbook(sampler2D tex, BillboardParams p, BillboardPoint b,
                             bool blend_frames) {
    FlipbookSample s = sdFlipbookSample(b.frame, p.flipbook_frames, blend_frames);
    vec2 uv = sdQuadUv(b.corner);
    vec2 size = vec2(textureSize(tex, 0));
    vec2 cell = size / vec2(max(p.flipbook_columns, 1u), max(p.flipbook_rows, 1u));
    float lod = min(sdBillboardTextureLod(cell, b.size_m, b.linear_depth, pixelScale()),
                    sdBillboardMaxLod(cell));
    // The inset: half a texel at the level sampled, so the bilinear footprint stays in the cell.
    // Continuous in the level (not the coarser level's), so the two paths, whose levels differ
    // by rounding, never land either side of a jump; between levels the coarser one's footprint
    // may touch the next cell by less than half a texel, on the quad's outermost texels only.
    vec2 coarsest = max(size / exp2(lod), vec2(1.0));
    vec4 texel = textureLod(
        tex, sdFlipbookCellUv(uv, s.frame0, p.flipbook_columns, p.flipbook_rows, coarsest), lod);
    if (blend_frames) {
        vec2 uv1 = sdFlipbookCellUv(uv, s.frame1, p.flipbook_columns, p.flipbook_rows, coarsest);
        texel = mix(texel, textureLod(tex, uv1, lod), s.blend);
    }
    return texel;
}

// The output sdBillboardOutput gives for the point (lit: kBillboardLit*); scene_depth: the opaque scene's linear depth
// at the pixel (read only with soft_fade).
vec4 shadeBillboard(sampler2D tex, BillboardParams p, BillboardPoint b, float scene_depth,
                    uint textured, uint lit, uint soft_fade, uint frame_blend) {
    vec4 texel = textured != 0u
                     ? sampleBillboardFlipbook(tex, p, b, frame_blend != 0u)
                     : sdSoftDiscTexel(b.corner, p.blend);
    vec4 tint = b.color;
    if (lit != kBillboardUnlit) {
        vec3 n = sdBillboardSphereNormal(b.corner, b.axis_x, b.axis_y, b.facing);
        tint.rgb *= lit == kBillboardLitPerParticle
                        ? sdParticleLightAt(b.light, n) + sdShAmbient(n, frame.ambient_sh)
                        : frameLight(n, b.position);
    }
    tint = sdEmissiveTint(tint, p.emissive);
    float fade = 1.0;
    if (soft_fade != 0u) fade = sdSoftFade(scene_depth, b.linear_depth, p.soft_fade_distance);
    return sdBillboardOutput(texel, tint, p.blend, fade);
}

#endif
