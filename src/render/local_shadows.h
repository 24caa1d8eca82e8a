// Which of a frame's lights cast shadows and where their shadow maps look (docs/rendering.md,
// "Shadows of local lights"): the FrameLocalShadows the receivers read
// (render/shader/local_shadow.h) and the views the caster passes draw each tile with. One
// function, called by the renderer each frame and by the tests.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "render/renderer.h"
#include "render/shader/local_shadow.h"
#include "render/sun_shadows.h"

namespace spindrift::render {

struct LocalShadowFit {
    FrameLocalShadows shadows{}; // for the camera's FrameGlobals; config.x 0: none
    uint32_t count = 0;          // tiles in use
    uint32_t lights = 0;         // lights with tiles (a point light has kPointShadowFaces)
    std::array<SunView, kLocalShadowTiles> views{}; // each tile's perspective view
    // Lights that asked for shadows whose tiles no longer fitted (they shade unshadowed).
    uint32_t dropped = 0;
    // Blended billboard and strip batches drawn into every tile of the local opacity atlas (those
    // that cast into the sun's opacity map: castsOpacityShadow); 0 when no tile is in use.
    uint32_t opacity_batches = 0;
};

// Fits the frame's local-light shadows: with view.shadows.enabled, the lights the frame shades
// with (the first kMaxFrameLights of view.lights) that have `shadows` and some intensity get
// tiles of view.shadows.resolution texels a side, in order, while they fit in kLocalShadowTiles:
// a spot one, looking from the light along its direction over its outer cone
// (sdLocalShadowTanHalfFov); a point light kPointShadowFaces, the faces of a cube
// (kPointShadowTanHalfFov). The rest that ask are counted in `dropped`. Every view reaches from
// range x kLocalShadowNearFraction to the light's range. When tiles are in use and `batches`
// hold blended casters (castsOpacityShadow), they are drawn into the local opacity atlas too
// (config.z: its tile resolution, sdLocalOpacityResolution of view.shadows.opacity_resolution).
// The lights must be valid (lightProblem).
LocalShadowFit fitLocalShadows(const FrameView& view, std::span<const DrawBatch> batches = {});

} // namespace spindrift::render
