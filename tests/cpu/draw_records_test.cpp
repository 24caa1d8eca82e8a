// writeDrawRecords' loops specialised per emitter feature set (src/cpu/draw_loops.inl) against
// the kernel they specialise: every record must be the bits sdParticleDrawRecord gives for that
// particle, called the generic way (the emitter's whole op list, the emitter record as compiled).
// Covers every appearance op kind alone and in pairs, more ops than the loops cover, flipbooks
// with and without blending or a random start, and a local-space effect carried by a transform.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "compiler/compile_effect.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "cpu/particle_appearance.h"
#include "driver/placement.h"
#include "spindrift/effect_json.h"

namespace spindrift::cpu {
namespace {

// Appearance ops by name, to compose emitters.
const char* kColorOverLife = R"({"type": "color_over_life", "gradient": {
    "color_keys": [[0, 1, 0.9, 0.8], [0.5, 0.3, 1, 0.2], [1, 0.1, 0.2, 1]],
    "alpha_keys": [[0, 1], [1, 0]]}})";
const char* kSizeOverLife = R"({"type": "size_over_life", "curve": {"keys": [[0, 0.2], [1, 3]]}})";
const char* kColorBySpeed = R"({"type": "color_by_speed", "gradient": {
    "color_keys": [[0, 0.2, 0.3, 2], [1, 3, 3, 3]]}, "max_speed": 3})";
const char* kSizeBySpeed =
    R"({"type": "size_by_speed", "curve": {"keys": [[0, 1], [1, 2]]}, "min_speed": 1, "max_speed": 4})";

struct EmitterCase {
    std::vector<const char*> ops;
    const char* flipbook = nullptr; // the render block's flipbook, or none
};

std::string emitterJson(uint32_t index, const EmitterCase& c) {
    std::string s = R"({"name": "e)" + std::to_string(index) + R"(", "capacity": 300,
        "spawn": {"rate_per_s": 400},
        "shape": {"type": "sphere", "radius": 0.2},
        "init": {"lifetime_s": [0.3, 1.5], "size": [0.05, 0.2], "speed": [0, 5],
                 "color": [1, 0.5, 0.25, 1], "rotation_deg": [0, 360],
                 "angular_velocity_deg_per_s": [-180, 180]},
        "update": [{"type": "gravity"}, {"type": "drag", "coefficient_per_s": 0.3})";
    for (const char* op : c.ops) s += std::string(", ") + op;
    s += "]";
    if (c.flipbook != nullptr) s += std::string(R"(, "render": {"flipbook": )") + c.flipbook + "}";
    return s + "}";
}

std::shared_ptr<const CompiledEffect> compileJson(const std::string& text) {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadEffect(text, "draw_records_test.json", desc, diagnostics));
    auto compiled = std::make_shared<CompiledEffect>();
    EXPECT_TRUE(compileEffect(desc, *compiled, diagnostics));
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::error) ADD_FAILURE() << formatDiagnostic(d);
    return compiled;
}

std::string effectJson(const std::vector<EmitterCase>& cases, const char* space) {
    std::string s = R"({"version": 1, "name": "draw", "seed": 11, "duration_s": 4, "space": ")" +
                    std::string(space) + R"(", "emitters": [)";
    for (uint32_t e = 0; e < cases.size(); ++e) s += (e ? "," : "") + emitterJson(e, cases[e]);
    return s + "]}";
}

const std::vector<EmitterCase>& allCases() {
    static const std::vector<EmitterCase> cases = {
        {{}, nullptr},
        {{kColorOverLife}, nullptr},
        {{kSizeOverLife}, nullptr},
        {{kColorBySpeed}, nullptr},
        {{kSizeBySpeed}, nullptr},
        {{kColorOverLife, kSizeBySpeed}, nullptr},
        {{kSizeOverLife, kColorOverLife}, nullptr},
        {{kColorBySpeed, kSizeOverLife}, nullptr},
        {{kColorOverLife, kSizeOverLife, kColorBySpeed}, nullptr}, // more than the loops cover
        {{kSizeBySpeed, kColorBySpeed, kSizeOverLife, kColorOverLife}, nullptr},
        {{}, R"({"columns": 4, "rows": 4, "frames": 16, "frame_blend": true})"},
        {{kColorOverLife}, R"({"columns": 4, "rows": 2, "frames": 7, "random_start": true})"},
        {{kSizeOverLife, kColorBySpeed},
         R"({"columns": 2, "rows": 2, "frames": 4, "cycles": 2.5, "frame_blend": true,
             "random_start": true})"},
        {{}, R"({"columns": 1, "rows": 1, "frames": 1, "frame_blend": true})"},
        {{kSizeBySpeed}, R"({"columns": 1, "rows": 1, "frames": 1, "random_start": true})"},
    };
    return cases;
}

