// The scene player allocates nothing per frame once warm. Its own executable: the allocation
// counter replaces the global operator new for the whole binary.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cpu/allocation_counter.h"
#include "render/scene_player.h"

namespace fs = std::filesystem;

namespace spindrift::render {
namespace {

constexpr const char* kSteadyEffect = R"({
  "version": 1,
  "name": "steady",
  "duration_s": 100,
  "emitters": [
    {
      "name": "motes",
      "capacity": 10000,
      "spawn": {"rate_per_s": 60},
      "init": {"lifetime_s": 100, "speed": 0}
    },
    {
      "name": "sorted",
      "capacity": 2000,
      "spawn": {"rate_per_s": 300},
      "shape": {"type": "box", "size": [4, 4, 4]},
      "init": {"lifetime_s": 100, "speed": 0},
      "render": {"blend": "alpha", "sort": "back_to_front"}
    },
    {
      "name": "trails",
      "capacity": 64,
      "spawn": {"rate_per_s": 20},
      "shape": {"type": "sphere", "radius": 1},
      "init": {"lifetime_s": 2, "speed": 2},
      "update": [{"type": "gravity"}],
      "render": {"type": "ribbon", "min_sample_distance": 0.05, "max_points": 32}
    },
    {
      "name": "arcs",
      "capacity": 8,
      "spawn": {"rate_per_s": 4},
      "init": {"lifetime_s": 1},
      "render": {"type": "beam", "segments": 32, "sag": 0.5, "jitter": 0.2}
    }
  ]
})";

TEST(ScenePlayerAllocation, PlayingFramesAllocatesNothingOnceWarm) {
    const fs::path dir = fs::temp_directory_path() / "spindrift_player_alloc_test";
    fs::create_directories(dir);
    std::ofstream(dir / "steady.json") << kSteadyEffect;
    SceneDesc scene;
    scene.effects.resize(2);
    scene.effects[0].effect = "steady.json";
    scene.effects[1].effect = "steady.json";
    scene.effects[1].position = {2, 0, 0};
    std::vector<Diagnostic> diagnostics;
    auto player =
        createScenePlayer(scene, (dir / "scene.json").string(), PlayerConfig{}, diagnostics);
    ASSERT_NE(player, nullptr);
    playFrame(*player, 5.0f, {0, 2, 6}); // warms the sort scratch to the largest emitter
    test::armAllocationCounter();
    // Forward, then back in time (a restart), then forward again.
    for (int frame = 0; frame < 10; ++frame)
        playFrame(*player, 1.0f + float(frame) / 30, {0, 2, 6});
    const uint64_t allocations = test::disarmAllocationCounter();
    EXPECT_EQ(allocations, 0u);
    EXPECT_GT(player->particles, 0u);
    EXPECT_GT(player->strip_segments, 0u) << "ribbons and beams were drawn";
}

} // namespace
} // namespace spindrift::render
