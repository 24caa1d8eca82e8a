#include "runtime/gameplay_events.h"

#include <algorithm>

#include "gpu/gameplay_capture.h"

namespace spindrift {

namespace {

Vec3 vec3Of(const vec3& v) {
    return Vec3{v.x, v.y, v.z};
}

} // namespace

void GameplayEventStream::begin() {
    events_.clear();
    sources_.clear();
}

uint64_t GameplayEventStream::collect(InstanceHandle h, EffectInstance& instance,
                                      uint32_t& latency_frames) {
    latency_frames = 0;
    if (instance.effect->emitter_events.empty()) return 0;
    scratch_.clear();
    uint64_t dropped = 0;
    if (instance.cpu) dropped += cpu::takeGameplayEvents(*instance.cpu, scratch_);
    if (instance.gpu) {
        const size_t cpu_events = scratch_.size();
        dropped += gpu::takeGpuGameplayEvents(*instance.gpu, scratch_, latency_frames);
        // A split instance: the two parts' events in one canonical order.
        if (cpu_events != 0 && cpu_events != scratch_.size()) {
            std::sort(scratch_.begin(), scratch_.end(), canonicalLess);
        }
    }
    if (scratch_.empty()) return dropped;
    sources_.emplace_back(h.value, instance.effect);
    // In canonical order: steps in order, each step's emitters in order and sorted.
    for (const cpu::GameplayEventRecord& r : scratch_) {
        GameplayEvent e;
        e.kind = static_cast<EventKind>(r.kind);
        e.instance = h;
        e.emitter_index = r.emitter;
        e.particle_key = r.key;
        e.step = r.step;
        e.position = vec3Of(r.position);
        e.velocity = vec3Of(r.velocity);
        e.normal = vec3Of(r.normal);
        e.collision_op = r.kind == kEventCollision ? r.detail : 0;
        events_.push_back(e);
    }
    return dropped;
}

void GameplayEventStream::discard(EffectInstance& instance) {
    if (instance.cpu) cpu::discardGameplayEvents(*instance.cpu);
    if (instance.gpu) gpu::discardGameplayEvents(*instance.gpu);
}

std::string_view GameplayEventStream::emitterName(const GameplayEvent& event) const {
    for (const auto& [handle, effect] : sources_) {
        if (handle != event.instance.value) continue;
        if (event.emitter_index >= effect->emitters.size()) return {};
        const EmitterRecord& r = effect->emitters[event.emitter_index];
        return stringAt(*effect, r.name_offset, r.name_length);
    }
    return {};
}

} // namespace spindrift
