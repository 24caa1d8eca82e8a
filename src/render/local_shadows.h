// Which of a frame's lights cast shadows and where their shadow maps look (docs/rendering.md,
// "Shadows of spot lights"): the FrameLocalShadows the receivers read
// (render/shader/local_shadow.h) and the views the caster passes draw each tile with. One function,
// called by the renderer each frame and by the tests.
#pragma once

#include <array>
#include <cstdint>

#include "render/renderer.h"
#include "render/shader/local_shadow.h"
#include "render/sun_shadows.h"

namespace spindrift::render {

struct LocalShadowFit {
    FrameLocalShadows shadows{}; // for the camera's FrameGlobals; config.x 0: none
    uint32_t count = 0;          // tiles in use
    std::array<SunView, kMaxShadowedLights> views{}; // each tile's perspective view
    // Lights that asked for shadows past the kMaxShadowedLights with tiles (they shade unshadowed).
    uint32_t dropped = 0;
};

// Fits the frame's local-light shadows: with view.shadows.enabled, the first kMaxShadowedLights
// of the lights the frame shades with (the first kMaxFrameLights of view.lights) that are spot
// lights with `shadows` and some intensity each get a tile of view.shadows.resolution texels a
// side, in order; the rest that ask are counted in `dropped`. Each tile looks from the light along
// its direction over its outer cone (sdLocalShadowTanHalfFov) from range x
// kLocalShadowNearFraction to its range. The lights must be valid (lightProblem).
LocalShadowFit fitLocalShadows(const FrameView& view);

} // namespace spindrift::render
