// The procedural sample textures of examples/effects/textures/. Deterministic: the same build
// always produces the same pixels (value_noise.h says why), so a test regenerates them and
// compares with the committed files.
#pragma once

#include <span>

#include "image/image.h"

namespace spindrift::texgen {

// Flipbook atlases are kFlipbookColumns x kFlipbookRows frames, read left to right, top to
// bottom, each kFlipbookFrameSize pixels square; the last frame flows back into the first.
inline constexpr uint32_t kFlipbookColumns = 4;
inline constexpr uint32_t kFlipbookRows = 4;
inline constexpr uint32_t kFlipbookFrameSize = 64;

// A looping flame: a teardrop with a white-hot core going through yellow and orange to red tips
// and licking tongues, alpha from density. Premultiplied: rgb <= alpha-weighted colour, black
// where alpha is 0, so it blends additively or as premultiplied alpha. 256x256.
Image generateFlameAtlas();

// A looping, churning smoke puff: soft alpha from a domain-warped noise density, neutral grey
// (tint it with particle colour) lit from the upper left with darker undersides. Straight (not
// premultiplied) alpha; rgb is defined everywhere so filtering does not pull in dark fringes.
// 256x256.
Image generateSmokeAtlas();

// A bright spark: a white-hot point with a warm vertical streak, premultiplied. 32x32.
Image generateSpark();

// A soft radial glow, bright centre falling smoothly to zero at the edge, white, premultiplied.
// 64x64.
Image generateGlow();

// A heat-haze displacement field for distortion billboards (render.distortion): red and green
// hold the displacement (0.5 none; data, not colour), alpha the coverage of a soft disc, blue
// 0.5. 128x128.
Image generateHazeField();

struct GeneratedTexture {
    const char* file_name; // e.g. "flame_atlas.png"
    Image (*generate)();
};

// Every texture spindrift-texgen writes, in a fixed order.
std::span<const GeneratedTexture> generatedTextures();

} // namespace spindrift::texgen
