// Hot reload keeping state (issue 15, point 2; docs/runtime-api.md, "Hot reload"): GPU instances
// (lavapipe here) and ribbon emitters' instances keep their particles and trails when the new
// version's emitters match by name and layout (compiler/reload_match.h), continue as an instance
// that was never reloaded would, stay within CPU/GPU parity, and restart with a reason otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/compile_effect.h"
#include "compiler/reload_match.h"
#include "runtime/effect_instance.h"
#include "runtime/simulation_device.h"
#include "runtime/world_access.h"
#include "spindrift/effect_json.h"
#include "spindrift/runtime.h"
#include "vulkan/context.h"
#include "world_frame.h"

namespace spindrift {
namespace {

namespace fs = std::filesystem;

// Moving particles under gravity ("spray"); a ribbon emitter whose particles burst into "pop" on
// death (a sub-emitter link: the emitter keeps birth order, event births take ordinals on the
// device); "pop" itself, born only from those events.
constexpr const char* kEffect = R"({
  "version": 1,
  "name": "reloaded",
  "seed": 11,
  "duration_s": 1,
  "emitters": [
    {"name": "spray", "capacity": 256, "spawn": {"rate_per_s": 90},
     "init": {"lifetime_s": [0.6, 0.9], "speed": [2, 4], "color": [1, 0.5, 0.25, 1]},
     "update": [{"type": "gravity"}]},
    {"name": "streak", "capacity": 32, "spawn": {"rate_per_s": 20},
     "init": {"lifetime_s": [0.5, 0.7], "speed": [3, 4], "color": [0.2, 0.6, 1, 1]},
     "update": [{"type": "gravity"}],
     "render": {"type": "ribbon", "width": 0.1, "min_sample_distance": 0.02, "max_points": 12},
     "sub_emitters": [{"emitter": "pop", "count": [2, 3]}]},
    {"name": "pop", "capacity": 256, "spawn": {"rate_per_s": 0},
     "init": {"lifetime_s": [0.3, 0.4], "speed": [1, 2]}}
  ]
})";

using test::kFrame;
constexpr uint32_t kStreak = 1;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// A colour and a spawn value change: every emitter keeps its name and layout.
std::string recoloured() {
    return replaced(replaced(kEffect, "\"color\": [1, 0.5, 0.25, 1]", "\"color\": [0, 1, 0, 1]"),
                    "\"rate_per_s\": 90", "\"rate_per_s\": 150");
}

class HotReload : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() /
               (std::string("spindrift_reload_") + info->name() + "_" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
        fs::create_directories(dir_);
        path_ = write(kEffect);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string write(const std::string& text) {
        const fs::path path = dir_ / "reloaded.json";
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        return path.string();
    }
    bool gpuAvailable() {
        const SimulationDevice device = probeSimulationDevice("");
        why_none_ = device.why_none;
        return device.kind != DeviceKind::none;
    }
    fs::path dir_;
    std::string path_;
    std::string why_none_;
};

WorldConfig configFor(SimulationBackend backend) {
    WorldConfig config;
    config.backend = backend;
    return config;
}

InstanceHandle create(World& world, EffectId id) {
    InstanceDesc desc;
    desc.effect = id;
    desc.transform.position = {2, 0, -1};
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::none) << world.lastErrorMessage();
    return h;
}

void run(World& world, int frames) {
    for (int i = 0; i < frames; ++i) world.update(kFrame);
}

// Particles sorted by (emitter, key, position), so the GPU's alive-list order does not matter.
std::vector<Particle> sortedParticles(World& world, InstanceHandle h) {
    std::vector<Particle> out;
    EXPECT_EQ(world.readParticles(h, out), RuntimeError::none) << world.lastErrorMessage();
    std::sort(out.begin(), out.end(), [](const Particle& a, const Particle& b) {
        return std::tie(a.emitter_index, a.key, a.position.x, a.position.y, a.position.z) <
               std::tie(b.emitter_index, b.key, b.position.x, b.position.y, b.position.z);
    });
    return out;
}

