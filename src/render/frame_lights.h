// A frame's point and spot lights on their way to the GPU (docs/rendering.md, "Lights"): the check
// renderFrame makes of each, the FrameLight it becomes, and the bound kMaxFrameLights with its
// count of the dropped ones. One function each, so the offscreen and the host frame agree.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "render/shader/lighting.h"
#include "spindrift/scene_desc.h"

namespace spindrift::render {

// What is wrong with a light the scene format would refuse (non-finite or out-of-range numbers,
// an unknown type, a zero spot direction, inner_deg >= outer_deg), or "" when it is valid.
std::string lightProblem(const LightDesc& light);

// The light as the shaders read it: radiance = colour * intensity; a spot's direction normalised
// and its angles as cosines; a point light's cone terms kPointLightCosOuter/Inner.
FrameLight frameLight(const LightDesc& light);

// Of `lights`, those the frame shades with (the first kMaxFrameLights) and those it drops.
struct LightCounts {
    uint32_t drawn = 0;
    uint32_t dropped = 0;
};
LightCounts frameLightCounts(std::span<const LightDesc> lights);

} // namespace spindrift::render
