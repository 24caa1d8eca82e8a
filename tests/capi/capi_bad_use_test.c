/* Bad use of the C API: null, forged, mistyped and stale handles, calls after destroy, wrong
 * struct sizes, NULL out-pointers, NaN and out-of-range values, an allocator that runs dry. Every
 * case must return its error code with a message naming what was wrong, and never crash; the
 * asan preset runs this under AddressSanitizer and UBSan, so a use after free or an overflow fails
 * it too. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "spindrift/spindrift.h"

static const char kEffect[] =
    "{\"version\": 1, \"name\": \"bad_use\",\n"
    " \"parameters\": [{\"name\": \"rate\", \"type\": \"float\", \"default\": 50,\n"
    "                  \"range\": [0, 100]}],\n"
    " \"emitters\": [{\"name\": \"sparks\", \"spawn\": {\"rate_per_s\": {\"param\": \"rate\"}},\n"
    "               \"init\": {\"lifetime_s\": [1, 1]}}]}\n";

/* An allocator that refuses after `budget` allocations. */
static long g_budget;
static void* dryAllocate(size_t bytes, void* user) {
    (void)user;
    if (g_budget <= 0) return NULL;
    g_budget -= 1;
    return malloc(bytes);
}
static void* dryReallocate(void* memory, size_t bytes, void* user) {
    (void)user;
    if (g_budget <= 0) return NULL;
    g_budget -= 1;
    return realloc(memory, bytes);
}
static void dryRelease(void* memory, void* user) {
    (void)user;
    free(memory);
}

static void testNullHandles(void) {
    spindrift_library no_library = {0};
    spindrift_world no_world = {0};
    spindrift_draw_list no_list = {0};
    spindrift_diagnostics no_diagnostics = {0};
    spindrift_effect_id id = 7;
    spindrift_world world;
    uint32_t count = 9;
    bool flag = true;

    CHECK_FAILS(spindrift_library_add_file(no_library, "x.json", &id), SPINDRIFT_ERROR_NULL_HANDLE,
                "null library handle");
    CHECK(id == 0); /* out-values are reset on failure */
    CHECK_FAILS(spindrift_world_create(no_library, NULL, &world), SPINDRIFT_ERROR_NULL_HANDLE,
                "null library handle");
    CHECK(world.id == 0);
    CHECK_FAILS(spindrift_world_update(no_world, 0.016, NULL), SPINDRIFT_ERROR_NULL_HANDLE,
                "spindrift_world_update: the null world handle");
    CHECK_FAILS(spindrift_instance_is_alive(no_world, (spindrift_instance){1}, &flag),
                SPINDRIFT_ERROR_NULL_HANDLE, "world");
    CHECK(!flag);
    CHECK_FAILS(spindrift_draw_list_batches(no_list, sizeof(spindrift_draw_batch),
                                            &(const spindrift_draw_batch*){NULL}, &count),
                SPINDRIFT_ERROR_NULL_HANDLE, "draw list");
    CHECK(count == 0);
    CHECK_FAILS(spindrift_diagnostics_count(no_diagnostics, &count), SPINDRIFT_ERROR_NULL_HANDLE,
                "diagnostics");
    /* Destroying nothing is fine, as free(NULL). */
    CHECK_OK(spindrift_library_destroy(no_library));
    CHECK_OK(spindrift_world_destroy(no_world));
    CHECK_OK(spindrift_draw_list_destroy(no_list));
    CHECK_OK(spindrift_diagnostics_destroy(no_diagnostics));
    CHECK(spindrift_last_error_message()[0] == '\0'); /* a call that succeeds clears it */
}

