#include "runtime/gameplay_events.h"

#include <algorithm>
#include <functional>

#include "gpu/gameplay_capture.h"

namespace spindrift {

namespace {

Vec3 vec3Of(const vec3& v) {
    return Vec3{v.x, v.y, v.z};
}

} // namespace

void GameplayEventStream::begin(uint64_t& dropped, uint32_t& latency_frames) {
    events_.clear();
    sources_.clear();
    // The held events open the stream; the buffers swap so neither allocates once warm.
    std::swap(events_, held_);
    std::swap(sources_, held_sources_);
    dropped = held_dropped_;
    latency_frames = held_latency_;
    held_dropped_ = 0;
    held_latency_ = 0;
}

uint64_t GameplayEventStream::gather(EffectInstance& instance) {
    scratch_.clear();
    uint64_t dropped = 0;
    if (instance.cpu) dropped += cpu::takeGameplayEvents(*instance.cpu, scratch_);
    if (instance.gpu) {
        const size_t cpu_events = scratch_.size();
        uint32_t latency = 0;
        dropped += gpu::takeGpuGameplayEvents(*instance.gpu, scratch_, latency);
        // A split instance: the two parts' events in one canonical order.
        if (cpu_events != 0 && cpu_events != scratch_.size()) {
            std::sort(scratch_.begin(), scratch_.end(), canonicalLess);
        }
    }
    return dropped;
}

uint32_t GameplayEventStream::append(InstanceHandle h, const EffectInstance& instance,
                                     std::vector<GameplayEvent>& out,
                                     std::vector<Source>& sources) {
    if (scratch_.empty()) return 0;
    sources.push_back({out.size(), out.size() + scratch_.size(), h.value, instance.effect});
    uint32_t latency = 0;
    // In canonical order: steps in order, each step's emitters in order and sorted.
    for (const cpu::GameplayEventRecord& r : scratch_) {
        GameplayEvent e;
        e.kind = static_cast<EventKind>(r.kind);
        e.instance = h;
        e.emitter_index = r.emitter;
        e.particle_key = r.key;
        e.step = r.step;
        e.latency_frames = r.latency_frames;
        e.position = vec3Of(r.position);
        e.velocity = vec3Of(r.velocity);
        e.normal = vec3Of(r.normal);
        e.collision_op = r.kind == kEventCollision ? r.detail : 0;
        latency = std::max(latency, r.latency_frames);
        out.push_back(e);
    }
    return latency;
}

uint64_t GameplayEventStream::collect(InstanceHandle h, EffectInstance& instance,
                                      uint32_t& latency_frames) {
    latency_frames = 0;
    if (instance.effect->emitter_events.empty()) return 0;
    const uint64_t dropped = gather(instance);
    latency_frames = append(h, instance, events_, sources_);
    return dropped;
}

void GameplayEventStream::hold(InstanceHandle h, EffectInstance& instance, uint64_t delivery_frame,
                               uint64_t clock) {
    if (instance.effect->emitter_events.empty()) return;
    if (instance.gpu) {
        // The frames in flight finish first (a failed part has nothing more to give); their
        // latency is counted to the update that delivers them.
        (void)gpu::waitForStatistics(*instance.gpu);
        gpu::setGameplayFrame(*instance.gpu, delivery_frame);
    }
    held_dropped_ += gather(instance);
    if (instance.gpu) gpu::setGameplayFrame(*instance.gpu, clock);
    held_latency_ = std::max(held_latency_, append(h, instance, held_, held_sources_));
}

bool GameplayEventStream::pending(const EffectInstance& instance) {
    if (instance.effect->emitter_events.empty()) return false;
    if (instance.gpu && gpu::gameplayPending(*instance.gpu)) return true;
    return instance.cpu && cpu::gameplayPending(*instance.cpu);
}

void GameplayEventStream::discard(EffectInstance& instance) {
    if (instance.cpu) cpu::discardGameplayEvents(*instance.cpu);
    if (instance.gpu) gpu::discardGameplayEvents(*instance.gpu);
}

std::string_view GameplayEventStream::emitterName(const GameplayEvent& event) const {
    auto nameIn = [&](const Source& s) -> std::string_view {
        if (event.emitter_index >= s.effect->emitters.size()) return {};
        const EmitterRecord& r = s.effect->emitters[event.emitter_index];
        return stringAt(*s.effect, r.name_offset, r.name_length);
    };
    // An event of this stream: the run it lies in (one handle may have two effects in an
    // update: a reload's held events and the new version's).
    const std::less<const GameplayEvent*> before;
    const GameplayEvent* first = events_.data();
    if (!events_.empty() && !before(&event, first) && before(&event, first + events_.size())) {
        const auto index = static_cast<size_t>(&event - first);
        for (const Source& s : sources_)
            if (index >= s.first && index < s.end) return nameIn(s);
    }
    // A copy: the first run of its instance.
    for (const Source& s : sources_)
        if (s.handle == event.instance.value) return nameIn(s);
    return {};
}

} // namespace spindrift
