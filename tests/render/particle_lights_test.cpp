// Particle lights (render/particle_lights.h): which of an emitter's drawn particles become point
// lights, by each selection rule, within the cap, and what each light is.
#include "render/particle_lights.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

// Record i at x = i, of brightness `luminance[i]` (grey) and normalised age `age[i]`.
std::vector<DrawRecord> records(const std::vector<float>& luminance,
                                const std::vector<float>& age) {
    std::vector<DrawRecord> out;
    for (size_t i = 0; i < luminance.size(); ++i) {
        out.push_back(sdDrawRecord(vec3(float(i), 1, 0), 0.5f,
                                   vec4(luminance[i], luminance[i], luminance[i], 1), vec3(0), 0,
                                   age[i], 0, 0u, 0u));
    }
    return out;
}

ParticleLightRecord settings(uint32_t count, uint32_t select, uint32_t every_k = 1) {
    ParticleLightRecord s{};
    s.count = count;
    s.select = select;
    s.every_k = every_k;
    s.intensity = 2;
    s.range_m = 5;
    return s;
}

std::vector<float> xs(const std::vector<LightDesc>& lights) {
    std::vector<float> out;
    for (const LightDesc& l : lights) out.push_back(l.position.x);
    return out;
}

TEST(ParticleLights, BrightestPicksTheBrightestInOrderOfBrightness) {
    const auto r = records({0.1f, 0.9f, 0.3f, 0.7f, 0.5f, 0.8f}, std::vector<float>(6, 0.5f));
    std::vector<LightDesc> out;
    appendParticleLights(settings(3, kParticleLightBrightest), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{1, 5, 3}));
    // Each light is its particle: colour rgb x alpha, the emitter's intensity and range.
    EXPECT_EQ(out[0].type, LightKind::point);
    EXPECT_FLOAT_EQ(out[0].color.x, 0.9f);
    EXPECT_FLOAT_EQ(out[0].position.y, 1.0f);
    EXPECT_EQ(out[0].intensity, 2.0f);
    EXPECT_EQ(out[0].range, 5.0f);
}

TEST(ParticleLights, BrightnessIsColourTimesAlpha) {
    std::vector<DrawRecord> r = records({1.0f, 0.6f}, {0.5f, 0.5f});
    r[0].color.w = 0.2f; // bright but faint: 0.2 against 0.6
    std::vector<LightDesc> out;
    appendParticleLights(settings(1, kParticleLightBrightest), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{1}));
}

TEST(ParticleLights, OldestPicksTheFurthestThroughTheirLives) {
    const auto r = records(std::vector<float>(5, 0.5f), {0.2f, 0.95f, 0.1f, 0.6f, 0.96f});
    std::vector<LightDesc> out;
    appendParticleLights(settings(2, kParticleLightOldest), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{4, 1}));
}

TEST(ParticleLights, EveryKthTakesDrawPositionsZeroKTwoKUpToTheCount) {
    const auto r = records(std::vector<float>(20, 0.5f), std::vector<float>(20, 0.5f));
    std::vector<LightDesc> out;
    appendParticleLights(settings(3, kParticleLightEveryKth, 4), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{0, 4, 8}));
    out.clear();
    appendParticleLights(settings(16, kParticleLightEveryKth, 7), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{0, 7, 14}));
}

TEST(ParticleLights, TiesGoToTheEarlierRecordAndBlackParticlesMakeNoLight) {
    const auto r = records({0.5f, 0.0f, 0.5f, 0.5f, 0.0f}, std::vector<float>(5, 0.5f));
    std::vector<LightDesc> out;
    appendParticleLights(settings(2, kParticleLightBrightest), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{0, 2}));
    out.clear();
    appendParticleLights(settings(16, kParticleLightOldest), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{0, 2, 3})); // the black ones are never lights
    out.clear();
    appendParticleLights(settings(16, kParticleLightEveryKth, 1), r, out);
    EXPECT_EQ(xs(out), (std::vector<float>{0, 2, 3}));
}

TEST(ParticleLights, NeverMoreThanTheCountOrTheCapAndAppendsAfterWhatIsThere) {
    std::vector<float> lum(1000), age(1000);
    for (size_t i = 0; i < lum.size(); ++i) {
        lum[i] = float((i * 7919) % 1000) / 1000.0f + 0.001f;
        age[i] = 0.5f;
    }
    const auto r = records(lum, age);
    std::vector<LightDesc> out(2);
    appendParticleLights(settings(kMaxParticleLights, kParticleLightBrightest), r, out);
    ASSERT_EQ(out.size(), 2u + kMaxParticleLights);
    for (size_t i = 3; i < out.size(); ++i) EXPECT_GE(out[i - 1].color.x, out[i].color.x);
    // The brightest of all 1000 is first.
    float brightest = 0;
    for (float l : lum) brightest = std::max(brightest, l);
    EXPECT_FLOAT_EQ(out[2].color.x, brightest);
    // A corrupt count above the cap is held to it.
    out.clear();
    appendParticleLights(settings(1000, kParticleLightBrightest), r, out);
    EXPECT_EQ(out.size(), size_t{kMaxParticleLights});
    out.clear();
    appendParticleLights(settings(0, kParticleLightBrightest), r, out);
    EXPECT_TRUE(out.empty());
}

} // namespace
} // namespace spindrift::render
