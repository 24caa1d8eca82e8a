#include "runtime/gameplay_events.h"

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

uint64_t GameplayEventStream::collect(InstanceHandle h, EffectInstance& instance) {
    if (!instance.cpu || instance.cpu->gameplay == nullptr) return 0;
    scratch_.clear();
    const uint64_t dropped = cpu::takeGameplayEvents(*instance.cpu, scratch_);
    if (scratch_.empty()) return dropped;
    sources_.emplace_back(h.value, instance.effect);
    // Already in canonical order: steps in order, each step's emitters in order and sorted.
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