// The same particles, bit for bit in position and key.
void expectSameParticles(const std::vector<Particle>& a, const std::vector<Particle>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].emitter_index, b[i].emitter_index) << i;
        ASSERT_EQ(a[i].key, b[i].key) << i;
        EXPECT_EQ(a[i].position.x, b[i].position.x) << i;
        EXPECT_EQ(a[i].position.y, b[i].position.y) << i;
        EXPECT_EQ(a[i].position.z, b[i].position.z) << i;
    }
}

// Emitter e's ribbon strips as a host draws them (EffectInstance, either backend): positions of
// every strip point, in the part's record order.
std::vector<vec4> stripPoints(World& world, InstanceHandle h, uint32_t emitter) {
    EffectInstance* fx = effectInstanceOf(world, h);
    EXPECT_NE(fx, nullptr);
    if (fx == nullptr) return {};
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(writeHostDrawRecords(*fx, diagnostics));
    std::vector<StripPoint> points;
    std::vector<uint32_t> segments;
    writeRibbonStrips(*fx, emitter, points, segments);
    std::vector<vec4> out;
    for (const StripPoint& p : points) out.push_back(p.position_width);
    return out;
}

void expectSamePoints(const std::vector<vec4>& a, const std::vector<vec4>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].x, b[i].x) << i;
        EXPECT_EQ(a[i].y, b[i].y) << i;
        EXPECT_EQ(a[i].z, b[i].z) << i;
    }
}

// The switch itself: an update of no time switches the instance and runs no step, so the state
// read after it is the state at the switch. Particles (all emitters) and ribbon trails are those
// of the old version, bit for bit; the live count and the clock are kept.
void expectSwitchKeepsState(const fs::path& file, const std::string& path, EffectLibrary& library,
                            World& world, InstanceHandle h) {
    run(world, 30);
    // A GPU instance's statistics (its live count) are read back asynchronously: wait for them
    // and take them with an update of no time, so `before` is the state the switch sees.
    world.waitForGpu();
    world.update(0);
    InstanceInfo before;
    ASSERT_EQ(world.info(h, before), RuntimeError::none);
    const auto particles_before = sortedParticles(world, h);
    const auto strips_before = stripPoints(world, h, kStreak);
    ASSERT_GT(particles_before.size(), 40u);
    ASSERT_GT(strips_before.size(), 10u) << "the ribbon has trails to keep";
    std::ofstream(file, std::ios::binary | std::ios::trunc) << recoloured();
    ASSERT_EQ(library.reload(library.find(path)).files_reloaded, 1u);
    const WorldUpdateReceipt receipt = world.update(0);
    EXPECT_EQ(receipt.reloaded_kept, 1u);
    EXPECT_EQ(receipt.reloaded_restarted, 0u);
    InstanceInfo after;
    ASSERT_EQ(world.info(h, after), RuntimeError::none);
    EXPECT_EQ(after.effect_version, 2u);
    EXPECT_EQ(after.restarts_by_reload, 0u);
    EXPECT_EQ(after.reload_restart_reason, "");
    EXPECT_EQ(after.steps, before.steps);
    EXPECT_EQ(after.live_particles, before.live_particles);
    expectSameParticles(particles_before, sortedParticles(world, h));
    expectSamePoints(strips_before, stripPoints(world, h, kStreak));
}

TEST_F(HotReload, GpuInstanceKeepsItsParticlesAndTrailsAtTheSwitch) {
    if (!gpuAvailable()) GTEST_SKIP() << why_none_;
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World world(library, configFor(SimulationBackend::gpu));
    const InstanceHandle h = create(world, id);
    InstanceInfo info;
    world.info(h, info);
    ASSERT_EQ(info.backend, SimulationBackend::gpu);
    expectSwitchKeepsState(dir_ / "reloaded.json", path_, library, world, h);
    // It goes on: the new spawn rate and colour for the births to come.
    run(world, 10);
    bool green = false;
    for (const Particle& p : sortedParticles(world, h))
        green |= p.emitter_index == 0 && p.color.g > 0.99f && p.color.r < 0.01f;
    EXPECT_TRUE(green) << "births after the switch take the new colour";
}

TEST_F(HotReload, CpuRibbonInstanceKeepsItsParticlesAndTrailsAtTheSwitch) {
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World world(library);
    const InstanceHandle h = create(world, id);
    expectSwitchKeepsState(dir_ / "reloaded.json", path_, library, world, h);
}

