// Instances through the C API: create and destroy, control, queries, overrides, parameters,
// attachment to a path and reading particles.
#include <cstring>
#include <string_view>

#include "capi/call_guard.h"
#include "capi/capi_convert.h"
#include "capi/capi_objects.h"
#include "spindrift/spindrift.h"

using namespace spindrift;
using namespace spindrift::capi;

namespace {

// The world and a non-null instance handle, then body(world object, C++ handle).
template <typename Body>
spindrift_result withInstance(spindrift_world world, spindrift_instance instance, Body&& body) {
    WorldObject* w;
    if (const spindrift_result r = resolve(world.id, w); r != SPINDRIFT_OK) return r;
    if (const spindrift_result r = requireInstance(instance); r != SPINDRIFT_OK) return r;
    return body(*w, InstanceHandle{instance.id});
}

spindrift_result worldResult(WorldObject& w, RuntimeError error) {
    return fromRuntime(error, w.world.lastErrorMessage());
}

// A control call that takes only the handle.
spindrift_result control(spindrift_world world, spindrift_instance instance,
                         RuntimeError (World::*call)(InstanceHandle)) {
    return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
        return worldResult(w, (w.world.*call)(h));
    });
}

template <typename Value>
spindrift_result setParameter(spindrift_world world, spindrift_instance instance, const char* name,
                              const Value& value) {
    if (const spindrift_result r = requirePointer(name, "name"); r != SPINDRIFT_OK) return r;
    return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
        return worldResult(w, w.world.setParameter(h, name, value));
    });
}

template <typename Value>
spindrift_result getParameter(spindrift_world world, spindrift_instance instance, const char* name,
                              Value& out) {
    if (const spindrift_result r = requirePointer(name, "name"); r != SPINDRIFT_OK) return r;
    return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
        return worldResult(w, w.world.getParameter(h, name, out));
    });
}

// A yes/no question about a live instance (World::isPlaying, isFinished): *out false unless the
// handle names a live instance, whose stale or unknown handle is reported as every call does.
spindrift_result instanceQuery(spindrift_world world, spindrift_instance instance, bool* out,
                               const char* out_name, bool (World::*query)(InstanceHandle) const) {
    if (const spindrift_result r = requirePointer(out, out_name); r != SPINDRIFT_OK) return r;
    *out = false;
    return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
        InstanceInfo info;
        if (const RuntimeError e = w.world.info(h, info); e != RuntimeError::none)
            return worldResult(w, e);
        *out = (w.world.*query)(h);
        return SPINDRIFT_OK;
    });
}

} // namespace

extern "C" {

SPINDRIFT_API spindrift_result spindrift_default_instance_desc(spindrift_instance_desc* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const InstanceDesc d;
        *out = spindrift_instance_desc{};
        out->struct_size = sizeof(spindrift_instance_desc);
        out->effect = d.effect.value;
        out->transform = toC(d.transform);
        out->flags = d.flags;
        out->time_scale = d.time_scale;
        out->tint = toC(d.tint);
        out->size_scale = d.size_scale;
        out->spawn_rate_scale = d.spawn_rate_scale;
        out->override_seed = d.override_seed;
        out->seed = d.seed;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_create(spindrift_world world,
                                                         const spindrift_instance_desc* desc,
                                                         spindrift_instance* out_instance) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_instance, "out_instance");
            r != SPINDRIFT_OK)
            return r;
        out_instance->id = 0;
        if (const spindrift_result r = requireStruct(desc, "desc"); r != SPINDRIFT_OK) return r;
        WorldObject* w;
        if (const spindrift_result r = resolve(world.id, w); r != SPINDRIFT_OK) return r;
        constexpr uint32_t kKnownFlags = kPlayOnCreate | kDestroyOnFinish | kImportant;
        if ((desc->flags & ~kKnownFlags) != 0) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "desc->flags 0x%x has bits no SPINDRIFT_INSTANCE_* flag names",
                        desc->flags);
        }
        InstanceDesc cpp;
        cpp.effect = EffectId{desc->effect};
        cpp.transform = toCpp(desc->transform);
        cpp.flags = desc->flags;
        cpp.time_scale = desc->time_scale;
        cpp.tint = toCpp(desc->tint);
        cpp.size_scale = desc->size_scale;
        cpp.spawn_rate_scale = desc->spawn_rate_scale;
        cpp.override_seed = desc->override_seed;
        cpp.seed = desc->seed;
        InstanceHandle h;
        const RuntimeError e = w->world.create(cpp, h);
        if (e != RuntimeError::none) return worldResult(*w, e);
        out_instance->id = h.value;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_destroy(spindrift_world world,
                                                          spindrift_instance instance) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            const RuntimeError e = w.world.destroy(h);
            if (e == RuntimeError::none) w.releasePath(h.value);
            return worldResult(w, e);
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_play(spindrift_world world,
                                                       spindrift_instance instance) {
    return guarded(__func__, [&] { return control(world, instance, &World::play); });
}
SPINDRIFT_API spindrift_result spindrift_instance_pause(spindrift_world world,
                                                        spindrift_instance instance) {
    return guarded(__func__, [&] { return control(world, instance, &World::pause); });
}
SPINDRIFT_API spindrift_result spindrift_instance_resume(spindrift_world world,
                                                         spindrift_instance instance) {
    return guarded(__func__, [&] { return control(world, instance, &World::resume); });
}
SPINDRIFT_API spindrift_result spindrift_instance_stop(spindrift_world world,
                                                       spindrift_instance instance) {
    return guarded(__func__, [&] { return control(world, instance, &World::stop); });
}
SPINDRIFT_API spindrift_result spindrift_instance_clear(spindrift_world world,
                                                        spindrift_instance instance) {
    return guarded(__func__, [&] { return control(world, instance, &World::clear); });
}
SPINDRIFT_API spindrift_result spindrift_instance_restart(spindrift_world world,
                                                          spindrift_instance instance) {
    return guarded(__func__, [&] { return control(world, instance, &World::restart); });
}

