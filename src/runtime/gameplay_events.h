// The world's stream of events to gameplay (include/spindrift/runtime.h, "Events to gameplay";
// docs/runtime-api.md, "Events"): what each World::update gathers from the instances it stepped,
// in the canonical order, for World::events().
//
// The stream keeps, for each run of events of one instance, the compiled effect it came from, so
// emitterName() answers even for an instance destroyed or reloaded in that update.
//
// Events held by a control call (hold: a restart, a seek, a reseed, a reload about to throw the
// instance's state away) wait in a second buffer and open the next update's stream, so nothing
// the steps already produced is lost.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "cpu/gameplay_events.h"
#include "runtime/effect_instance.h"
#include "spindrift/runtime.h"

namespace spindrift {

class GameplayEventStream {
public:
    // A new update: the previous update's events are forgotten (capacity kept) and the held ones
    // open the stream. dropped and latency_frames receive the held events' drops and largest
    // latency.
    void begin(uint64_t& dropped, uint32_t& latency_frames);

    // After the instance's steps of this update: its events join the stream (instances must be
    // collected in slot order: the stream's order is theirs). Returns the events it dropped; a
    // GPU part's events are those of its finished submissions, each with its latency, and
    // latency_frames receives the largest (0 for a CPU instance).
    uint64_t collect(InstanceHandle h, EffectInstance& instance, uint32_t& latency_frames);

    // Before a control call throws the instance's state away: takes its events of the steps
    // already run — waiting for its GPU frames in flight — for the head of the next update's
    // stream. `delivery_frame` is that update's number and `clock` the current one (the GPU
    // part's frame clock, gpu::setGameplayFrame), so the held events' latency counts to their
    // delivery.
    void hold(InstanceHandle h, EffectInstance& instance, uint64_t delivery_frame, uint64_t clock);

    // Whether the instance still has events to hand over (taken or in flight).
    static bool pending(const EffectInstance& instance);

    // After a seek: the replayed steps' events are not delivered.
    static void discard(EffectInstance& instance);

    const std::vector<GameplayEvent>& events() const { return events_; }
    std::string_view emitterName(const GameplayEvent& event) const;

private:
    // A run of consecutive events of one instance, from one compiled effect.
    struct Source {
        size_t first = 0;
        size_t end = 0;
        uint64_t handle = 0;
        std::shared_ptr<const CompiledEffect> effect;
    };
    // Takes the instance's events into scratch_ (canonical order); returns its drops.
    uint64_t gather(EffectInstance& instance);
    // Appends scratch_ to `out` as the instance's events, with a source; returns the largest
    // latency.
    uint32_t append(InstanceHandle h, const EffectInstance& instance,
                    std::vector<GameplayEvent>& out, std::vector<Source>& sources);

    std::vector<GameplayEvent> events_;
    std::vector<Source> sources_;
    std::vector<GameplayEvent> held_;
    std::vector<Source> held_sources_;
    uint64_t held_dropped_ = 0;
    uint32_t held_latency_ = 0;
    std::vector<cpu::GameplayEventRecord> scratch_;
};

} // namespace spindrift
