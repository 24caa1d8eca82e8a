// The world through the C API: creation, the frame update, statistics, events, the host-fed
// world (colliders, distance field, attractors, camera) and scalability.
#include <cmath>
#include <cstring>
#include <string_view>

#include "capi/call_guard.h"
#include "capi/capi_convert.h"
#include "capi/capi_objects.h"
#include "spindrift/spindrift.h"

using namespace spindrift;
using namespace spindrift::capi;

namespace {

// Worker threads a world may ask for: far past any machine, short of exhausting the process.
constexpr uint32_t kMaxWorldThreads = 1024;

spindrift_result worldResult(WorldObject& w, RuntimeError error) {
    return fromRuntime(error, w.world.lastErrorMessage());
}

// The trampoline the C++ world calls for a host distance field (user: the WorldObject).
float distanceTrampoline(Vec3 position, Vec3* gradient, void* user) {
    const auto* w = static_cast<const WorldObject*>(user);
    const spindrift_vec3 p = toC(position);
    spindrift_vec3 g = toC(*gradient);
    const float d = w->distance_fn(&p, &g, w->distance_user);
    *gradient = toCpp(g);
    return d;
}

// Builds a C++ collider from a C one; a problem is returned with the collider's index.
spindrift_result colliderOf(const spindrift_collider& c, uint32_t index, WorldCollider& out) {
    if (c.struct_size != sizeof(spindrift_collider)) {
        return fail(SPINDRIFT_ERROR_STRUCT_SIZE,
                    "colliders[%u].struct_size is %u; this library's size of it is %zu", index,
                    c.struct_size, sizeof(spindrift_collider));
    }
    if (c.shape > SPINDRIFT_COLLIDER_HEIGHTFIELD) {
        return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                    "colliders[%u].shape is %u; expected 0..5 (spindrift_collider_shape)", index,
                    c.shape);
    }
    out.shape = static_cast<ColliderShape>(c.shape);
    out.groups = c.groups;
    out.position = toCpp(c.position);
    out.rotation = toCpp(c.rotation);
    out.half_extents = toCpp(c.half_extents);
    out.radius = c.radius;
    out.half_height = c.half_height;
    out.inside = c.inside;
    out.heights = c.heights;
    out.columns = c.columns;
    out.rows = c.rows;
    out.cell_size_x = c.cell_size_x;
    out.cell_size_z = c.cell_size_z;
    return SPINDRIFT_OK;
}

template <typename Body> spindrift_result withWorld(spindrift_world world, Body&& body) {
    WorldObject* w;
    if (const spindrift_result r = resolve(world.id, w); r != SPINDRIFT_OK) return r;
    return body(*w);
}

} // namespace

extern "C" {

SPINDRIFT_API spindrift_result spindrift_default_world_config(spindrift_world_config* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const WorldConfig d;
        *out = spindrift_world_config{};
        out->struct_size = sizeof(spindrift_world_config);
        out->backend = static_cast<uint32_t>(d.backend);
        out->threads = d.threads;
        out->max_steps_per_frame = d.max_steps_per_frame;
        out->max_instances = d.max_instances;
        out->recycled_per_effect = d.recycled_per_effect;
        out->max_seek_steps = d.max_seek_steps;
        out->seek_checkpoint_interval_steps = d.seek_checkpoint_interval_steps;
        out->max_seek_checkpoint_bytes = d.max_seek_checkpoint_bytes;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_world_create(spindrift_library library,
                                                      const spindrift_world_config* config,
                                                      spindrift_world* out_world) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_world, "out_world"); r != SPINDRIFT_OK)
            return r;
        out_world->id = 0;
        spindrift_world_config c;
        spindrift_default_world_config(&c);
        if (config != nullptr &&
            config->struct_size == SPINDRIFT_WORLD_CONFIG_SIZE_WITHOUT_CHECKPOINTS) {
            // An older host's struct: its fields, the checkpoint settings at their defaults.
            std::memcpy(&c, config, SPINDRIFT_WORLD_CONFIG_SIZE_WITHOUT_CHECKPOINTS);
            c.struct_size = sizeof(spindrift_world_config);
        } else if (config != nullptr) {
            if (const spindrift_result r = requireStruct(config, "config"); r != SPINDRIFT_OK)
                return r;
            c = *config;
        }
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        if (c.backend > SPINDRIFT_BACKEND_AUTOMATIC) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "config->backend is %u; expected 0..2 (spindrift_backend)", c.backend);
        }
        if (c.threads < 1 || c.threads > kMaxWorldThreads) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "config->threads is %u; expected 1..%u",
                        c.threads, kMaxWorldThreads);
        }
        if (c.max_steps_per_frame < 1 || c.max_instances < 1) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "config->max_steps_per_frame (%u) and max_instances (%u) must be >= 1",
                        c.max_steps_per_frame, c.max_instances);
        }
        if (c.seek_checkpoint_interval_steps > kMaxSeekCheckpointIntervalSteps ||
            c.max_seek_checkpoint_bytes > kMaxSeekCheckpointBytes) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "config->seek_checkpoint_interval_steps (%u) must be at most %u and "
                        "max_seek_checkpoint_bytes (%llu) at most %llu",
                        c.seek_checkpoint_interval_steps, kMaxSeekCheckpointIntervalSteps,
                        static_cast<unsigned long long>(c.max_seek_checkpoint_bytes),
                        static_cast<unsigned long long>(kMaxSeekCheckpointBytes));
        }
        WorldConfig cpp;
        cpp.backend = static_cast<SimulationBackend>(c.backend);
        cpp.threads = c.threads;
        cpp.max_steps_per_frame = c.max_steps_per_frame;
        cpp.max_instances = c.max_instances;
        cpp.max_seek_steps = c.max_seek_steps;
        cpp.recycled_per_effect = c.recycled_per_effect;
        cpp.seek_checkpoint_interval_steps = c.seek_checkpoint_interval_steps;
        cpp.max_seek_checkpoint_bytes = c.max_seek_checkpoint_bytes;
        return makeObject<WorldObject>(out_world->id, *lib, cpp, c.parallel_for,
                                       c.parallel_for_user);
    });
}

