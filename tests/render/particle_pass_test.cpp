// The particle-pass skeleton's variant key (render/particle_pass.h): one key per set of
// specialisation values, packed 2 bits a value, constant id 0 lowest. The pipelines themselves are
// tested through what they draw (renderer_test.cpp, oit_test.cpp, golden_test.cpp).
#include "render/particle_pass.h"

#include <array>
#include <set>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

TEST(ParticlePass, VariantKeyPacksTwoBitsPerValueFromIdZero) {
    EXPECT_EQ(ParticlePass::variantKey(std::array<uint32_t, 3>{0, 0, 0}), 0u);
    EXPECT_EQ(ParticlePass::variantKey(std::array<uint32_t, 3>{3, 0, 0}), 3u);
    EXPECT_EQ(ParticlePass::variantKey(std::array<uint32_t, 3>{1, 2, 1}), 1u | 2u << 2 | 1u << 4);
    std::array<uint32_t, ParticlePass::kMaxValues> last{};
    last.back() = 3;
    EXPECT_EQ(ParticlePass::variantKey(last), 3u << 30);
}

// Every combination of a billboard-like set of values (2 four-valued enums, 5 flags) has its own
// key, so no two variants can share a pipeline.
TEST(ParticlePass, DistinctValuesGiveDistinctKeys) {
    std::set<uint32_t> keys;
    uint32_t combinations = 0;
    for (uint32_t blend = 0; blend < 4; ++blend) {
        for (uint32_t alignment = 0; alignment < 4; ++alignment) {
            for (uint32_t flags = 0; flags < 32; ++flags) {
                const std::array<uint32_t, 7> values = {
                    blend,           alignment,       flags & 1u,     flags >> 1 & 1u,
                    flags >> 2 & 1u, flags >> 3 & 1u, flags >> 4 & 1u};
                keys.insert(ParticlePass::variantKey(values));
                ++combinations;
            }
        }
    }
    EXPECT_EQ(keys.size(), combinations);
}

#ifndef NDEBUG
// A value past 2 bits would alias another variant's key: a programmer error that names the values.
TEST(ParticlePassDeathTest, ValueThatDoesNotFitTheKeyIsAnAssertion) {
    EXPECT_DEATH(ParticlePass::variantKey(std::array<uint32_t, 2>{1, 4}),
                 "specialisation value 1 of \\(1 4\\) does not fit");
}
#endif

} // namespace
} // namespace spindrift::render