SPINDRIFT_API spindrift_result spindrift_instance_emit(spindrift_world world,
                                                       spindrift_instance instance,
                                                       const char* emitter, uint32_t count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(emitter, "emitter"); r != SPINDRIFT_OK)
            return r;
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.emit(h, emitter, count));
        });
    });
}

SPINDRIFT_API spindrift_result
spindrift_instance_set_transform(spindrift_world world, spindrift_instance instance,
                                 const spindrift_transform* transform, bool teleport) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(transform, "transform"); r != SPINDRIFT_OK)
            return r;
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setTransform(h, toCpp(*transform), teleport));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_attach(spindrift_world world,
                                                         spindrift_instance instance,
                                                         spindrift_path_fn path, void* user) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            if (path == nullptr) {
                const RuntimeError e = w.world.followPath(h, nullptr);
                if (e == RuntimeError::none) w.releasePath(h.value);
                return worldResult(w, e);
            }
            // Room first, so that nothing can fail once the world follows the new path.
            w.paths.items.reserve(w.paths.items.size() + 1);
            HostPath* adapter = hostNew<HostPath>(path, user);
            const RuntimeError e = w.world.followPath(h, adapter);
            if (e != RuntimeError::none) {
                hostDelete(adapter);
                return worldResult(w, e);
            }
            w.releasePath(h.value); // the previous path of this instance, if any
            w.paths.items.push_back(AttachedPath{h.value, adapter});
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_time_scale(spindrift_world world,
                                                                 spindrift_instance instance,
                                                                 float time_scale) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setTimeScale(h, time_scale));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_seek(spindrift_world world,
                                                       spindrift_instance instance, double time_s) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.seek(h, time_s));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_advance_to(spindrift_world world,
                                                             spindrift_instance instance,
                                                             double time_s) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.advanceTo(h, time_s));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_visible(spindrift_world world,
                                                              spindrift_instance instance,
                                                              bool visible) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setVisible(h, visible));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_is_alive(spindrift_world world,
                                                           spindrift_instance instance,
                                                           bool* out_alive) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_alive, "out_alive"); r != SPINDRIFT_OK)
            return r;
        *out_alive = false;
        WorldObject* w;
        if (const spindrift_result r = resolve(world.id, w); r != SPINDRIFT_OK) return r;
        *out_alive = w->world.isAlive(InstanceHandle{instance.id});
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_info_get(spindrift_world world,
                                                           spindrift_instance instance,
                                                           spindrift_instance_info* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            InstanceInfo info;
            if (const RuntimeError e = w.world.info(h, info); e != RuntimeError::none)
                return worldResult(w, e);
            out->state = static_cast<uint32_t>(info.state);
            out->effect = info.effect.value;
            out->effect_version = info.effect_version;
            out->backend = static_cast<uint32_t>(info.backend);
            out->time_s = info.time_s;
            out->steps = info.steps;
            out->live_particles = info.live_particles;
            out->discarded_steps = info.discarded_steps;
            out->restarts_by_reload = info.restarts_by_reload;
            out->transform = toC(info.transform);
            out->asleep = info.asleep;
            out->culled = info.culled;
            out->important = info.important;
            out->birth_fade = info.birth_fade;
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_is_playing(spindrift_world world,
                                                             spindrift_instance instance,
                                                             bool* out_playing) {
    return guarded(__func__, [&] {
        return instanceQuery(world, instance, out_playing, "out_playing", &World::isPlaying);
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_is_finished(spindrift_world world,
                                                              spindrift_instance instance,
                                                              bool* out_finished) {
    return guarded(__func__, [&] {
        return instanceQuery(world, instance, out_finished, "out_finished", &World::isFinished);
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_read_particles(spindrift_world world,
                                                                 spindrift_instance instance,
                                                                 spindrift_particle* out,
                                                                 uint32_t capacity,
                                                                 uint32_t* out_count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_count, "out_count"); r != SPINDRIFT_OK)
            return r;
        *out_count = 0;
        if (out == nullptr && capacity > 0)
            return fail(SPINDRIFT_ERROR_NULL_POINTER, "out is NULL but capacity is %u", capacity);
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            if (const RuntimeError e = w.world.readParticles(h, w.particles);
                e != RuntimeError::none)
                return worldResult(w, e);
            const size_t n = w.particles.size();
            if (n > UINT32_MAX) {
                return fail(SPINDRIFT_ERROR_CAPACITY_EXCEEDED,
                            "%zu particles do not fit a uint32_t count", n);
            }
            *out_count = static_cast<uint32_t>(n);
            const size_t copied = n < capacity ? n : capacity;
            if (copied > 0) std::memcpy(out, w.particles.data(), copied * sizeof(Particle));
            if (capacity > 0 && n > capacity) {
                return fail(SPINDRIFT_ERROR_BUFFER_TOO_SMALL,
                            "the instance has %zu particles; out holds %u (the first %u copied)", n,
                            capacity, capacity);
            }
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_tint(spindrift_world world,
                                                           spindrift_instance instance,
                                                           const spindrift_color* tint) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(tint, "tint"); r != SPINDRIFT_OK) return r;
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setTint(h, toCpp(*tint)));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_size_scale(spindrift_world world,
                                                                 spindrift_instance instance,
                                                                 float size_scale) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setSizeScale(h, size_scale));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_spawn_rate_scale(spindrift_world world,
                                                                       spindrift_instance instance,
                                                                       float spawn_rate_scale) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setSpawnRateScale(h, spawn_rate_scale));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_seed(spindrift_world world,
                                                           spindrift_instance instance,
                                                           uint32_t seed) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setSeed(h, seed));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_emitter_enabled(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* emitter,
                                                                      bool enabled) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(emitter, "emitter"); r != SPINDRIFT_OK)
            return r;
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setEmitterEnabled(h, emitter, enabled));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_important(spindrift_world world,
                                                                spindrift_instance instance,
                                                                bool important) {
    return guarded(__func__, [&] {
        return withInstance(world, instance, [&](WorldObject& w, InstanceHandle h) {
            return worldResult(w, w.world.setImportant(h, important));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_set_parameter_float(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name,
                                                                      float value) {
    return guarded(__func__, [&] { return setParameter(world, instance, name, value); });
}

SPINDRIFT_API spindrift_result
spindrift_instance_set_parameter_float3(spindrift_world world, spindrift_instance instance,
                                        const char* name, const spindrift_vec3* value) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(value, "value"); r != SPINDRIFT_OK) return r;
        return setParameter(world, instance, name, toCpp(*value));
    });
}

SPINDRIFT_API spindrift_result
spindrift_instance_set_parameter_color(spindrift_world world, spindrift_instance instance,
                                       const char* name, const spindrift_color* value) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(value, "value"); r != SPINDRIFT_OK) return r;
        return setParameter(world, instance, name, toCpp(*value));
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_get_parameter_float(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name,
                                                                      float* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        return getParameter(world, instance, name, *out);
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_get_parameter_float3(spindrift_world world,
                                                                       spindrift_instance instance,
                                                                       const char* name,
                                                                       spindrift_vec3* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        Vec3 v;
        const spindrift_result r = getParameter(world, instance, name, v);
        if (r == SPINDRIFT_OK) *out = toC(v);
        return r;
    });
}

SPINDRIFT_API spindrift_result spindrift_instance_get_parameter_color(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name,
                                                                      spindrift_color* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        Color c;
        const spindrift_result r = getParameter(world, instance, name, c);
        if (r == SPINDRIFT_OK) *out = toC(c);
        return r;
    });
}

} // extern "C"
