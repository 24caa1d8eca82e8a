// The sky light (render/sky_ambient.h and sdShAmbient in src/render/shader/lighting.h, the text
// the shaders run): a uniform sky lights as the same ambient would, a bright zenith lights what
// faces up and not what faces down, ground light the reverse, against the exact irradiance; a
// black sky is nothing; an invalid sky is named.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "render/sky_ambient.h"

namespace spindrift::render {
namespace {

const vec3 kUp(0, 1, 0);
const vec3 kDown(0, -1, 0);
const vec3 kSide(1, 0, 0);

TEST(SkyAmbient, AUniformSkyLightsAsTheSameAmbient) {
    SkyDesc sky;
    sky.zenith = sky.horizon = sky.ground = {0.2f, 0.4f, 0.8f};
    sky.intensity = 2;
    const AmbientSh sh = skyAmbientSh(sky);
    for (vec3 n : {kUp, kDown, kSide, normalize(vec3(1, 2, 3)), normalize(vec3(-1, -0.5f, 2))}) {
        const vec3 e = sdShAmbient(n, sh);
        EXPECT_NEAR(e.x, 0.4f, 0.004f);
        EXPECT_NEAR(e.y, 0.8f, 0.008f);
        EXPECT_NEAR(e.z, 1.6f, 0.016f);
    }
}

// Zenith only: radiance Z y above the horizon (y the direction's up component). The exact
// irradiance / pi facing up is the integral of Z y * y * 2 pi dy over [0, 1], over pi: 2 Z / 3;
// facing sideways, the integral of Z y * max(x, 0) over the upper hemisphere, over pi: Z / 4;
// facing down 0. Order 2 holds these to a few percent of Z.
TEST(SkyAmbient, TheZenithLightsWhatFacesUpAndTheGroundWhatFacesDown) {
    SkyDesc zenith;
    zenith.zenith = {1, 1, 1};
    const AmbientSh up_sky = skyAmbientSh(zenith);
    EXPECT_NEAR(sdShAmbient(kUp, up_sky).x, 2.0f / 3.0f, 0.04f);
    EXPECT_NEAR(sdShAmbient(kSide, up_sky).x, 0.25f, 0.04f);
    EXPECT_NEAR(sdShAmbient(kDown, up_sky).x, 0.0f, 0.04f);
    EXPECT_GE(sdShAmbient(kDown, up_sky).x, 0.0f); // clamped, never negative light

    // Ground only: the lower hemisphere uniform G: facing down G, facing up 0, sideways G / 2.
    SkyDesc ground;
    ground.ground = {0.5f, 0.25f, 0.1f};
    const AmbientSh down_sky = skyAmbientSh(ground);
    EXPECT_NEAR(sdShAmbient(kDown, down_sky).x, 0.5f, 0.03f);
    EXPECT_NEAR(sdShAmbient(kSide, down_sky).x, 0.25f, 0.01f);
    EXPECT_NEAR(sdShAmbient(kUp, down_sky).x, 0.0f, 0.03f);
    EXPECT_NEAR(sdShAmbient(kDown, down_sky).z, 0.1f, 0.01f);
}

TEST(SkyAmbient, ABlackSkyIsNothing) {
    const AmbientSh sh = skyAmbientSh(SkyDesc{});
    for (const vec4& c : sh.c) EXPECT_EQ(c, vec4(0.0f));
    SkyDesc off;
    off.zenith = {1, 1, 1};
    off.intensity = 0;
    EXPECT_EQ(sdShAmbient(kUp, skyAmbientSh(off)), vec3(0.0f));
}

TEST(SkyAmbient, InvalidSkiesAreNamed) {
    EXPECT_EQ(skyProblem(SkyDesc{}), "");
    SkyDesc bad;
    bad.zenith = {0, -1, 0};
    EXPECT_EQ(skyProblem(bad), "zenith components must be finite and >= 0");
    bad = SkyDesc{};
    bad.ground = {std::numeric_limits<float>::quiet_NaN(), 0, 0};
    EXPECT_EQ(skyProblem(bad), "ground components must be finite and >= 0");
    bad = SkyDesc{};
    bad.intensity = std::numeric_limits<float>::infinity();
    EXPECT_EQ(skyProblem(bad), "intensity must be in [0, 10000]");
}

} // namespace
} // namespace spindrift::render