// An instance reloaded with an unchanged file goes on exactly as its twin in a world that never
// reloaded: the clock, the spawn carries and ordinals (the random streams), the live bounds, the
// alive lists and the sub-emitter ordinals all survived the switch.
void expectContinuesAsTwin(const std::string& path, SimulationBackend backend) {
    EffectLibrary reloading;
    EffectLibrary steady;
    World a(reloading, configFor(backend));
    World b(steady, configFor(backend));
    const InstanceHandle ha = create(a, reloading.add(path));
    const InstanceHandle hb = create(b, steady.add(path));
    run(a, 25);
    run(b, 25);
    ASSERT_EQ(reloading.reload(reloading.find(path)).files_reloaded, 1u);
    EXPECT_EQ(a.update(kFrame).reloaded_kept, 1u);
    b.update(kFrame);
    // Soon after the switch, while the old ribbons and their trails still live...
    run(a, 5);
    run(b, 5);
    expectSameParticles(sortedParticles(a, ha), sortedParticles(b, hb));
    expectSamePoints(stripPoints(a, ha, kStreak), stripPoints(b, hb, kStreak));
    // ... and once every particle of the old version has died and left children.
    run(a, 35);
    run(b, 35);
    // A GPU instance's counts are those of its newest finished frame (asynchronous statistics):
    // wait for both, or a loaded machine compares counts of different frames.
    EXPECT_TRUE(a.waitForGpu());
    EXPECT_TRUE(b.waitForGpu());
    InstanceInfo ia, ib;
    a.info(ha, ia);
    b.info(hb, ib);
    EXPECT_EQ(ia.steps, ib.steps);
    EXPECT_EQ(ia.live_particles, ib.live_particles);
    const auto pa = sortedParticles(a, ha);
    size_t pops = 0;
    for (const Particle& p : pa) pops += p.emitter_index == 2 ? 1 : 0;
    EXPECT_GT(pops, 0u) << "death events of the ribbon emitter made children";
    expectSameParticles(pa, sortedParticles(b, hb));
    expectSamePoints(stripPoints(a, ha, kStreak), stripPoints(b, hb, kStreak));
}

TEST_F(HotReload, GpuInstanceContinuesAsIfNeverReloaded) {
    if (!gpuAvailable()) GTEST_SKIP() << why_none_;
    expectContinuesAsTwin(path_, SimulationBackend::gpu);
}

TEST_F(HotReload, CpuInstanceContinuesAsIfNeverReloaded) {
    expectContinuesAsTwin(path_, SimulationBackend::cpu);
}

// Records of every live particle of a GPU instance drawing from a shared device (its statistics
// are asynchronous, so wait), sorted by (emitter, key).
std::vector<DrawRecord> deviceRecords(World& world, InstanceHandle h) {
    EffectInstance* fx = effectInstanceOf(world, h);
    std::vector<DrawRecord> out;
    if (fx == nullptr || !fx->gpu) {
        ADD_FAILURE() << "not a GPU instance";
        return out;
    }
    EXPECT_TRUE(gpu::waitForStatistics(*fx->gpu));
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(gpu::readBackDrawRecordsForTest(*fx->gpu, out, diagnostics));
    std::sort(out.begin(), out.end(), [](const DrawRecord& a, const DrawRecord& b) {
        return std::tie(a.emitter_index, a.key, a.position_size.x) <
               std::tie(b.emitter_index, b.key, b.position_size.x);
    });
    return out;
}

