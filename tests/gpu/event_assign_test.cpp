// The GPU event assignment's work (docs/gpu-backend.md, "Bounded work"): a fan-out of sub-emitter
// events into a replace_oldest child places at most the child's capacity of children per step,
// on the parallel assignment and after the serial walker, and a child with birth links is
// evaluated only while the event queue has room; the counts match the CPU every step and the
// particles match it at the end (parity).
#include "gpu/gpu_parity.h"

#include "compiler/sample_effects.h"
#include "gpu/shader/gpu_sim.h"
#include "gpu/sub_emitters.h"

namespace spindrift::gpu::test {
namespace {

using spindrift::test::module;

// Parents at a high rate with short lives; every death asks for `count` children of "child".
EffectDesc fanOut(uint32_t parent_capacity, uint32_t count, uint32_t child_capacity,
                  OverflowPolicy overflow) {
    EmitterDesc parent = sprayEmitter({.name = "parent",
                                       .capacity = parent_capacity,
                                       .rate_per_s = 60.0f * static_cast<float>(parent_capacity),
                                       .sphere_radius = 0.3f,
                                       .lifetime_s = {0.01f, 0.03f},
                                       .speed = {1, 3},
                                       .size = {0.05f, 0.1f}});
    parent.update.push_back(module(GravityModule{}));
    parent.sub_emitters.push_back({SubEmitterEvent::death, "child", 1, {count, count}, 0.3f});
    EmitterDesc child = sprayEmitter({.name = "child",
                                      .capacity = child_capacity,
                                      .rate_per_s = 0,
                                      .sphere_radius = 0.05f,
                                      .lifetime_s = {0.2f, 0.5f},
                                      .speed = {0.5f, 1.5f},
                                      .size = {0.02f, 0.04f}});
    child.overflow = overflow;
    return testEffect({.name = "fan_out",
                       .seed = 71,
                       .duration_s = 2,
                       .capacity = parent_capacity + child_capacity + 256},
                      {parent, child});
}

// A grandchild fed by every child's birth: the walker queues the children's birth events.
void addBirthGrandchild(EffectDesc& fx, float probability) {
    fx.emitters[1].sub_emitters.push_back(
        {SubEmitterEvent::birth, "grandchild", probability, {1, 2}, 1});
    EmitterDesc grandchild = sprayEmitter({.name = "grandchild",
                                           .capacity = 256,
                                           .rate_per_s = 0,
                                           .sphere_radius = 0.05f,
                                           .lifetime_s = {0.05f, 0.1f},
                                           .speed = {0.5f, 1},
                                           .size = {0.02f, 0.04f}});
    grandchild.overflow = OverflowPolicy::replace_oldest;
    fx.emitters.push_back(grandchild);
}

struct CountedRun {
    uint64_t examined = 0;  // the child's event_children_examined after the run
    uint64_t requested = 0; // children asked of it (born or dropped), on the CPU
};

// Steps both backends one fixed step a frame, the counts compared every frame.
CountedRun runCounted(std::shared_ptr<const CompiledEffect> effect, uint32_t steps, bool serial) {
    CountedRun run;
    auto cpu_fx = cpu::createCpuEffect(effect, cpu::CpuConfig{});
    GpuConfig config = testGpuConfig();
    config.force_serial_event_assign = serial;
    std::vector<Diagnostic> diagnostics;
    auto gpu_fx = createGpuEffect(effect, config, diagnostics);
    if (gpu_fx == nullptr) {
        ADD_FAILURE() << joinedDiagnostics(diagnostics);
        return run;
    }
    const double dt = static_cast<double>(effect->effect.fixed_timestep_s);
    for (uint32_t frame = 0; frame < steps; ++frame) {
        cpu::advanceFrame(*cpu_fx, dt);
        advanceFrame(*gpu_fx, dt);
        if (!gpu_fx->errors.empty()) {
            ADD_FAILURE() << joinedDiagnostics(gpu_fx->errors);
            return run;
        }
        bool same = true;
        for (uint32_t e = 0; e < effect->emitters.size(); ++e) {
            const GpuEmitterStats& g = gpu_fx->stats[e];
            const cpu::EmitterStats& c = cpu_fx->stats[e];
            const bool equal = g.live == cpu_fx->pools[e].count && g.births == c.births &&
                               g.overflow_dropped == c.overflow_dropped &&
                               g.overflow_replaced == c.overflow_replaced &&
                               g.events_dropped == c.events_dropped;
            EXPECT_TRUE(equal) << "frame " << frame << " emitter " << e << ": live " << g.live
                               << " / " << cpu_fx->pools[e].count << ", births " << g.births
                               << " / " << c.births << ", dropped " << g.overflow_dropped << " / "
                               << c.overflow_dropped << ", replaced " << g.overflow_replaced
                               << " / " << c.overflow_replaced << ", events dropped "
                               << g.events_dropped << " / " << c.events_dropped << " (gpu / cpu)";
            same = same && equal;
        }
        if (!same) return run;
    }
    EXPECT_TRUE(validationMessages(*gpu_fx).empty()) << joined(validationMessages(*gpu_fx));
    run.examined = gpu_fx->stats[1].event_children_examined;
    run.requested = cpu_fx->stats[1].births + cpu_fx->stats[1].overflow_dropped;
    return run;
}

TEST(GpuEventAssign, FanOutIntoAReplaceOldestChildPlacesAtMostItsCapacityPerStep) {
    constexpr uint32_t kSteps = 8;
    constexpr uint32_t kCapacity = 256;
    // 64 children per event (the parallel assignment) and 400, more than the child holds (the
    // walker takes the ordinals, the assignment the slots).
    for (const uint32_t count : {64u, 400u}) {
        const auto effect =
            compileOrFail(fanOut(512, count, kCapacity, OverflowPolicy::replace_oldest));
        EXPECT_EQ(assignsInParallel(*effect), count <= kCapacity);
        for (const bool serial : {false, true}) {
            SCOPED_TRACE(std::to_string(count) + (serial ? " serial" : " parallel"));
            const CountedRun run = runCounted(effect, kSteps, serial);
            EXPECT_GT(run.requested, 20u * kSteps * kCapacity) << "not a fan-out";
            EXPECT_GT(run.examined, 0u);
            EXPECT_LE(run.examined, uint64_t{kSteps} * kCapacity);
        }
    }
}

// Children with a birth link each queue an event: the walker evaluates them while the queue has
// room (at most kGpuMaxEvents a step), then only counts the dropped events.
TEST(GpuEventAssign, BirthLinksOfAFanOutAreEvaluatedWithinTheEventQueue) {
    constexpr uint32_t kSteps = 3;
    constexpr uint32_t kCapacity = 256;
    EffectDesc fx = fanOut(512, 1024, kCapacity, OverflowPolicy::replace_oldest);
    addBirthGrandchild(fx, 0.02f);
    const auto effect = compileOrFail(fx);
    EXPECT_FALSE(assignsInParallel(*effect));
    const CountedRun run = runCounted(effect, kSteps, false);
    EXPECT_GT(run.requested, uint64_t{kSteps} * 2 * kGpuMaxEvents) << "the queue did not fill";
    EXPECT_LE(run.examined, uint64_t{kSteps} * (kCapacity + kGpuMaxEvents));
}

// The particles themselves, against the CPU: cycles of replacements wrapping many times in one
// step, events asking for more children than the child holds, birth order kept, drop_new, and a
// child whose births queue events.
TEST(GpuEventAssign, FanOutsMatchTheCpu) {
    for (const OverflowPolicy overflow :
         {OverflowPolicy::replace_oldest, OverflowPolicy::drop_new}) {
        for (const uint32_t count : {24u, 100u}) {
            for (const bool stable_order : {false, true}) {
                SCOPED_TRACE(std::to_string(count) + (stable_order ? " stable order" : "") +
                             (overflow == OverflowPolicy::drop_new ? " drop_new" : ""));
                EffectDesc fx = fanOut(64, count, 60, overflow);
                fx.emitters[1].render.stable_order = stable_order;
                const ParityResult r = expectParity(compileOrFail(fx), 20);
                ASSERT_EQ(r.per_emitter.size(), 2u);
                EXPECT_EQ(r.per_emitter[1], 60u);
            }
        }
    }
    EffectDesc chain = fanOut(64, 30, 60, OverflowPolicy::replace_oldest);
    addBirthGrandchild(chain, 0.3f);
    const ParityResult r = expectParity(compileOrFail(chain), 20);
    ASSERT_EQ(r.per_emitter.size(), 3u);
    EXPECT_GT(r.per_emitter[2], 0u);
}

} // namespace
} // namespace spindrift::gpu::test
