// The world's stream of events to gameplay (include/spindrift/runtime.h, "Events to gameplay";
// docs/runtime-api.md, "Events"): what each World::update gathers from the instances it stepped,
// in the canonical order, for World::events().
//
// The stream keeps, for the update's events, the compiled effect of each instance that delivered
// some, so emitterName() answers even for an instance destroyed in that update.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/compiled_effect.h"
#include "cpu/gameplay_events.h"
#include "runtime/effect_instance.h"
#include "spindrift/runtime.h"

namespace spindrift {

class GameplayEventStream {
public:
    // A new update: the previous update's events are forgotten (capacity kept).
    void begin();

    // After the instance's steps of this update: its events join the stream (instances must be
    // collected in slot order: the stream's order is theirs). Returns the events it dropped; a
    // GPU part's events are those of its finished submissions, and latency_frames receives how
    // many frames late the newest were (0 for a CPU instance).
    uint64_t collect(InstanceHandle h, EffectInstance& instance, uint32_t& latency_frames);

    // After a seek: the replayed steps' events are not delivered.
    static void discard(EffectInstance& instance);

    const std::vector<GameplayEvent>& events() const { return events_; }
    std::string_view emitterName(const GameplayEvent& event) const;

private:
    std::vector<GameplayEvent> events_;
    std::vector<cpu::GameplayEventRecord> scratch_;
    // The compiled effect of each instance with events in this update, in collect order.
    std::vector<std::pair<uint64_t, std::shared_ptr<const CompiledEffect>>> sources_;
};

} // namespace spindrift
