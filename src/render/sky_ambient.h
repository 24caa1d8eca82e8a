// The sky light of a frame (docs/rendering.md, "Sky light"): a SkyDesc's radiance projected onto
// the order-2 spherical harmonics the shaders evaluate (sdShAmbient, render/shader/lighting.h).
#pragma once

#include <string>

#include "render/shader/lighting.h"
#include "spindrift/scene_desc.h"

namespace spindrift::render {

// What is wrong with a sky the scene format would refuse (a colour component negative or not
// finite, intensity outside [0, kMaxSkyIntensity] or not finite), or "" when it is valid.
std::string skyProblem(const SkyDesc& sky);

// The sky's radiance in direction d (unit, world space): zenith at d.y = 1 blending linearly in
// d.y to horizon at d.y = 0, ground below, all times intensity.
vec3 skyRadiance(const SkyDesc& sky, vec3 d);

// skyRadiance projected onto the 9 basis functions (sdShBasis) by quadrature over the sphere
// (64 bands of elevation, exact in azimuth: the sky is the same all round, so only the m = 0
// terms are non-zero). All zero for a black sky. Pure and cheap (about 600 evaluations).
AmbientSh skyAmbientSh(const SkyDesc& sky);

} // namespace spindrift::render