// Instances on one shared device (as a renderer's world has) carry by copies on the device
// (vkCmdCopyBuffer, no host round trip): the records at the switch are those before it.
TEST_F(HotReload, GpuInstancesOnASharedDeviceCopyOnTheDevice) {
    if (!gpuAvailable()) GTEST_SKIP() << why_none_;
    std::vector<Diagnostic> diagnostics;
    std::shared_ptr<vk::Context> context = vk::createContext("", true, diagnostics);
    ASSERT_TRUE(context) << (diagnostics.empty() ? "" : diagnostics[0].message);
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World world(library, configFor(SimulationBackend::gpu));
    WorldDevice device;
    device.device = probeSimulationDevice("");
    device.shared_device = context;
    setWorldDevice(world, device);
    const InstanceHandle h = create(world, id);
    run(world, 30);
    const std::vector<DrawRecord> before = deviceRecords(world, h);
    ASSERT_GT(before.size(), 40u);
    write(recoloured());
    ASSERT_EQ(library.pollChanges().files_reloaded, 1u);
    EXPECT_EQ(world.update(0).reloaded_kept, 1u);
    const std::vector<DrawRecord> after = deviceRecords(world, h);
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i) {
        ASSERT_EQ(after[i].key, before[i].key) << i;
        EXPECT_EQ(after[i].position_size.x, before[i].position_size.x) << i;
        EXPECT_EQ(after[i].position_size.y, before[i].position_size.y) << i;
        EXPECT_EQ(after[i].position_size.z, before[i].position_size.z) << i;
    }
    run(world, 10);
    InstanceInfo info;
    world.info(h, info);
    EXPECT_GT(info.live_particles, 40u) << "it goes on after the switch";
    const auto& messages = context->instance->messages().messages();
    EXPECT_TRUE(messages.empty()) << "validation: " << messages.front();
}

// CPU/GPU parity holds across a reload that changes a colour and a spawn value: the same
// particles, within the parity tolerance of the parameters test (docs/gpu-backend.md).
TEST_F(HotReload, CpuAndGpuAgreeAfterAReload) {
    if (!gpuAvailable()) GTEST_SKIP() << why_none_;
    EffectLibrary library;
    const EffectId id = library.add(path_);
    World gpu_world(library, configFor(SimulationBackend::gpu));
    World cpu_world(library);
    const InstanceHandle g = create(gpu_world, id);
    const InstanceHandle c = create(cpu_world, id);
    run(gpu_world, 20);
    run(cpu_world, 20);
    write(recoloured());
    ASSERT_EQ(library.pollChanges().files_reloaded, 1u);
    EXPECT_EQ(gpu_world.update(kFrame).reloaded_kept, 1u);
    EXPECT_EQ(cpu_world.update(kFrame).reloaded_kept, 1u);
    run(gpu_world, 30);
    run(cpu_world, 30);
    const auto pg = sortedParticles(gpu_world, g);
    const auto pc = sortedParticles(cpu_world, c);
    ASSERT_EQ(pg.size(), pc.size());
    ASSERT_GT(pc.size(), 60u);
    for (size_t i = 0; i < pc.size(); ++i) {
        ASSERT_EQ(pg[i].key, pc[i].key);
        EXPECT_NEAR(pg[i].position.x, pc[i].position.x,
                    1e-3f + 1e-3f * std::fabs(pc[i].position.x));
        EXPECT_NEAR(pg[i].position.y, pc[i].position.y,
                    1e-3f + 1e-3f * std::fabs(pc[i].position.y));
        EXPECT_NEAR(pg[i].position.z, pc[i].position.z,
                    1e-3f + 1e-3f * std::fabs(pc[i].position.z));
        EXPECT_NEAR(pg[i].color.g, pc[i].color.g, 1e-4f);
    }
}

// A change of layout cannot keep the state: the instance restarts and its info says why.
TEST_F(HotReload, InstancesOfBothBackendsRestartWhenACapacityOrTrailRingChanges) {
    std::vector<SimulationBackend> backends{SimulationBackend::cpu};
    if (gpuAvailable()) backends.push_back(SimulationBackend::gpu);
    for (const SimulationBackend backend : backends) {
        SCOPED_TRACE(backend == SimulationBackend::gpu ? "gpu" : "cpu");
        write(kEffect);
        EffectLibrary library;
        const EffectId id = library.add(path_);
        World world(library, configFor(backend));
        const InstanceHandle h = create(world, id);
        const auto expectRestart = [&](const std::string& changed, const std::string& reason) {
            run(world, 10);
            write(changed);
            ASSERT_EQ(library.pollChanges().files_reloaded, 1u);
            const WorldUpdateReceipt receipt = world.update(kFrame);
            EXPECT_EQ(receipt.reloaded_restarted, 1u);
            EXPECT_EQ(receipt.reloaded_kept, 0u);
            InstanceInfo info;
            world.info(h, info);
            EXPECT_EQ(info.steps, 1u) << "from time 0 again";
            EXPECT_EQ(info.reload_restart_reason, reason);
        };
        const std::string resized = replaced(kEffect, "\"capacity\": 256", "\"capacity\": 300");
        expectRestart(resized, "emitter 'spray': capacity 256 -> 300");
        const std::string longer = replaced(resized, "\"max_points\": 12", "\"max_points\": 20");
        expectRestart(longer, "emitter 'streak': ribbon max_points 12 -> 20");
        InstanceInfo info;
        world.info(h, info);
        EXPECT_EQ(info.restarts_by_reload, 2u);
        // A matching reload again keeps, and clears the reason.
        const std::string spaced =
            replaced(longer, "\"min_sample_distance\": 0.02", "\"min_sample_distance\": 0.05");
        run(world, 5);
        write(spaced);
        ASSERT_EQ(library.pollChanges().files_reloaded, 1u);
        EXPECT_EQ(world.update(kFrame).reloaded_kept, 1u) << "min_sample_distance is not layout";
        world.info(h, info);
        EXPECT_EQ(info.reload_restart_reason, "");
    }
}

