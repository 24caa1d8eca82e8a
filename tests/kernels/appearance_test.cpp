// sdParticleAppearance and sdParticleDrawRecord (src/kernels/appearance.h): the one composition of
// a particle's drawn colour, size and draw record both backends call.
#include "kernels/appearance.h"

#include <vector>

#include <gtest/gtest.h>

#include "kernels/kernel_test_records.h"

namespace spindrift {
namespace {

// A LUT atlas whose row r is constant: every texel `values[r]`.
std::vector<vec4> constantRows(const std::vector<vec4>& values) {
    std::vector<vec4> lut;
    for (const vec4& v : values) lut.insert(lut.end(), kLutWidth, v);
    return lut;
}

// A LUT row ramping linearly from a (t = 0) to b (t = 1), texel i at t = i / (kLutWidth - 1).
void appendRamp(std::vector<vec4>& lut, vec4 a, vec4 b) {
    for (uint32_t i = 0; i < kLutWidth; ++i) {
        const float t = float(i) / float(kLutWidth - 1);
        lut.push_back(a * (1.0f - t) + b * t);
    }
}

OpRecord op(uint32_t kind, uint32_t row, vec4 params0 = vec4(0.0f)) {
    OpRecord r{};
    r.op = kind;
    r.lut_row = row;
    r.params0 = params0;
    return r;
}

TEST(ParticleAppearance, FoldsEveryAppearanceOpInOrderAndSkipsTheOthers) {
    const std::vector<vec4> lut =
        constantRows({vec4(0.5f, 1, 1, 0.5f), vec4(3, 0, 0, 0), vec4(1, 0.25f, 1, 1)});
    // A velocity op between the appearance ops is skipped; its row would zero everything.
    const std::vector<OpRecord> ops = {op(kOpAcceleration, kNone), op(kOpColorOverLife, 0),
                                       op(kOpSizeOverLife, 1), op(kOpDrag, kNone),
                                       op(kOpColorOverLife, 2)};
    const ParticleAppearance look =
        sdParticleAppearance(LutRef{lut.data()}, OpRecordsRef{ops.data()}, 0, 5, vec4(1, 1, 1, 1),
                             0.2f, 0.5f, 2.0f, vec3(1, 0, 0));
    EXPECT_EQ(look.color, vec4(0.5f, 0.25f, 1, 0.5f));
    EXPECT_FLOAT_EQ(look.size, 0.6f);
    EXPECT_EQ(look.normalized_age, 0.25f);
}

TEST(ParticleAppearance, BlackbodyTintsByTheTemperatureAtTheAgeTimesIntensity) {
    // Row 0 ramps from 1000 K (t = 0) to 7000 K (t = 1); at normalised age 0.5: 4000 K.
    std::vector<vec4> lut;
    appendRamp(lut, vec4(1000, 0, 0, 0), vec4(7000, 0, 0, 0));
    const std::vector<OpRecord> ops = {op(kOpBlackbody, 0, vec4(3, 0, 0, 0))};
    const ParticleAppearance look =
        sdParticleAppearance(LutRef{lut.data()}, OpRecordsRef{ops.data()}, 0, 1,
                             vec4(0.5f, 1, 2, 0.25f), 1.0f, 1.0f, 2.0f, vec3(0.0f));
    const vec3 expected = vec3(0.5f, 1, 2) * sdBlackbodyColor(4000.0f) * 3.0f;
    EXPECT_NEAR(look.color.x, expected.x, 1e-4f);
    EXPECT_NEAR(look.color.y, expected.y, 1e-4f);
    EXPECT_NEAR(look.color.z, expected.z, 1e-4f);
    EXPECT_EQ(look.color.w, 0.25f) << "alpha is not the blackbody's";
    EXPECT_EQ(look.size, 1.0f);
    EXPECT_GT(look.color.x, 1.0f) << "intensity 3 takes red past 1 (HDR)";
    EXPECT_GT(look.color.x / 0.5f, look.color.z / 2.0f) << "4000 K is warm: more red than blue";
}

TEST(ParticleAppearance, ReadsOnlyTheEmittersOpRange) {
    const std::vector<vec4> lut = constantRows({vec4(0.0f), vec4(2, 2, 2, 2)});
    const std::vector<OpRecord> ops = {op(kOpColorOverLife, 0), op(kOpColorOverLife, 1),
                                       op(kOpSizeOverLife, 0)};
    const ParticleAppearance look =
        sdParticleAppearance(LutRef{lut.data()}, OpRecordsRef{ops.data()}, 1, 1, vec4(0.25f), 1.0f,
                             0.0f, 1.0f, vec3(0.0f));
    EXPECT_EQ(look.color, vec4(0.5f)) << "only op 1 (row 1) applies";
    EXPECT_EQ(look.size, 1.0f);
}

TEST(ParticleAppearance, OverLifeSamplesTheAgeAndBySpeedTheSpeed) {
    std::vector<vec4> lut;
    appendRamp(lut, vec4(0.0f), vec4(1.0f)); // row 0
    appendRamp(lut, vec4(0.0f), vec4(4.0f)); // row 1
    // Size by speed over [1, 3] m/s on row 1; colour over life on row 0.
    const std::vector<OpRecord> ops = {op(kOpColorOverLife, 0),
                                       op(kOpSizeBySpeed, 1, vec4(1, 3, 0, 0))};
    const LutRef l{lut.data()};
    const OpRecordsRef o{ops.data()};
    // Speed 2 (length of (0, 2, 0) or (1.2, 1.6, 0)) is halfway: size x 2.
    const ParticleAppearance a =
        sdParticleAppearance(l, o, 0, 2, vec4(1.0f), 1.0f, 1.0f, 1.0f, vec3(0, 2, 0));
    EXPECT_EQ(a.color, vec4(1.0f)) << "at the end of its life the ramp reads 1 exactly";
    EXPECT_NEAR(a.size, 2.0f, 1e-5f);
    const ParticleAppearance b =
        sdParticleAppearance(l, o, 0, 2, vec4(1.0f), 1.0f, 0.0f, 1.0f, vec3(1.2f, 1.6f, 0));
    EXPECT_EQ(b.color, vec4(0.0f));
    EXPECT_NEAR(b.size, 2.0f, 1e-5f);
    // Below the speed range the first texel, above it the last.
    EXPECT_EQ(sdParticleAppearance(l, o, 1, 1, vec4(1.0f), 1.0f, 0, 1, vec3(0.5f, 0, 0)).size, 0);
    EXPECT_EQ(sdParticleAppearance(l, o, 1, 1, vec4(1.0f), 1.0f, 0, 1, vec3(9, 0, 0)).size, 4);
    // A colour by speed op reads the speed too.
    const std::vector<OpRecord> by_speed = {op(kOpColorBySpeed, 0, vec4(0, 4, 0, 0))};
    EXPECT_EQ(sdParticleAppearance(l, OpRecordsRef{by_speed.data()}, 0, 1, vec4(1.0f), 1.0f, 0.9f,
                                   1.0f, vec3(0, 0, 4))
                  .color,
              vec4(1.0f));
}

TEST(ParticleDrawRecord, CarriesTheParticleToTheWorldWithItsAppearance) {
    const std::vector<vec4> lut = constantRows({vec4(0.5f, 0.5f, 0.5f, 1), vec4(2, 0, 0, 0)});
    const std::vector<OpRecord> ops = {op(kOpColorOverLife, 0), op(kOpSizeOverLife, 1)};
    EmitterRecord e = test::makeTestEmitter();
    e.op_first = 0;
    e.op_count = 2;
    e.flipbook_frames = 8;
    e.flipbook_cycles = 1.0f;
    StoredParticle p;
    p.color = vec4(1, 0.5f, 0.25f, 1);
    p.position = vec3(1, 2, 3);
    p.velocity = vec3(0, 0, 4);
    p.size = 0.25f;
    p.rotation_rad = 0.5f;
    p.age_s = 0.5f;
    p.lifetime_s = 1.0f;
    p.key = 0xABCDu;
    // world_from_sim: a quarter turn about +Y (x -> -z, z -> x), then (10, 0, 0).
    const vec4 r0(0, 0, 1, 10), r1(0, 1, 0, 0), r2(-1, 0, 0, 0);
    const DrawRecord r =
        sdParticleDrawRecord(LutRef{lut.data()}, OpRecordsRef{ops.data()}, e, 3u, r0, r1, r2, p);
    EXPECT_EQ(r.position_size, vec4(13, 2, -1, 0.5f));
    EXPECT_EQ(r.velocity_rotation, vec4(4, 0, 0, 0.5f));
    EXPECT_EQ(r.color, vec4(0.5f, 0.25f, 0.125f, 1));
    EXPECT_EQ(r.normalized_age, 0.5f);
    EXPECT_EQ(r.flipbook_frame, sdFlipbookFrame(e, 0.5f, p.key));
    EXPECT_EQ(r.flipbook_frame, 4.0f);
    EXPECT_EQ(r.emitter_index, 3u);
    EXPECT_EQ(r.key, 0xABCDu);
}

TEST(ParticleDrawRecord, IdentityRowsKeepSimulationSpaceBitForBit) {
    const std::vector<vec4> lut = constantRows({vec4(1.0f)});
    const std::vector<OpRecord> ops = {op(kOpColorOverLife, 0)};
    EmitterRecord e = test::makeTestEmitter();
    e.op_count = 1;
    StoredParticle p{};
    p.position = vec3(0.1f, -7.3f, 1e-3f);
    p.velocity = vec3(3.3f, 0.7f, -2.9f);
    p.color = vec4(0.3f);
    p.size = 0.7f;
    p.lifetime_s = 1.0f;
    const DrawRecord r =
        sdParticleDrawRecord(LutRef{lut.data()}, OpRecordsRef{ops.data()}, e, 0, vec4(1, 0, 0, 0),
                             vec4(0, 1, 0, 0), vec4(0, 0, 1, 0), p);
    EXPECT_EQ(vec3(r.position_size), p.position);
    EXPECT_EQ(vec3(r.velocity_rotation), p.velocity);
    EXPECT_EQ(r.color, p.color);
    EXPECT_EQ(r.position_size.w, p.size);
}

} // namespace
} // namespace spindrift