static void testForgedAndMistypedHandles(spindrift_library library, spindrift_world world) {
    spindrift_world forged = {0x7777777700000001ull | (2ull << 24)};
    spindrift_world mistyped;
    spindrift_draw_list list;
    spindrift_instance forged_instance = {0x0000123400000005ull};
    spindrift_effect_id id;
    bool alive = true;

    CHECK_FAILS(spindrift_world_update(forged, 0.016, NULL), SPINDRIFT_ERROR_INVALID_HANDLE,
                "never made");
    CHECK_OK(spindrift_draw_list_create(&list));
    mistyped.id = list.id; /* a draw list handle passed as a world */
    CHECK_FAILS(spindrift_world_update(mistyped, 0.016, NULL), SPINDRIFT_ERROR_INVALID_HANDLE,
                "is not a world handle");
    CHECK_FAILS(spindrift_library_add_file((spindrift_library){world.id}, "x.json", &id),
                SPINDRIFT_ERROR_INVALID_HANDLE, "is not a library handle");
    CHECK_OK(spindrift_draw_list_destroy(list));
    (void)library;

    CHECK_FAILS(spindrift_instance_play(world, forged_instance), SPINDRIFT_ERROR_INVALID_HANDLE,
                "handle 0x0000123400000005");
    CHECK_OK(spindrift_instance_is_alive(world, forged_instance, &alive));
    CHECK(!alive);
}