// The records as the kernel gives them, particle by particle, with nothing specialised.
std::vector<DrawRecord> kernelRecords(const CpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    const Rows3x4 m = worldFromSim(fx.world_from_effect, effect.effect.space);
    std::vector<DrawRecord> out;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        for (uint32_t i = 0; i < fx.pools[e].count; ++i) {
            out.push_back(sdParticleDrawRecord(lutRef(effect), opRecordsRef(effect),
                                               effect.emitters[e], e, m.rows[0], m.rows[1],
                                               m.rows[2], storedParticle(fx.pools[e], i)));
        }
    }
    return out;
}

void expectKernelBits(const CpuEffect& fx) {
    const std::vector<DrawRecord> expected = kernelRecords(fx);
    std::vector<DrawRecord> got(liveCount(fx) + 1);
    ASSERT_EQ(writeDrawRecords(fx, got.data()), expected.size());
    ASSERT_GT(expected.size(), 0u);
    for (size_t i = 0; i < expected.size(); ++i) {
        ASSERT_EQ(std::memcmp(&got[i], &expected[i], sizeof(DrawRecord)), 0)
            << "record " << i << " of emitter " << expected[i].emitter_index;
    }
}

TEST(CpuDrawRecords, SpecialisedLoopsGiveTheKernelsBitsForEveryFeatureSet) {
    const auto effect = compileJson(effectJson(allCases(), "world"));
    CpuConfig config;
    auto fx = createCpuEffect(effect, config);
    for (int frame = 0; frame < 40; ++frame) advanceFrame(*fx, 1.0 / 60.0);
    for (uint32_t e = 0; e < fx->pools.size(); ++e) EXPECT_GT(fx->pools[e].count, 20u) << e;
    expectKernelBits(*fx);
}

TEST(CpuDrawRecords, LocalSpaceRecordsAreCarriedByTheTransformWithTheKernelsBits) {
    const auto effect = compileJson(effectJson(allCases(), "local"));
    CpuConfig config;
    auto fx = createCpuEffect(effect, config);
    Rows3x4 moved;
    moved.rows[0] = vec4(0.0f, -1.0f, 0.0f, 3.5f); // 90 degrees about z, then moved
    moved.rows[1] = vec4(1.0f, 0.0f, 0.0f, -2.0f);
    moved.rows[2] = vec4(0.0f, 0.0f, 1.0f, 0.25f);
    for (int frame = 0; frame < 30; ++frame) {
        setTransform(*fx, moved);
        advanceFrame(*fx, 1.0 / 60.0);
    }
    expectKernelBits(*fx);
}

TEST(CpuDrawRecords, EmptyEmittersWriteNothingAndKeepTheOthersPacked) {
    std::vector<EmitterCase> cases = allCases();
    const auto effect = compileJson(effectJson(cases, "world"));
    CpuConfig config;
    config.driver.enabled_mask = 0x5555; // every other emitter is born into
    auto fx = createCpuEffect(effect, config);
    for (int frame = 0; frame < 20; ++frame) advanceFrame(*fx, 1.0 / 60.0);
    for (uint32_t e = 1; e < fx->pools.size(); e += 2) EXPECT_EQ(fx->pools[e].count, 0u);
    expectKernelBits(*fx);
}

TEST(CpuPool, SmallPoolsArePackedOnCacheLinesLargeOnesKeepAPagePerColumn) {
    ParticlePool small;
    allocatePool(small, 64);
    const auto distance = [](const void* a, const void* b) {
        return static_cast<size_t>(static_cast<const unsigned char*>(b) -
                                   static_cast<const unsigned char*>(a));
    };
    EXPECT_EQ(distance(small.position_x.get(), small.position_y.get()), 64 * sizeof(float));
    EXPECT_LT(distance(small.position_x.get(), small.contact_slots.get()), 8192u);
    small.count = 0;
    forEachColumn(small, [](void* column, size_t) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(column) % 64, 0u);
    });
    ParticlePool large;
    allocatePool(large, 4096);
    EXPECT_EQ(distance(large.position_x.get(), large.position_y.get()) % 4096, 64u);
}

} // namespace
} // namespace spindrift::cpu
