// The appearance of a mesh fragment, for the colour draw (mesh.frag) and the motion draw
// (mesh_motion.frag, whose coverage is this output's alpha): the texture at the vertex's (u, v)
// when the batch has one, times the record's colour, lit when the emitter is lit (the one lighting
// model, src/render/shader/lighting.h), and the blend-mode output (sdMeshOutput), before the
// emissive share. The variant flags are specialisation constants at both call sites, so the
// branches fold. Needs mesh.h, lighting.h and frame_bindings.glsl.
#ifndef SPINDRIFT_SHADERS_MESH_SHADE_GLSL
#define SPINDRIFT_SHADERS_MESH_SHADE_GLSL

vec4 shadeMesh(sampler2D tex, vec4 color, vec2 uv, vec3 normal, vec3 world_position,
               float emissive, uint blend, uint textured, uint lit) {
    vec4 tint = color;
    if (lit != 0u) {
        // Interpolated normals shorten between vertices: renormalise.
        vec3 n = sdUnitOr(normal, -frame.camera_forward.xyz);
        tint.rgb *= frameLight(n, world_position);
    }
    tint = sdEmissiveTint(tint, emissive);
    vec4 texel = textured != 0u ? texture(tex, uv) : vec4(1.0);
    return sdMeshOutput(texel, tint, blend);
}

#endif