// The one layout rule (compiler/reload_match.h), each clause on its own.
TEST(ReloadMatch, NamesWhatDiffers) {
    auto compiled = [](const std::string& text) {
        EffectDesc desc;
        std::vector<Diagnostic> diagnostics;
        auto effect = std::make_shared<CompiledEffect>();
        const bool ok = loadEffect(text, "reload.json", desc, diagnostics) &&
                        compileEffect(desc, *effect, diagnostics);
        EXPECT_TRUE(ok) << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0]));
        if (!ok) effect.reset();
        return effect;
    };
    const auto base = compiled(kEffect);
    ASSERT_TRUE(base);
    const ReloadMatch same = matchForReload(*base, *compiled(recoloured()));
    EXPECT_TRUE(same.keeps);
    EXPECT_EQ(same.old_emitter, (std::vector<int32_t>{0, 1, 2}));
    const struct {
        std::string text;
        std::string reason;
    } cases[] = {
        {replaced(kEffect, "\"capacity\": 32", "\"capacity\": 33"),
         "emitter 'streak': capacity 32 -> 33"},
        {replaced(kEffect, "\"max_points\": 12", "\"max_points\": 13"),
         "emitter 'streak': ribbon max_points 12 -> 13"},
        {replaced(kEffect,
                  "\"render\": {\"type\": \"ribbon\", \"width\": 0.1, \"min_sample_distance\": "
                  "0.02, \"max_points\": 12},",
                  ""),
         "emitter 'streak': no longer draws ribbons"},
        {replaced(
             kEffect, "\"sub_emitters\": [{\"emitter\": \"pop\", \"count\": [2, 3]}]",
             "\"sub_emitters\": [{\"event\": \"birth\", \"emitter\": \"pop\", \"count\": [2, 3]}]"),
         "emitter 'streak': death, collision or threshold sub-emitter links removed"},
        {replaced(kEffect, "\"capacity\": 256, \"spawn\": {\"rate_per_s\": 90}",
                  "\"capacity\": 256, \"overflow\": \"replace_oldest\", \"spawn\": "
                  "{\"rate_per_s\": 90}"),
         "emitter 'spray': overflow mode 0 -> 1"},
        {replaced(kEffect, "\"seed\": 11,", "\"seed\": 11, \"space\": \"local\","),
         "the simulation space changed"},
    };
    for (const auto& c : cases) {
        const auto next = compiled(c.text);
        ASSERT_TRUE(next) << c.reason;
        const ReloadMatch m = matchForReload(*base, *next);
        EXPECT_FALSE(m.keeps) << c.reason;
        EXPECT_EQ(m.reason, c.reason);
    }
    // Renamed and reordered emitters: matched by name; a new name starts empty.
    std::string renamed = replaced(kEffect, "\"name\": \"spray\"", "\"name\": \"mist\"");
    const ReloadMatch by_name = matchForReload(*base, *compiled(renamed));
    EXPECT_TRUE(by_name.keeps);
    EXPECT_EQ(by_name.old_emitter, (std::vector<int32_t>{kNoReloadMatch, 1, 2}));
}

} // namespace
} // namespace spindrift