static void testStaleHandles(spindrift_library library, spindrift_effect_id effect) {
    spindrift_world world;
    spindrift_draw_list list;
    spindrift_diagnostics diagnostics;
    spindrift_instance instance;
    spindrift_instance_desc desc;
    spindrift_instance_info info;
    spindrift_world_stats stats;
    spindrift_draw_view view;
    char text[128];
    bool flag = true;

    CHECK_OK(spindrift_world_create(library, NULL, &world));
    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = effect;
    CHECK_OK(spindrift_instance_create(world, &desc, &instance));
    CHECK_OK(spindrift_world_update(world, 0.1, NULL));
    CHECK_OK(spindrift_instance_destroy(world, instance));

    /* A destroyed instance: every call says stale and names the handle. */
    snprintf(text, sizeof text, "handle 0x%016llx", (unsigned long long)instance.id);
    CHECK_FAILS(spindrift_instance_play(world, instance), SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK(strstr(spindrift_last_error_message(), "stale") != NULL);
    CHECK_FAILS(spindrift_instance_destroy(world, instance), SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK_FAILS(spindrift_instance_emit(world, instance, "sparks", 1),
                SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK_FAILS(spindrift_instance_set_parameter_float(world, instance, "rate", 1),
                SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK_FAILS(spindrift_instance_is_playing(world, instance, &flag),
                SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK(!flag);
    info.struct_size = sizeof info;
    CHECK_FAILS(spindrift_instance_info_get(world, instance, &info), SPINDRIFT_ERROR_STALE_HANDLE,
                text);
    CHECK_FAILS(spindrift_instance_attach(world, instance, NULL, NULL),
                SPINDRIFT_ERROR_STALE_HANDLE, text);
    stats.struct_size = sizeof stats;
    CHECK_OK(spindrift_world_stats_get(world, &stats));
    CHECK(stats.stale_handle_uses >= 7);
    /* Null instance handle. */
    CHECK_FAILS(spindrift_instance_stop(world, (spindrift_instance){0}),
                SPINDRIFT_ERROR_NULL_HANDLE, "null instance handle");

    /* Calls after destroy: the world, a list, diagnostics. */
    CHECK_OK(spindrift_world_destroy(world));
    snprintf(text, sizeof text, "world handle 0x%016llx is stale", (unsigned long long)world.id);
    CHECK_FAILS(spindrift_world_update(world, 0.016, NULL), SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK_FAILS(spindrift_instance_play(world, instance), SPINDRIFT_ERROR_STALE_HANDLE, text);
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance), SPINDRIFT_ERROR_STALE_HANDLE,
                text);
    CHECK(instance.id == 0);
    CHECK_FAILS(spindrift_world_destroy(world), SPINDRIFT_ERROR_STALE_HANDLE, text);

    CHECK_OK(spindrift_draw_list_create(&list));
    CHECK_OK(spindrift_draw_list_destroy(list));
    CHECK_OK(spindrift_default_draw_view(&view));
    CHECK_FAILS(spindrift_draw_list_destroy(list), SPINDRIFT_ERROR_STALE_HANDLE, "draw list");
    CHECK_OK(spindrift_world_create(library, NULL, &world));
    CHECK_FAILS(spindrift_world_draw_list(world, &view, list), SPINDRIFT_ERROR_STALE_HANDLE,
                "draw list");
    CHECK_OK(spindrift_world_destroy(world));

    CHECK_FAILS(spindrift_validate_text("{", 1, "x.json", &diagnostics),
                SPINDRIFT_ERROR_EFFECT_FAILED, "x.json");
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));
    {
        spindrift_diagnostic d;
        d.struct_size = sizeof d;
        CHECK_FAILS(spindrift_diagnostics_get(diagnostics, 0, &d), SPINDRIFT_ERROR_STALE_HANDLE,
                    "diagnostics handle");
    }
}

static void testStructSizes(spindrift_library library, spindrift_world world,
                            spindrift_effect_id effect) {
    spindrift_world_config config;
    spindrift_instance_desc desc;
    spindrift_update_receipt receipt;
    spindrift_draw_view view;
    spindrift_budgets budgets = {0, 0, 0};
    spindrift_allocator allocator = {0, dryAllocate, dryReallocate, dryRelease, NULL};
    spindrift_instance instance;
    spindrift_world other;
    spindrift_attractor attractor;
    spindrift_effect_info info;
    const spindrift_event* events;
    uint32_t count;

    CHECK_OK(spindrift_default_world_config(&config));
    config.struct_size -= 4;
    CHECK_FAILS(spindrift_world_create(library, &config, &other), SPINDRIFT_ERROR_STRUCT_SIZE,
                "config->struct_size");
    CHECK(other.id == 0);
    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = effect;
    desc.struct_size = 0; /* not set at all */
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance), SPINDRIFT_ERROR_STRUCT_SIZE,
                "struct_size not set");
    desc.struct_size = sizeof desc + 8; /* a newer header */
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance), SPINDRIFT_ERROR_STRUCT_SIZE,
                "desc->struct_size");
    receipt.struct_size = 3;
    CHECK_FAILS(spindrift_world_update(world, 0.016, &receipt), SPINDRIFT_ERROR_STRUCT_SIZE,
                "out->struct_size");
    CHECK_OK(spindrift_default_draw_view(&view));
    view.struct_size = 1;
    CHECK_FAILS(spindrift_world_set_cull_view(world, &view), SPINDRIFT_ERROR_STRUCT_SIZE, "view");
    CHECK_FAILS(spindrift_world_set_budgets(world, &budgets), SPINDRIFT_ERROR_STRUCT_SIZE,
                "budgets");
    CHECK_OK(spindrift_default_attractor(&attractor));
    attractor.struct_size = 2;
    CHECK_FAILS(spindrift_world_set_attractors(world, &attractor, 1), SPINDRIFT_ERROR_STRUCT_SIZE,
                "attractors[0]");
    CHECK_FAILS(spindrift_world_events(world, 16, &events, &count), SPINDRIFT_ERROR_STRUCT_SIZE,
                "event_size");
    info.struct_size = sizeof info - 1;
    CHECK_FAILS(spindrift_library_effect_info(library, effect, &info), SPINDRIFT_ERROR_STRUCT_SIZE,
                "out->struct_size");
    CHECK_FAILS(spindrift_set_allocator(&allocator), SPINDRIFT_ERROR_STRUCT_SIZE,
                "allocator->struct_size");
}

