// The light clusters of a frame (docs/rendering.md, "Light clusters"; the cluster maths is
// src/render/shader/lighting.h, the same text the shaders look clusters up with): which of the
// frame's lights can reach each cluster of the view frustum, as one 64-bit mask per cluster.
#pragma once

#include <cstdint>

#include "render/shader/frame_globals.h"

namespace spindrift::render {

// Fills g.light_clusters from g's camera (eye, axes, near and far, clip_from_world's scales) and
// its first g.light_count.x lights. A light is bound by its sphere (position, range): every
// cluster that sphere's view-space box can project into gets its bit, so a point a light reaches
// always finds the light in its cluster (conservative; a spot light is bound by its whole sphere).
// Lights wholly behind the eye, past the far plane or off screen mark no cluster. Cost: at most
// kMaxFrameLights x kLightClusterCount bit sets; no allocation.
void binLightClusters(FrameGlobals& g);

// How many (cluster, light) pairs g's masks hold: the loop iterations a frame whose pixels were
// spread evenly over the clusters would pay per pixel, times kLightClusterCount.
uint64_t lightClusterPairs(const FrameGlobals& g);

} // namespace spindrift::render
