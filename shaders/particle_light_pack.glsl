// A ParticleLight (lighting.h: four rgb vectors) as 12 half floats in two uvec3, for the paths
// that carry one per quad: billboard.vert to billboard.frag (two flat varyings instead of four
// vec3) and the compute rasteriser's shared-memory staging (raster_blend.comp). Each component is
// clamped to the largest finite half first, so an extreme light saturates instead of turning
// into infinity (and NaN in the blend). Needs lighting.h included before.

const float kParticleLightHalfMax = 65504.0;

vec3 sdParticleLightHalfRange(vec3 v) {
    return clamp(v, vec3(-kParticleLightHalfMax), vec3(kParticleLightHalfMax));
}

void sdPackParticleLight(ParticleLight l, out uvec3 first, out uvec3 second) {
    vec3 base = sdParticleLightHalfRange(l.base);
    vec3 x = sdParticleLightHalfRange(l.x);
    vec3 y = sdParticleLightHalfRange(l.y);
    vec3 z = sdParticleLightHalfRange(l.z);
    first = uvec3(packHalf2x16(base.xy), packHalf2x16(vec2(base.z, x.x)), packHalf2x16(x.yz));
    second = uvec3(packHalf2x16(y.xy), packHalf2x16(vec2(y.z, z.x)), packHalf2x16(z.yz));
}

ParticleLight sdUnpackParticleLight(uvec3 first, uvec3 second) {
    vec2 a = unpackHalf2x16(first.x);
    vec2 b = unpackHalf2x16(first.y);
    vec2 c = unpackHalf2x16(first.z);
    vec2 d = unpackHalf2x16(second.x);
    vec2 e = unpackHalf2x16(second.y);
    vec2 f = unpackHalf2x16(second.z);
    return ParticleLight(vec3(a, b.x), vec3(b.y, c), vec3(d, e.x), vec3(e.y, f));
}