static void testNullPointersAndValues(spindrift_library library, spindrift_world world,
                                      spindrift_effect_id effect) {
    spindrift_instance_desc desc;
    spindrift_instance instance;
    spindrift_transform t = spindrift_identity_transform();
    spindrift_color nan_tint = {NAN, 1, 1, 1};
    spindrift_update_receipt receipt;
    spindrift_collider collider;
    spindrift_attractor attractor;
    spindrift_world_config config;
    spindrift_world other;
    const spindrift_event* events;
    uint32_t count;
    size_t length;
    float value;
    spindrift_effect_id scratch;

    CHECK_FAILS(spindrift_library_create(NULL), SPINDRIFT_ERROR_NULL_POINTER, "out_library");
    CHECK_FAILS(spindrift_library_add_file(library, NULL, &scratch), SPINDRIFT_ERROR_NULL_POINTER,
                "path");
    CHECK_FAILS(spindrift_library_add_file(library, "x.json", NULL), SPINDRIFT_ERROR_NULL_POINTER,
                "out_effect");
    CHECK_FAILS(spindrift_library_add_text(library, "t.json", NULL, 5, &scratch),
                SPINDRIFT_ERROR_NULL_POINTER, "text");
    CHECK_FAILS(spindrift_world_create(library, NULL, NULL), SPINDRIFT_ERROR_NULL_POINTER,
                "out_world");
    CHECK_FAILS(spindrift_instance_create(world, NULL, &instance), SPINDRIFT_ERROR_NULL_POINTER,
                "desc");
    CHECK_FAILS(spindrift_world_events(world, sizeof(spindrift_event), NULL, &count),
                SPINDRIFT_ERROR_NULL_POINTER, "out_events");
    CHECK_FAILS(spindrift_world_events(world, sizeof(spindrift_event), &events, NULL),
                SPINDRIFT_ERROR_NULL_POINTER, "out_count");
    CHECK_FAILS(spindrift_library_emitter_name(library, effect, 0, NULL, 8, &length),
                SPINDRIFT_ERROR_NULL_POINTER, "buffer");
    CHECK_FAILS(spindrift_world_set_colliders(world, NULL, 2), SPINDRIFT_ERROR_NULL_POINTER,
                "colliders");
    CHECK_FAILS(spindrift_diagnostics_get((spindrift_diagnostics){0}, 0, NULL),
                SPINDRIFT_ERROR_NULL_POINTER, "out");
    CHECK_FAILS(spindrift_billboard_corners(NULL, NULL, NULL, NULL), SPINDRIFT_ERROR_NULL_POINTER,
                "view");

    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = effect;
    CHECK_OK(spindrift_instance_create(world, &desc, &instance));
    CHECK_FAILS(spindrift_instance_set_transform(world, instance, NULL, false),
                SPINDRIFT_ERROR_NULL_POINTER, "transform");
    CHECK_FAILS(spindrift_instance_emit(world, instance, NULL, 3), SPINDRIFT_ERROR_NULL_POINTER,
                "emitter");
    CHECK_FAILS(spindrift_instance_get_parameter_float(world, instance, "rate", NULL),
                SPINDRIFT_ERROR_NULL_POINTER, "out");
    CHECK_FAILS(spindrift_instance_set_parameter_float(world, instance, NULL, 1),
                SPINDRIFT_ERROR_NULL_POINTER, "name");
    CHECK_FAILS(spindrift_instance_read_particles(world, instance, NULL, 10, &count),
                SPINDRIFT_ERROR_NULL_POINTER, "out is NULL");

    /* NaN and out-of-range values: refused, the instance unchanged. */
    t.position.y = NAN;
    CHECK_FAILS(spindrift_instance_set_transform(world, instance, &t, false),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "finite");
    desc.transform.rotation.w = 0; /* a zero quaternion */
    desc.transform.rotation.x = 0;
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "");
    desc.transform = spindrift_identity_transform();
    desc.flags = 0x80;
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "flags");
    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = effect;
    CHECK_OK(spindrift_instance_create(world, &desc, &instance));
    CHECK_FAILS(spindrift_instance_set_time_scale(world, instance, NAN),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_instance_set_time_scale(world, instance, -1),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_instance_seek(world, instance, NAN), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "");
    CHECK_FAILS(spindrift_instance_advance_to(world, instance, 1e300),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_instance_set_tint(world, instance, &nan_tint),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_instance_set_size_scale(world, instance, INFINITY),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_instance_set_spawn_rate_scale(world, instance, NAN),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_instance_set_parameter_float(world, instance, "rate", NAN),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "rate");
    CHECK_OK(spindrift_instance_get_parameter_float(world, instance, "rate", &value));
    CHECK(value == 50); /* unchanged */
    CHECK_FAILS(spindrift_instance_emit(world, instance, "sparks", 0xFFFFFFFFu),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "emit count");
    CHECK_FAILS(spindrift_world_set_spawn_scale(world, NAN), SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_FAILS(spindrift_world_set_camera_position(world, &(spindrift_vec3){NAN, 0, 0}),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera");
    CHECK_OK(spindrift_default_collider(&collider));
    collider.radius = NAN;
    collider.shape = SPINDRIFT_COLLIDER_SPHERE;
    CHECK_FAILS(spindrift_world_set_colliders(world, &collider, 1),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "collider 0");
    collider.shape = 99;
    CHECK_FAILS(spindrift_world_set_colliders(world, &collider, 1),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "colliders[0].shape");
    CHECK_OK(spindrift_default_attractor(&attractor));
    attractor.strength = NAN;
    CHECK_FAILS(spindrift_world_set_attractors(world, &attractor, 1),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
    CHECK_OK(spindrift_default_world_config(&config));
    config.threads = 0;
    CHECK_FAILS(spindrift_world_create(library, &config, &other), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "threads");
    config.threads = 1;
    config.backend = 7;
    CHECK_FAILS(spindrift_world_create(library, &config, &other), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "backend");
    config.backend = 0;
    CHECK(config.seek_checkpoint_interval_steps == 60);
    config.seek_checkpoint_interval_steps = (1u << 20) + 1;
    CHECK_FAILS(spindrift_world_create(library, &config, &other), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "seek_checkpoint_interval_steps");
    config.seek_checkpoint_interval_steps = 60;
    config.max_seek_checkpoint_bytes = ~(uint64_t)0;
    CHECK_FAILS(spindrift_world_create(library, &config, &other), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "max_seek_checkpoint_bytes");
    /* A config of the size from before the checkpoint fields is accepted (an older host), the
     * garbage past its end never read. */
    config.struct_size = (uint32_t)SPINDRIFT_WORLD_CONFIG_SIZE_WITHOUT_CHECKPOINTS;
    CHECK_OK(spindrift_world_create(library, &config, &other));
    CHECK_OK(spindrift_world_destroy(other));
    config.struct_size = sizeof config;
    config.max_seek_checkpoint_bytes = 1u << 20;

    /* A NaN frame time runs as a zero-length frame and says so. */
    receipt.struct_size = sizeof receipt;
    CHECK_FAILS(spindrift_world_update(world, NAN, &receipt), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "frame_dt_s");
    CHECK(receipt.frame_rejected && receipt.steps == 0);
    CHECK_FAILS(spindrift_world_update(world, -1, &receipt), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "frame_dt_s");
    CHECK_OK(spindrift_world_update(world, 1e30, &receipt)); /* capped, the rest reported */
    CHECK(receipt.discarded_steps > 0);

    /* A bad view: an empty list and an error. */
    {
        spindrift_draw_list list;
        spindrift_draw_view view;
        const spindrift_draw_batch* batches;
        CHECK_OK(spindrift_draw_list_create(&list));
        CHECK_OK(spindrift_default_draw_view(&view));
        CHECK_OK(spindrift_world_draw_list(world, &view, list));
        CHECK_OK(spindrift_draw_list_batches(list, sizeof(spindrift_draw_batch), &batches, &count));
        CHECK(count > 0);
        view.fov_y_deg = NAN;
        CHECK_FAILS(spindrift_world_draw_list(world, &view, list),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "");
        CHECK_OK(spindrift_draw_list_batches(list, sizeof(spindrift_draw_batch), &batches, &count));
        CHECK(count == 0);
        CHECK_OK(spindrift_draw_list_destroy(list));
    }
    CHECK_OK(spindrift_instance_destroy(world, instance));
}

static void testEffectErrors(spindrift_library library, spindrift_world world) {
    spindrift_effect_id missing, broken;
    spindrift_instance_desc desc;
    spindrift_instance instance;
    CHECK_OK(spindrift_library_add_file(library, "no/such/file.json", &missing));
    CHECK_FAILS(spindrift_library_compile(library, missing), SPINDRIFT_ERROR_EFFECT_FAILED,
                "no/such/file.json");
    CHECK_OK(spindrift_library_add_text(library, "broken.json", "{\"version\": 2}", 14, &broken));
    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = broken;
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance), SPINDRIFT_ERROR_EFFECT_FAILED,
                "broken.json:1:");
    CHECK(instance.id == 0);
    desc.effect = 12345;
    CHECK_FAILS(spindrift_instance_create(world, &desc, &instance), SPINDRIFT_ERROR_UNKNOWN_EFFECT,
                "12345");
    CHECK_FAILS(spindrift_library_add_text(library, "", "{}", 2, &broken),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "name is empty");
}

