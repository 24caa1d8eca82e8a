#include "compiler/compile_effect.h"

#include <cmath>

#include <gtest/gtest.h>

#include "compiler/capabilities.h"
#include "compiler/lut_bake.h"
#include "compiler/sample_effects.h"

namespace spindrift {
namespace {

using test::curve;
using test::gradient;
using test::module;
using test::namedEmitter;

constexpr float kPiF = 3.14159265358979f;

CompiledEffect compileOk(const EffectDesc& fx, std::vector<Diagnostic>* diagnostics = nullptr) {
    std::vector<Diagnostic> local;
    std::vector<Diagnostic>& d = diagnostics ? *diagnostics : local;
    CompiledEffect out;
    EXPECT_TRUE(compileEffect(fx, out, d)) << (d.empty() ? "" : formatDiagnostic(d.front()));
    return out;
}

std::vector<uint32_t> opCodes(const CompiledEffect& c, uint32_t emitter) {
    std::vector<uint32_t> codes;
    const EmitterRecord& e = c.emitters[emitter];
    for (uint32_t i = 0; i < e.op_count; ++i) codes.push_back(c.ops[e.op_first + i].op);
    return codes;
}

const OpRecord& opOf(const CompiledEffect& c, uint32_t emitter, uint32_t k) {
    return c.ops[c.emitters[emitter].op_first + k];
}

// p' = M p + t with the 3x4 rows of the record.
vec4 transformPoint(const EmitterRecord& r, float x, float y, float z) {
    auto dot = [&](const vec4& row) { return row.x * x + row.y * y + row.z * z + row.w; };
    return vec4(dot(r.transform_row0), dot(r.transform_row1), dot(r.transform_row2), 0.0f);
}

TEST(CompileEffect, CompilesTheMinimalEffectWithItsDefaults) {
    const CompiledEffect c = compileOk(test::minimalEffect());
    ASSERT_EQ(c.emitters.size(), 1u);
    const EmitterRecord& e = c.emitters[0];
    EXPECT_EQ(stringAt(c, e.name_offset, e.name_length), "only");
    EXPECT_EQ(stringAt(c, c.effect.name_offset, c.effect.name_length), "minimal");
    EXPECT_EQ(e.capacity, 1024u);
    EXPECT_EQ(e.rate_per_s, 10.0f);
    EXPECT_EQ(e.op_count, 0u);
    EXPECT_EQ(e.texture_offset, kNone);
    EXPECT_EQ(e.color_lut_row, kNone);
    EXPECT_EQ(c.effect.flags, kEffectFlagLooping);
    EXPECT_EQ(c.effect.capacity, 65536u);
    EXPECT_TRUE(c.lut.empty());
    EXPECT_NE(c.structural_hash, 0u);
}

TEST(CompileEffect, CompilingTwiceGivesTheSameRecords) {
    EXPECT_TRUE(compileOk(test::campfireEffect()) == compileOk(test::campfireEffect()));
    EXPECT_FALSE(compileOk(test::campfireEffect()) == compileOk(test::minimalEffect()));
}

TEST(CompileEffect, RemovesDisabledModulesAndKeepsAuthoredOrder) {
    const CompiledEffect c = compileOk(test::campfireEffect());
    // gravity, (drag disabled), buoyancy, color_over_life, size_over_life, force_field, collision
    EXPECT_EQ(opCodes(c, 0),
              (std::vector<uint32_t>{kOpAcceleration, kOpBuoyancy, kOpColorOverLife,
                                     kOpSizeOverLife, kOpForceFields, kOpCollision}));
    EXPECT_EQ(opOf(c, 0, 1).source_module, 2u); // buoyancy is update[2] in the authored list
    EXPECT_EQ(opOf(c, 0, 5).source_module, 6u);
    EXPECT_EQ(opCodes(c, 1), (std::vector<uint32_t>{kOpAcceleration, kOpDrag}));
}

TEST(CompileEffect, RemovesDisabledEmittersAndRenumbersSubEmitterLinks) {
    EffectDesc fx = test::campfireEffect();
    fx.emitters.insert(fx.emitters.begin() + 1, namedEmitter("off"));
    fx.emitters[1].enabled = false;
    const CompiledEffect c = compileOk(fx);
    ASSERT_EQ(c.emitters.size(), 2u);
    EXPECT_EQ(c.emitters[1].source_index, 2u);
    ASSERT_EQ(c.emitters[0].sub_emitter_count, 1u);
    const SubEmitterRecord& link = c.sub_emitters[c.emitters[0].sub_emitter_first];
    EXPECT_EQ(link.emitter, 1u); // "sparks", authored index 2, compiled index 1
    EXPECT_EQ(link.event, kEventDeath);
    EXPECT_EQ(link.count_min, 20u);
    EXPECT_EQ(link.count_max, 30u);
    EXPECT_EQ(link.inherit_velocity, 0.5f);
}

TEST(CompileEffect, DropsALinkToADisabledEmitterWithAWarning) {
    EffectDesc fx = test::campfireEffect();
    fx.emitters[1].enabled = false;
    std::vector<Diagnostic> d;
    const CompiledEffect c = compileOk(fx, &d);
    ASSERT_EQ(c.emitters.size(), 1u);
    EXPECT_EQ(c.emitters[0].sub_emitter_count, 0u);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::warning);
    EXPECT_EQ(d[0].path, "$.emitters[0].sub_emitters[0].emitter");
    EXPECT_NE(d[0].message.find("'sparks' is disabled"), std::string::npos) << d[0].message;
}

TEST(CompileEffect, FusesAdjacentGravityAndForceIntoOneAcceleration) {
    EffectDesc fx = test::minimalEffect();
    auto& u = fx.emitters[0].update;
    u.push_back(module(GravityModule{{0, -9.81f, 0}}));
    u.push_back(module(DragModule{3}, false)); // removed first, so the next two are adjacent
    u.push_back(module(ForceModule{{1, 0, 0.5f}}));
    u.push_back(module(GravityModule{{0, -1, 0}}));
    const CompiledEffect c = compileOk(fx);
    ASSERT_EQ(opCodes(c, 0), std::vector<uint32_t>{kOpAcceleration});
    const OpRecord& op = opOf(c, 0, 0);
    EXPECT_FLOAT_EQ(op.params0.x, 1.0f);
    EXPECT_FLOAT_EQ(op.params0.y, -10.81f);
    EXPECT_FLOAT_EQ(op.params0.z, 0.5f);
    EXPECT_EQ(op.source_module, 0u);
    EXPECT_EQ(op.source_count, 3u);
}

TEST(CompileEffect, FusesAdjacentDragsByAddingCoefficients) {
    EffectDesc fx = test::minimalEffect();
    auto& u = fx.emitters[0].update;
    u.push_back(module(DragModule{1.5f}));
    u.push_back(module(DragModule{0.25f}));
    const CompiledEffect c = compileOk(fx);
    ASSERT_EQ(opCodes(c, 0), std::vector<uint32_t>{kOpDrag});
    EXPECT_EQ(opOf(c, 0, 0).params0.x, 1.75f);
}

TEST(CompileEffect, KeepsModulesSeparateWhenFusingWouldOverflow) {
    EffectDesc fx = test::minimalEffect();
    auto& u = fx.emitters[0].update;
    u.push_back(module(GravityModule{{0, 3e38f, 0}}));
    u.push_back(module(ForceModule{{0, 3e38f, 0}})); // the sum is not a finite float
    u.push_back(module(DragModule{1}));
    u.push_back(module(DragModule{2}));
    const CompiledEffect c = compileOk(fx);
    EXPECT_EQ(opCodes(c, 0), (std::vector<uint32_t>{kOpAcceleration, kOpAcceleration, kOpDrag}));
    EXPECT_EQ(opOf(c, 0, 1).params0.y, 3e38f);
    EXPECT_EQ(opOf(c, 0, 2).params0.x, 3.0f);
}

TEST(CompileEffect, DoesNotFuseAcrossAnotherModule) {
    EffectDesc fx = test::minimalEffect();
    auto& u = fx.emitters[0].update;
    u.push_back(module(GravityModule{}));
    u.push_back(module(DragModule{1}));
    u.push_back(module(GravityModule{}));
    u.push_back(module(WindModule{}));
    u.push_back(module(WindModule{})); // winds are not fused: the blend depends on dt
    const CompiledEffect c = compileOk(fx);
    EXPECT_EQ(opCodes(c, 0),
              (std::vector<uint32_t>{kOpAcceleration, kOpDrag, kOpAcceleration, kOpWind, kOpWind}));
}

TEST(CompileEffect, FusesColourOverLifeIntoTheProductRow) {
    const Gradient a = gradient({{0, {1, 0.5f, 1}}, {1, {0, 1, 1}}}, {{0, 1}, {1, 0}});
    const Gradient b = gradient({{0, {0.5f, 0.5f, 0.5f}}}, {{0, 0.5f}, {1, 1}});
    EffectDesc fx = test::minimalEffect();
    fx.emitters[0].update.push_back(module(ColorOverLifeModule{a}));
    fx.emitters[0].update.push_back(module(ColorOverLifeModule{b}));
    const CompiledEffect c = compileOk(fx);
    ASSERT_EQ(opCodes(c, 0), std::vector<uint32_t>{kOpColorOverLife});
    ASSERT_EQ(c.lutRowCount(), 1u);
    const uint32_t row = opOf(c, 0, 0).lut_row;
    for (uint32_t i = 0; i < kLutWidth; ++i) {
        const float t = lutTexelTime(i);
        const vec4 expected = evaluateGradient(a, t) * evaluateGradient(b, t);
        const vec4 got = c.lut[row * kLutWidth + i];
        EXPECT_EQ(got, expected) << "texel " << i;
    }
    // At t = 1: (0,1,1,0) * (0.5,0.5,0.5,1).
    EXPECT_EQ(c.lut[kLutWidth - 1], vec4(0, 0.5f, 0.5f, 0));
}

TEST(CompileEffect, FusesSizeOverLifeByProductAndRotationOverLifeBySum) {
    EffectDesc fx = test::minimalEffect();
    auto& u = fx.emitters[0].update;
    u.push_back(module(SizeOverLifeModule{curve(Interpolation::linear, {{0, 2}, {1, 0}})}));
    u.push_back(module(SizeOverLifeModule{curve(Interpolation::linear, {{0, 0.5f}})}));
    u.push_back(module(RotationOverLifeModule{curve(Interpolation::linear, {{0, 90}})}));
    u.push_back(module(RotationOverLifeModule{curve(Interpolation::linear, {{0, 90}})}));
    const CompiledEffect c = compileOk(fx);
    ASSERT_EQ(opCodes(c, 0), (std::vector<uint32_t>{kOpSizeOverLife, kOpRotationOverLife}));
    const vec4* size = &c.lut[opOf(c, 0, 0).lut_row * kLutWidth];
    EXPECT_FLOAT_EQ(size[0].x, 1.0f);             // 2 * 0.5
    EXPECT_FLOAT_EQ(size[kLutWidth - 1].x, 0.0f); // 0 * 0.5
    const vec4* spin = &c.lut[opOf(c, 0, 1).lut_row * kLutWidth];
    EXPECT_NEAR(spin[10].x, kPiF, 1e-6f); // 90 + 90 degrees per second, in radians
}

TEST(CompileEffect, PutsAdjacentForceFieldsInOneRange) {
    EffectDesc fx = test::minimalEffect();
    auto& u = fx.emitters[0].update;
    ForceFieldModule f;
    f.axis = {0, 0, 1};
    u.push_back(module(f));
    f.shape = ForceFieldKind::drag;
    f.strength = 3;
    u.push_back(module(f));
    u.push_back(module(DragModule{}));
    f.shape = ForceFieldKind::vortex;
    u.push_back(module(f));
    const CompiledEffect c = compileOk(fx);
    ASSERT_EQ(opCodes(c, 0), (std::vector<uint32_t>{kOpForceFields, kOpDrag, kOpForceFields}));
    EXPECT_EQ(opOf(c, 0, 0).first, 0u);
    EXPECT_EQ(opOf(c, 0, 0).count, 2u);
    EXPECT_EQ(opOf(c, 0, 2).first, 2u);
    EXPECT_EQ(opOf(c, 0, 2).count, 1u);
    ASSERT_EQ(c.force_fields.size(), 3u);
    EXPECT_EQ(c.force_fields[1].shape, kForceFieldDrag);
    EXPECT_EQ(c.force_fields[1].strength, 3.0f);
    EXPECT_EQ(c.force_fields[2].axis, vec4(0, 0, 1, 0));
}

TEST(CompileEffect, BakesCurvesAndDeduplicatesRowsAcrossEmitters) {
    EffectDesc fx = test::campfireEffect();
    fx.emitters[1].update.push_back(fx.emitters[0].update[3]); // the same color_over_life
    const CompiledEffect c = compileOk(fx);
    // buoyancy curve, flames colour, flames size: 3 distinct rows; sparks reuses the colour row.
    EXPECT_EQ(c.lutRowCount(), 3u);
    EXPECT_EQ(opOf(c, 1, 2).lut_row, opOf(c, 0, 2).lut_row);
    const vec4* buoyancy = &c.lut[opOf(c, 0, 1).lut_row * kLutWidth];
    EXPECT_EQ(buoyancy[0].x, 1.0f);
    EXPECT_FLOAT_EQ(buoyancy[kLutWidth / 2].x,
                    1.0f - evaluateCurve(curve(Interpolation::smooth, {{0, 0}, {1, 1}}),
                                         lutTexelTime(kLutWidth / 2)));
}

TEST(CompileEffect, ConvertsDegreesToRadians) {
    EffectDesc fx = test::campfireEffect();
    fx.emitters[0].shape.arc_deg = 180;
    const CompiledEffect c = compileOk(fx);
    const EmitterRecord& e = c.emitters[0];
    EXPECT_FLOAT_EQ(e.shape_angle_rad, 15.0f * kPiF / 180.0f);
    EXPECT_FLOAT_EQ(e.shape_size.w, kPiF);
    EXPECT_FLOAT_EQ(e.rotation_max_rad, 2.0f * kPiF);
    const CompiledEffect all = compileOk(test::everythingEffect());
    EXPECT_FLOAT_EQ(all.emitters[2].mesh_tumble_rad_per_s, kPiF / 2.0f);
}

TEST(CompileEffect, TurnsRotationIntoParentFromEmitterRzRyRx) {
    EffectDesc fx = test::minimalEffect();
    EmitterDesc& e = fx.emitters[0];
    e.transform.position = {1, 2, 3};
    e.transform.rotation_deg = {90, 0, 0}; // about X: +Y goes to +Z
    vec4 p = transformPoint(compileOk(fx).emitters[0], 0, 1, 0);
    EXPECT_NEAR(p.x, 1, 1e-6f);
    EXPECT_NEAR(p.y, 2, 1e-6f);
    EXPECT_NEAR(p.z, 4, 1e-6f);
    // Extrinsic X then Y: +Y -> +Z (about X) -> +X (about Y).
    e.transform.position = {0, 0, 0};
    e.transform.rotation_deg = {90, 90, 0};
    p = transformPoint(compileOk(fx).emitters[0], 0, 1, 0);
    EXPECT_NEAR(p.x, 1, 1e-6f);
    EXPECT_NEAR(p.y, 0, 1e-6f);
    EXPECT_NEAR(p.z, 0, 1e-6f);
    // About Z: +X goes to +Y.
    e.transform.rotation_deg = {0, 0, 90};
    p = transformPoint(compileOk(fx).emitters[0], 1, 0, 0);
    EXPECT_NEAR(p.x, 0, 1e-6f);
    EXPECT_NEAR(p.y, 1, 1e-6f);
    // All three: +Z -(X 90)-> -Y -(Y 90)-> -Y -(Z 90)-> +X.
    e.transform.rotation_deg = {90, 90, 90};
    p = transformPoint(compileOk(fx).emitters[0], 0, 0, 1);
    EXPECT_NEAR(p.x, 1, 1e-6f);
    EXPECT_NEAR(p.y, 0, 1e-6f);
    EXPECT_NEAR(p.z, 0, 1e-6f);
}

TEST(CompileEffect, ResolvesEnumsAndRenderParameters) {
    const CompiledEffect c = compileOk(test::everythingEffect());
    ASSERT_EQ(c.emitters.size(), 3u);
    const EmitterRecord& trail = c.emitters[0];
    EXPECT_EQ(c.effect.space, kSpaceLocal);
    EXPECT_EQ(c.effect.flags, 0u);
    EXPECT_EQ(trail.backend, kBackendCpu);
    EXPECT_EQ(trail.overflow, kOverflowReplaceOldest);
    EXPECT_EQ(trail.shape_kind, kShapeMesh);
    EXPECT_EQ(trail.mesh_point_count, 3u);
    EXPECT_EQ(trail.render_type, kRenderRibbon);
    EXPECT_EQ(trail.sort, kSortOldestFirst);
    EXPECT_EQ(trail.render_flags, kRenderFlagStableOrder);
    EXPECT_EQ(trail.ribbon_max_points, 64u);
    EXPECT_EQ(trail.color_mode, kColorModeGradient);
    ASSERT_NE(trail.color_lut_row, kNone);
    EXPECT_EQ(c.lut[trail.color_lut_row * kLutWidth], vec4(1, 0, 0, 1));
    EXPECT_EQ(opOf(c, 0, 2).mode, 3u);                  // curl octaves
    EXPECT_EQ(opOf(c, 0, 4).params0, vec4(1, 5, 0, 0)); // min_speed, max_speed
    const EmitterRecord& beam = c.emitters[1];
    EXPECT_EQ(beam.blend, kBlendPremultiplied);
    EXPECT_EQ(beam.beam_segments, 32u);
    EXPECT_EQ(beam.beam_end.w, 0.5f); // sag
    EXPECT_EQ(opOf(c, 1, 0).mode, kResponseKill);
    EXPECT_EQ(beam.emission, vec4(3, 0.25f, 0, 0)); // emissive, emissive_share
    EXPECT_EQ(opOf(c, 1, 1).op, kOpBlackbody);
    EXPECT_EQ(opOf(c, 1, 1).params0.x, 4.0f); // intensity
    ASSERT_NE(opOf(c, 1, 1).lut_row, kNone);
    EXPECT_EQ(c.lut[opOf(c, 1, 1).lut_row * kLutWidth].x, 6000.0f); // kelvin at age 0
    // The sample's beam also collides with the host's world colliders (issue 15, point 6).
    EXPECT_EQ(opOf(c, 1, 0).flags, kOpFlagDepthBuffer | kOpFlagWorldColliders);
    const EmitterRecord& rocks = c.emitters[2];
    EXPECT_EQ(stringAt(c, rocks.mesh_offset, rocks.mesh_length), "meshes/rock.obj");
    EXPECT_EQ(rocks.render_flags, kRenderFlagLit);
    EXPECT_EQ(c.sub_emitters[rocks.sub_emitter_first].emitter, 1u);
    EXPECT_EQ(c.sub_emitters[rocks.sub_emitter_first].event, kEventCollision);
}

// render.shadow_cutout is a common key (billboards, ribbons, beams): each type's flag is set.
TEST(CompileEffect, CompilesTheShadowCutoutOfEveryTypeThatCasts) {
    for (const RenderType type : {RenderType::billboard, RenderType::ribbon, RenderType::beam}) {
        EffectDesc fx = test::minimalEffect();
        fx.emitters[0].render.type = type;
        fx.emitters[0].render.blend = BlendMode::alpha;
        fx.emitters[0].render.shadow_cutout = true;
        const CompiledEffect c = compileOk(fx);
        EXPECT_EQ(c.emitters[0].render_flags & kRenderFlagShadowCutout, kRenderFlagShadowCutout)
            << static_cast<int>(type);
        fx.emitters[0].render.shadow_cutout = false;
        EXPECT_EQ(compileOk(fx).emitters[0].render_flags & kRenderFlagShadowCutout, 0u);
    }
}

TEST(CompileEffect, CompilesCollidersToWorldSpaceRecords) {
    const CompiledEffect c = compileOk(test::campfireEffect());
    const OpRecord& op = opOf(c, 0, 5);
    ASSERT_EQ(op.count, 3u);
    EXPECT_EQ(op.mode, kResponseBounce);
    EXPECT_EQ(op.params0, vec4(0.4f, 0.2f, 0, 0.5f));
    EXPECT_EQ(c.colliders[op.first].kind, kColliderPlane);
    EXPECT_EQ(c.colliders[op.first].extent, vec4(0, 1, 0, 0));
    EXPECT_EQ(c.colliders[op.first + 1].kind, kColliderSphere);
    EXPECT_EQ(c.colliders[op.first + 1].radius, 0.5f);
    EXPECT_EQ(c.colliders[op.first + 2].kind, kColliderBox);
    EXPECT_EQ(c.colliders[op.first + 2].extent, vec4(0.5f, 0.5f, 0.5f, 0)); // half extents
}

// Every feature is one a backend runs or is being built to run (capabilities.h): an emitter that
// prefers either backend compiles. The CPU runs depth-buffer collision against the host's world;
// the GPU preference is kept for when it binds a depth buffer, and the run is reported instead.
TEST(CompileEffect, APreferredBackendCompilesWithDepthCollision) {
    for (const BackendPreference preference : {BackendPreference::cpu, BackendPreference::gpu}) {
        EffectDesc fx = test::everythingEffect();
        fx.emitters[1].backend = preference; // the beam collides with the depth buffer
        std::vector<Diagnostic> d;
        CompiledEffect out;
        EXPECT_TRUE(compileEffect(fx, out, d)) << (d.empty() ? "" : d[0].message);
        EXPECT_TRUE(d.empty());
        const std::vector<EmitterBackends> verdicts = checkBackends(out);
        const EmitterBackends& beam = verdicts[1];
        EXPECT_TRUE(beam.backends[static_cast<int>(Backend::cpu)].can_run);
        EXPECT_TRUE(beam.backends[static_cast<int>(Backend::gpu)].can_run);
    }
}

// Both backends refuse ribbon trails past kMaxTrailPoints, so the compiler does first: `validate`
// refuses what `simulate` would. Disabled emitters hold no trails; the limit itself compiles.
TEST(CompileEffect, RefusesTrailStorageBothBackendsWouldRefuse) {
    EffectDesc fx = test::minimalEffect();
    fx.capacity = 1u << 20;
    fx.emitters[0].capacity = 1u << 16;
    fx.emitters[0].render.type = RenderType::ribbon;
    fx.emitters[0].render.ribbon.max_points = 256; // exactly kMaxTrailPoints
    compileOk(fx);

    fx.emitters.push_back(fx.emitters[0]);
    fx.emitters[1].name = "second";
    fx.emitters[1].capacity = 3;
    fx.emitters[1].render.ribbon.max_points = 2; // 6 points more than the limit
    std::vector<Diagnostic> d;
    CompiledEffect out;
    EXPECT_FALSE(compileEffect(fx, out, d));
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::error);
    EXPECT_EQ(d[0].path, "$.emitters[0].render.max_points");
    EXPECT_NE(d[0].message.find("16777222 points"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("the effect format's limit of 16777216"), std::string::npos)
        << d[0].message;
    EXPECT_TRUE(out.emitters.empty());

    fx.emitters[1].enabled = false;
    compileOk(fx);
}

TEST(CompileEffect, RefusesAnEffectThatFailsValidation) {
    EffectDesc fx = test::campfireEffect();
    fx.emitters[1].name = "flames";          // duplicate emitter name
    fx.emitters[0].init.lifetime_s = {2, 1}; // min > max
    std::vector<Diagnostic> d;
    CompiledEffect out = compileOk(test::minimalEffect());
    EXPECT_FALSE(compileEffect(fx, out, d));
    EXPECT_TRUE(hasErrors(d));
    EXPECT_GE(d.size(), 2u);
    EXPECT_TRUE(out.emitters.empty());
    EXPECT_EQ(out.structural_hash, 0u);
}

} // namespace
} // namespace spindrift
