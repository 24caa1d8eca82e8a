// What the renderer's tests on lavapipe share whatever their frame: diagnostics as text, a solid
// texture, the records and emitter parameters they draw, a point light. The pixel tests of a
// square frame seen straight down add square_frame_fixture.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/mesh_params.h"
#include "render/renderer.h"

namespace spindrift::render::test {

inline std::string errors(const std::vector<Diagnostic>& d) {
    std::string s;
    for (const Diagnostic& x : d) s += formatDiagnostic(x) + "\n";
    return s;
}

// A 2 x 2 texture of one colour.
inline Image solidTexture(uint8_t r, uint8_t g, uint8_t b, uint8_t a) {
    Image image;
    image.width = image.height = 2;
    for (int i = 0; i < 4; ++i) image.rgba8.insert(image.rgba8.end(), {r, g, b, a});
    return image;
}

// An untextured billboard (a soft disc) of this colour: no rotation, flipbook frame or key.
inline DrawRecord particle(vec3 position, float size, vec4 color, vec3 velocity = vec3(0)) {
    return sdDrawRecord(position, size, color, velocity, 0.0f, 0.5f, 0.0f, 0u, 0u);
}

// A white particle of this alpha, standing still: a puff of smoke.
inline DrawRecord puff(vec3 position, float size, float alpha) {
    return sdDrawRecord(position, size, vec4(1, 1, 1, alpha), vec3(0), 0.0f, 0.5f, 0.0f, 0u, 0u);
}

inline LightDesc pointLight(Float3 position, float intensity, float range) {
    LightDesc l;
    l.position = position;
    l.intensity = intensity;
    l.range = range;
    return l;
}

// Strips of `blend`, their colour as given (emissive 1).
inline StripParams stripParamsFor(uint32_t blend) {
    StripParams p{};
    p.blend = blend;
    p.emissive = 1;
    return p;
}

// What the renderer draws a mesh emitter with (meshParams): `blend`, the mesh scaled by `scale`,
// lit or not, its colour as given (emissive 1).
inline MeshParams meshParamsFor(uint32_t blend, float scale = 1, bool lit = false) {
    EmitterRecord e{};
    e.blend = blend;
    e.render_flags = lit ? kRenderFlagLit : 0u;
    e.mesh_scale = scale;
    e.lifetime_min_s = e.lifetime_max_s = 1;
    e.emission = vec4(1, 0, 0, 0); // emissive 1: the colour as given
    return meshParams(e);
}

} // namespace spindrift::render::test