/* An allocator that runs dry: out of memory is an error code, never a crash or a leak. */
static void testOutOfMemory(void) {
    spindrift_allocator allocator = {sizeof(spindrift_allocator), dryAllocate, dryReallocate,
                                     dryRelease, NULL};
    spindrift_library library;
    spindrift_diagnostics diagnostics;
    long budget;
    int failures = 0, successes = 0;
    CHECK_OK(spindrift_set_allocator(&allocator));
    for (budget = 0; budget < 12; ++budget) {
        spindrift_result r;
        g_budget = budget;
        r = spindrift_library_create(&library);
        if (r == SPINDRIFT_OK) {
            successes += 1;
            g_budget = 1000;
            CHECK_OK(spindrift_library_destroy(library));
            continue;
        }
        CHECK(r == SPINDRIFT_ERROR_OUT_OF_MEMORY && library.id == 0);
        CHECK(strstr(spindrift_last_error_message(), "out of memory") != NULL);
        failures += 1;
    }
    CHECK(failures > 0 && successes > 0);
    /* Diagnostics lists grow through reallocate: a failure part-way leaves nothing behind. */
    for (budget = 0; budget < 12; ++budget) {
        spindrift_result r;
        g_budget = budget;
        r = spindrift_validate_text("{\"version\": 1, \"x\": 1, \"y\": 2}", 30, "m.json",
                                    &diagnostics);
        if (r == SPINDRIFT_ERROR_OUT_OF_MEMORY) {
            CHECK(diagnostics.id == 0);
            continue;
        }
        CHECK(r == SPINDRIFT_ERROR_EFFECT_FAILED && diagnostics.id != 0);
        g_budget = 1000;
        CHECK_OK(spindrift_diagnostics_destroy(diagnostics));
    }
    /* Nothing is left with the dry allocator, so it can be replaced. */
    CHECK_OK(spindrift_set_allocator(NULL));
}

int main(void) {
    spindrift_library library;
    spindrift_world world;
    spindrift_effect_id effect;

    testNullHandles();
    testOutOfMemory();
    CHECK_OK(spindrift_library_create(&library));
    CHECK_OK(spindrift_library_add_text(library, "bad_use.json", kEffect, strlen(kEffect),
                                        &effect));
    CHECK_OK(spindrift_world_create(library, NULL, &world));
    CHECK_FAILS(spindrift_library_destroy(library), SPINDRIFT_ERROR_IN_USE, "destroy them first");
    testForgedAndMistypedHandles(library, world);
    testStaleHandles(library, effect);
    testStructSizes(library, world, effect);
    testNullPointersAndValues(library, world, effect);
    testEffectErrors(library, world);
    CHECK_OK(spindrift_world_destroy(world));
    CHECK_OK(spindrift_library_destroy(library));
    CHECK_FAILS(spindrift_library_add_file(library, "x.json", &effect),
                SPINDRIFT_ERROR_STALE_HANDLE, "library handle");
    puts("capi_bad_use_test: ok");
    return 0;
}