SPINDRIFT_API spindrift_result spindrift_world_destroy(spindrift_world world) {
    return guarded(__func__, [&] {
        if (world.id == 0) return SPINDRIFT_OK;
        void* object = nullptr;
        const HandleLookup lookup = unregisterObject(world.id, ObjectKind::world, object);
        if (lookup != HandleLookup::live) return handleError(lookup, ObjectKind::world, world.id);
        hostDelete(static_cast<WorldObject*>(object));
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_world_update(spindrift_world world, double frame_dt_s,
                                                      spindrift_update_receipt* out) {
    return guarded(__func__, [&] {
        if (out != nullptr) {
            if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        }
        return withWorld(world, [&](WorldObject& w) {
            const WorldUpdateReceipt r = w.world.update(frame_dt_s);
            w.events.clear();
            w.releaseDeadPaths();
            if (out != nullptr) {
                out->instances = r.instances;
                out->instances_stepped = r.instances_stepped;
                out->finished = r.finished;
                out->steps = r.steps;
                out->discarded_steps = r.discarded_steps;
                out->discarded_s = r.discarded_s;
                out->live_particles = r.live_particles;
                out->destroyed_on_finish = r.destroyed_on_finish;
                out->reloaded_kept = r.reloaded_kept;
                out->reloaded_restarted = r.reloaded_restarted;
                out->reload_failures = r.reload_failures;
                out->frame_rejected = r.frame_rejected;
                out->events = r.events;
                out->events_dropped = r.events_dropped;
                out->events_latency_frames = r.events_latency_frames;
                out->attractors_active = r.attractors_active;
                out->attractors_dropped = r.attractors_dropped;
                out->instances_asleep = r.instances_asleep;
                out->instances_culled = r.instances_culled;
                out->asleep_by_budget = r.asleep_by_budget;
                out->instances_examined = r.instances_examined;
                out->instances_woken = r.instances_woken;
                out->fast_forward_steps = r.fast_forward_steps;
                out->retained_instances = r.retained_instances;
                out->retained_particles = r.retained_particles;
            }
            if (r.frame_rejected) {
                return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                            "frame_dt_s %g is negative or not finite: the update ran as a "
                            "zero-length frame",
                            frame_dt_s);
            }
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_stats_get(spindrift_world world,
                                                         spindrift_world_stats* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        return withWorld(world, [&](WorldObject& w) {
            const WorldStats& s = w.world.stats();
            out->instance_count = w.world.instanceCount();
            out->updates = s.updates;
            out->instances_created = s.instances_created;
            out->instances_destroyed = s.instances_destroyed;
            out->instances_recycled = s.instances_recycled;
            out->stale_handle_uses = s.stale_handle_uses;
            out->rejected_frames = s.rejected_frames;
            out->discarded_steps = s.discarded_steps;
            out->rejected_path_transforms = s.rejected_path_transforms;
            out->instances_retained = s.instances_retained;
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_events(spindrift_world world, uint32_t event_size,
                                                      const spindrift_event** out_events,
                                                      uint32_t* out_count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_events, "out_events"); r != SPINDRIFT_OK)
            return r;
        if (const spindrift_result r = requirePointer(out_count, "out_count"); r != SPINDRIFT_OK)
            return r;
        *out_events = nullptr;
        *out_count = 0;
        if (event_size != sizeof(spindrift_event)) {
            return fail(SPINDRIFT_ERROR_STRUCT_SIZE,
                        "event_size is %u; this library's spindrift_event is %zu bytes", event_size,
                        sizeof(spindrift_event));
        }
        return withWorld(world, [&](WorldObject& w) {
            const std::vector<GameplayEvent>& events = w.world.events();
            w.events.resize(events.size());
            for (size_t i = 0; i < events.size(); ++i) {
                const GameplayEvent& e = events[i];
                spindrift_event& c = w.events[i];
                c.kind = static_cast<uint32_t>(e.kind);
                c.emitter_index = e.emitter_index;
                c.instance.id = e.instance.value;
                c.step = e.step;
                c.particle_key = e.particle_key;
                c.collision_op = e.collision_op;
                c.position = toC(e.position);
                c.velocity = toC(e.velocity);
                c.normal = toC(e.normal);
                c.reserved = 0;
            }
            *out_events = events.empty() ? nullptr : w.events.data();
            *out_count = static_cast<uint32_t>(events.size());
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_event_emitter_name(spindrift_world world,
                                                                  uint32_t event_index,
                                                                  char* buffer, size_t buffer_bytes,
                                                                  size_t* out_length) {
    return guarded(__func__, [&] {
        return withWorld(world, [&](WorldObject& w) {
            const std::vector<GameplayEvent>& events = w.world.events();
            if (event_index >= events.size()) {
                return fail(SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE,
                            "event index %u: the last update delivered %zu event(s)", event_index,
                            events.size());
            }
            return copyOut(w.world.emitterName(events[event_index]), buffer, buffer_bytes,
                           out_length);
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_default_collider(spindrift_collider* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const WorldCollider d;
        *out = spindrift_collider{};
        out->struct_size = sizeof(spindrift_collider);
        out->shape = static_cast<uint32_t>(d.shape);
        out->groups = d.groups;
        out->position = toC(d.position);
        out->rotation = toC(d.rotation);
        out->half_extents = toC(d.half_extents);
        out->radius = d.radius;
        out->half_height = d.half_height;
        out->inside = d.inside;
        out->cell_size_x = d.cell_size_x;
        out->cell_size_z = d.cell_size_z;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_colliders(spindrift_world world,
                                                             const spindrift_collider* colliders,
                                                             uint32_t count) {
    return guarded(__func__, [&] {
        if (colliders == nullptr && count > 0)
            return fail(SPINDRIFT_ERROR_NULL_POINTER, "colliders is NULL but count is %u", count);
        return withWorld(world, [&](WorldObject& w) {
            if (count > kMaxWorldColliders) {
                return fail(SPINDRIFT_ERROR_CAPACITY_EXCEEDED,
                            "%u colliders; a world holds at most %u", count, kMaxWorldColliders);
            }
            HostVector<WorldCollider> cpp(count);
            for (uint32_t i = 0; i < count; ++i) {
                if (const spindrift_result r = colliderOf(colliders[i], i, cpp[i]);
                    r != SPINDRIFT_OK)
                    return r;
            }
            return worldResult(w, w.world.setColliders(cpp.data(), count));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_collider_count(spindrift_world world,
                                                              uint32_t* out_count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_count, "out_count"); r != SPINDRIFT_OK)
            return r;
        return withWorld(world, [&](WorldObject& w) {
            *out_count = w.world.colliderCount();
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_distance_field(spindrift_world world,
                                                                  spindrift_distance_fn field,
                                                                  void* user, uint32_t groups) {
    return guarded(__func__, [&] {
        return withWorld(world, [&](WorldObject& w) {
            const RuntimeError e = w.world.setDistanceField(
                field != nullptr ? distanceTrampoline : nullptr, &w, groups);
            if (e == RuntimeError::none) {
                w.distance_fn = field;
                w.distance_user = user;
            }
            return worldResult(w, e);
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_default_scene_depth(spindrift_scene_depth* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const SceneDepth d;
        *out = spindrift_scene_depth{};
        out->struct_size = sizeof(spindrift_scene_depth);
        out->width = 1;
        out->height = 1;
        out->eye = toC(d.eye);
        out->forward = toC(d.forward);
        out->up = toC(d.up);
        out->vertical_fov_rad = d.vertical_fov_rad;
        out->near_m = d.near_m;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_scene_depth(spindrift_world world,
                                                               const spindrift_scene_depth* depth) {
    return guarded(__func__, [&] {
        return withWorld(world, [&](WorldObject& w) {
            if (depth == nullptr) {
                w.world.clearSceneDepth();
                return SPINDRIFT_OK;
            }
            if (depth->struct_size != sizeof(spindrift_scene_depth)) {
                return fail(SPINDRIFT_ERROR_STRUCT_SIZE,
                            "depth->struct_size is %u; this library's size of it is %zu",
                            depth->struct_size, sizeof(spindrift_scene_depth));
            }
            SceneDepth d;
            d.samples = depth->samples;
            d.width = depth->width;
            d.height = depth->height;
            d.eye = toCpp(depth->eye);
            d.forward = toCpp(depth->forward);
            d.up = toCpp(depth->up);
            d.vertical_fov_rad = depth->vertical_fov_rad;
            d.near_m = depth->near_m;
            return worldResult(w, w.world.setSceneDepth(d));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_default_attractor(spindrift_attractor* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out, "out"); r != SPINDRIFT_OK) return r;
        const WorldAttractor d;
        *out = spindrift_attractor{};
        out->struct_size = sizeof(spindrift_attractor);
        out->position = toC(d.position);
        out->strength = d.strength;
        out->radius = d.radius;
        out->falloff = d.falloff;
        out->groups = d.groups;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_attractors(spindrift_world world,
                                                              const spindrift_attractor* attractors,
                                                              uint32_t count) {
    return guarded(__func__, [&] {
        if (attractors == nullptr && count > 0)
            return fail(SPINDRIFT_ERROR_NULL_POINTER, "attractors is NULL but count is %u", count);
        return withWorld(world, [&](WorldObject& w) {
            if (count > kMaxWorldAttractorsGiven) {
                return fail(SPINDRIFT_ERROR_CAPACITY_EXCEEDED,
                            "%u attractors; a world takes at most %u", count,
                            kMaxWorldAttractorsGiven);
            }
            HostVector<WorldAttractor> cpp(count);
            for (uint32_t i = 0; i < count; ++i) {
                const spindrift_attractor& a = attractors[i];
                if (a.struct_size != sizeof(spindrift_attractor)) {
                    return fail(
                        SPINDRIFT_ERROR_STRUCT_SIZE,
                        "attractors[%u].struct_size is %u; this library's size of it is %zu", i,
                        a.struct_size, sizeof(spindrift_attractor));
                }
                cpp[i].position = toCpp(a.position);
                cpp[i].strength = a.strength;
                cpp[i].radius = a.radius;
                cpp[i].falloff = a.falloff;
                cpp[i].groups = a.groups;
            }
            return worldResult(w, w.world.setAttractors(cpp.data(), count));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_camera_position(spindrift_world world,
                                                                   const spindrift_vec3* position) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(position, "position"); r != SPINDRIFT_OK)
            return r;
        return withWorld(world, [&](WorldObject& w) {
            return worldResult(w, w.world.setCameraPosition(toCpp(*position)));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_spawn_scale(spindrift_world world, float scale) {
    return guarded(__func__, [&] {
        return withWorld(
            world, [&](WorldObject& w) { return worldResult(w, w.world.setSpawnScale(scale)); });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_spawn_scale(spindrift_world world,
                                                           float* out_scale) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_scale, "out_scale"); r != SPINDRIFT_OK)
            return r;
        return withWorld(world, [&](WorldObject& w) {
            *out_scale = w.world.spawnScale();
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_quality_tier(spindrift_world world,
                                                                uint32_t tier) {
    return guarded(__func__, [&] {
        return withWorld(world, [&](WorldObject& w) {
            if (tier > SPINDRIFT_QUALITY_HIGH) {
                return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                            "tier is %u; expected 0..2 (spindrift_quality_tier)", tier);
            }
            return worldResult(w, w.world.setQualityTier(static_cast<QualityTier>(tier)));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_quality_tier(spindrift_world world,
                                                            uint32_t* out_tier) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_tier, "out_tier"); r != SPINDRIFT_OK)
            return r;
        return withWorld(world, [&](WorldObject& w) {
            *out_tier = static_cast<uint32_t>(w.world.qualityTier());
            return SPINDRIFT_OK;
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_cull_view(spindrift_world world,
                                                             const spindrift_draw_view* view) {
    return guarded(__func__, [&] {
        if (view != nullptr) {
            if (const spindrift_result r = requireStruct(view, "view"); r != SPINDRIFT_OK) return r;
        }
        return withWorld(world, [&](WorldObject& w) {
            if (view == nullptr) return worldResult(w, w.world.setCullView(nullptr));
            const DrawView cpp = toCpp(*view);
            return worldResult(w, w.world.setCullView(&cpp));
        });
    });
}

SPINDRIFT_API spindrift_result spindrift_world_set_budgets(spindrift_world world,
                                                           const spindrift_budgets* budgets) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(budgets, "budgets"); r != SPINDRIFT_OK)
            return r;
        return withWorld(world, [&](WorldObject& w) {
            WorldBudgets cpp;
            cpp.max_awake_instances = budgets->max_awake_instances;
            cpp.max_live_particles = budgets->max_live_particles;
            return worldResult(w, w.world.setBudgets(cpp));
        });
    });
}

} // extern "C"
