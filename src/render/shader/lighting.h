// The one lighting model of the renderer, shared by opaque surfaces and lit particles: a
// directional sun (Lambert) plus a constant ambient term, all linear RGB.
#ifndef SPINDRIFT_RENDER_SHADER_LIGHTING_H
#define SPINDRIFT_RENDER_SHADER_LIGHTING_H

#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// The light reaching a surface of unit normal n: ambient + sun_radiance * max(dot(n, sun), 0),
// with sun_direction the unit vector toward the sun. Multiplies the surface colour.
SD_FUNC vec3 sdSunAmbient(vec3 n, vec3 sun_direction, vec3 sun_radiance, vec3 ambient) {
    return ambient + sun_radiance * max(dot(n, sun_direction), 0.0f);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_RENDER_SHADER_LIGHTING_H
