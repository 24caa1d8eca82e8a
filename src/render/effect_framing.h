// The box an effect's particles are drawn in, measured by playing it: what the default scene of
// an effect (defaultSceneForEffect) frames, since an effect's authored bounds are a conservative
// box for culling that is often much larger than what it shows.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift::render {

// Times sampled over the measured span, and the quantiles kept at each (a stray particle does not
// widen the frame). FramingConfig's defaults are what `spindrift render EFFECT` uses.
struct FramingConfig {
    uint32_t samples = 12;       // evenly spread times, midpoints of equal slices of the span
    float low_quantile = 0.02f;  // of each axis' lower particle edges, at each time
    float high_quantile = 0.98f; // of the upper edges
    float max_span_s = 30;       // the span measured is at most this long (cost bound)
    // A particle counts when it stands out: alpha at least this (additive: alpha x its
    // brightest colour channel, since a dim additive particle adds little), so a large faint glow
    // that washes over the scene (a lightning flash) does not widen the frame.
    float min_visibility = 0.15f;
    // Particles wholly below this height are hidden by the ground and do not count (the default
    // scene's ground, defaultGroundHeight; -infinity: none).
    float ground_y = -std::numeric_limits<float>::infinity();
};

// Plays the effect file at `path` (.json or .sfx) alone at the origin on the CPU backend (so the
// result is the same on every machine) and returns in `out` the box its visible particles are
// drawn in: at each sample time over [0, span], per axis the low and high quantiles of the
// particles' edges (a billboard's centre +- half its size, stretched ones +- half their stretched
// length, a decal (fixed alignment) only across its axis; a mesh's +- size x mesh scale; a strip
// point's +- half its width), and the union of those boxes over the times. span is the effect's
// duration (duration_s, at least 0.1 s) cut to its developed time or longest particle chain
// (scene_player.h, developedTime), whichever is longer, and to max_span_s. Returns false with no
// diagnostic when nothing visible is ever drawn, and false with the loader's diagnostics when the
// file does not load.
bool measureDrawnBounds(const std::string& path, Bounds& out, std::vector<Diagnostic>& diagnostics,
                        const FramingConfig& config = {});

} // namespace spindrift::render
