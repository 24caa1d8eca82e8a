/* The C API from a C99 program (include/spindrift/spindrift.h): every area of it, each check on
 * behaviour the runtime must show (live counts grow, a burst adds exactly its count, events arrive
 * with their kind, the draw list holds every live particle, a parameter changes what is drawn).
 * Bad use (null, stale and forged handles, wrong sizes, NaN) is capi_bad_use_test.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "spindrift/spindrift.h"

#define STEP_S (1.0 / 60.0)

/* "main": a fountain whose rate, wind and colour are user parameters, killed by the host's
 * colliders, pulled by the host's attractors, reporting births, deaths and contacts. "burst":
 * born only by spindrift_instance_emit, long-lived and still. */
static const char kEffect[] =
    "{\"version\": 1, \"name\": \"capi\", \"seed\": 7,\n"
    " \"bounds\": {\"center\": [0, 1, 0], \"half_extents\": [4, 4, 4]},\n"
    " \"parameters\": [\n"
    "  {\"name\": \"intensity\", \"type\": \"float\", \"default\": 200, \"range\": [0, 1000]},\n"
    "  {\"name\": \"wind\", \"type\": \"float3\", \"default\": [0, 0, 0], \"range\": [-10, 10]},\n"
    "  {\"name\": \"tint\", \"type\": \"color\", \"default\": [1, 1, 1, 1],\n"
    "   \"range\": [0, [4, 4, 4, 1]]}],\n"
    " \"emitters\": [\n"
    "  {\"name\": \"main\", \"capacity\": 4096,\n"
    "   \"spawn\": {\"rate_per_s\": {\"param\": \"intensity\"}},\n"
    "   \"init\": {\"lifetime_s\": [2, 2], \"speed\": [1, 2], \"velocity\": [0, 2, 0],\n"
    "            \"color\": {\"param\": \"tint\"}},\n"
    "   \"update\": [{\"type\": \"gravity\"},\n"
    "              {\"type\": \"force\", \"acceleration\": {\"param\": \"wind\"}},\n"
    "              {\"type\": \"collision\", \"depth_buffer\": true, \"response\": \"kill\"},\n"
    "              {\"type\": \"world_attractors\"}],\n"
    "   \"events\": {\"birth\": true, \"death\": true, \"collision\": true,\n"
    "              \"max_per_step\": 4096}},\n"
    "  {\"name\": \"burst\", \"capacity\": 4096, \"spawn\": {\"rate_per_s\": 0},\n"
    "   \"init\": {\"lifetime_s\": [100, 100], \"speed\": [0, 0]},\n"
    "   \"render\": {\"blend\": \"premultiplied\", \"emissive\": 3, \"emissive_share\": 0.25}}]}\n";

/* The same effect with the "main" emitter's capacity changed (a reload that restarts). */
static char* editedEffect(void) {
    static char text[sizeof kEffect + 8];
    const char* at = strstr(kEffect, "\"capacity\": 4096");
    size_t head = (size_t)(at - kEffect);
    memcpy(text, kEffect, head);
    strcpy(text + head, "\"capacity\": 2048");
    strcpy(text + head + strlen("\"capacity\": 2048"), at + strlen("\"capacity\": 4096"));
    return text;
}

/* The host allocator: malloc with counts, so the test sees every C-layer block come back. */
typedef struct Counts {
    long allocations, reallocations, releases;
} Counts;

static void* countedAllocate(size_t bytes, void* user) {
    ((Counts*)user)->allocations += 1;
    return malloc(bytes);
}
static void* countedReallocate(void* memory, size_t bytes, void* user) {
    ((Counts*)user)->reallocations += 1;
    if (memory == NULL) ((Counts*)user)->allocations += 1;
    return realloc(memory, bytes);
}
static void countedRelease(void* memory, void* user) {
    if (memory != NULL) ((Counts*)user)->releases += 1;
    free(memory);
}

static uint32_t liveParticles(spindrift_world world, spindrift_instance instance) {
    spindrift_instance_info info;
    info.struct_size = sizeof info;
    CHECK_OK(spindrift_instance_info_get(world, instance, &info));
    return (uint32_t)info.live_particles;
}

/* Particles of one emitter, read back. */
static uint32_t emitterParticles(spindrift_world world, spindrift_instance instance,
                                 uint32_t emitter_index, spindrift_particle* out,
                                 uint32_t capacity) {
    uint32_t count = 0, matching = 0, i;
    CHECK_OK(spindrift_instance_read_particles(world, instance, out, capacity, &count));
    for (i = 0; i < count; ++i) matching += out[i].emitter_index == emitter_index ? 1u : 0u;
    return matching;
}

static void update(spindrift_world world, int frames) {
    int i;
    for (i = 0; i < frames; ++i) CHECK_OK(spindrift_world_update(world, STEP_S, NULL));
}

static spindrift_instance makeInstance(spindrift_world world, spindrift_effect_id effect,
                                       uint32_t flags) {
    spindrift_instance_desc desc;
    spindrift_instance instance;
    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = effect;
    desc.flags = flags;
    CHECK_OK(spindrift_instance_create(world, &desc, &instance));
    CHECK(instance.id != 0);
    return instance;
}

static void testVersion(void) {
    char expected[32];
    CHECK(spindrift_version() == SPINDRIFT_HEADER_VERSION);
    CHECK(SPINDRIFT_VERSION_MAJOR == PROJECT_VERSION_MAJOR);
    CHECK(SPINDRIFT_VERSION_MINOR == PROJECT_VERSION_MINOR);
    CHECK(SPINDRIFT_VERSION_PATCH == PROJECT_VERSION_PATCH);
    snprintf(expected, sizeof expected, "%d.%d.%d", PROJECT_VERSION_MAJOR, PROJECT_VERSION_MINOR,
             PROJECT_VERSION_PATCH);
    CHECK(strcmp(spindrift_version_string(), expected) == 0);
    CHECK(strcmp(spindrift_result_name(SPINDRIFT_ERROR_STALE_HANDLE), "stale handle") == 0);
    CHECK(strcmp(spindrift_result_name(SPINDRIFT_OK), "ok") == 0);
}

static void testValidation(void) {
    static const char kBad[] =
        "{\"version\": 1, \"name\": \"bad\",\n"
        " \"emitters\": [{\"name\": \"a\", \"spawn\": {\"rate_per_s\": -5}}]}\n";
    spindrift_diagnostics diagnostics;
    spindrift_diagnostic d;
    uint32_t count = 0, errors = 0;
    char path[1024];

    CHECK_OK(spindrift_validate_text(kEffect, strlen(kEffect), "capi.json", &diagnostics));
    CHECK_OK(spindrift_diagnostics_error_count(diagnostics, &errors));
    CHECK(errors == 0);
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));

    /* The message names the file, line:col and JSON path of the first error. */
    CHECK_FAILS(spindrift_validate_text(kBad, strlen(kBad), "bad.json", &diagnostics),
                SPINDRIFT_ERROR_EFFECT_FAILED, "bad.json:2:");
    CHECK(strstr(spindrift_last_error_message(), "$.emitters[0].spawn.rate_per_s") != NULL);
    CHECK_OK(spindrift_diagnostics_count(diagnostics, &count));
    CHECK(count == 1);
    d.struct_size = sizeof d;
    CHECK_OK(spindrift_diagnostics_get(diagnostics, 0, &d));
    CHECK(d.severity == SPINDRIFT_SEVERITY_ERROR);
    CHECK(strcmp(d.file, "bad.json") == 0);
    CHECK(d.line == 2 && d.column > 0);
    CHECK(strcmp(d.path, "$.emitters[0].spawn.rate_per_s") == 0);
    CHECK(strstr(d.message, "-5") != NULL);
    CHECK_FAILS(spindrift_diagnostics_get(diagnostics, 1, &d), SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE,
                "index 1");
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));

    snprintf(path, sizeof path, "%s/examples/effects/campfire.json", SPINDRIFT_SOURCE_DIR);
    CHECK_OK(spindrift_validate_file(path, NULL));
    CHECK_FAILS(spindrift_validate_file("no/such/effect.json", NULL),
                SPINDRIFT_ERROR_EFFECT_FAILED, "no/such/effect.json");
}

static void testLibrary(spindrift_library library) {
    char path[1024], name[SPINDRIFT_MAX_NAME_BYTES + 1], small[3];
    spindrift_effect_id gust, again, text_id;
    spindrift_effect_info info;
    spindrift_parameter_info parameter;
    spindrift_diagnostics diagnostics;
    spindrift_reload_report report;
    size_t length = 0;
    uint32_t count = 0;
    FILE* file;
    const char* kLive = "capi_test_live.json";

    snprintf(path, sizeof path, "%s/examples/effects/ember_gust.json", SPINDRIFT_SOURCE_DIR);
    CHECK_OK(spindrift_library_add_file(library, path, &gust));
    CHECK_OK(spindrift_library_add_file(library, path, &again));
    CHECK(gust != 0 && again == gust);
    info.struct_size = sizeof info;
    CHECK_OK(spindrift_library_effect_info(library, gust, &info));
    CHECK(!info.compiled && info.version == 0); /* lazy: nothing read yet */
    CHECK_OK(spindrift_library_compile(library, gust));
    CHECK_OK(spindrift_library_effect_info(library, gust, &info));
    CHECK(info.compiled && !info.failed && info.version == 1);
    CHECK(info.emitter_count == 1 && info.parameter_count == 4);

    CHECK_OK(spindrift_library_emitter_name(library, gust, 0, NULL, 0, &length));
    CHECK(length == strlen("embers"));
    CHECK_OK(spindrift_library_emitter_name(library, gust, 0, name, sizeof name, &length));
    CHECK(strcmp(name, "embers") == 0);
    CHECK_FAILS(spindrift_library_emitter_name(library, gust, 0, small, sizeof small, &length),
                SPINDRIFT_ERROR_BUFFER_TOO_SMALL, "7 bytes needed");
    CHECK(strcmp(small, "em") == 0 && length == 6);
    CHECK_OK(spindrift_library_emitter_texture(library, gust, 0, path, sizeof path, &length));
    CHECK(length > 9 && strcmp(path + length - 9, "spark.png") == 0);
    CHECK_OK(spindrift_library_emitter_mesh(library, gust, 0, path, sizeof path, &length));
    CHECK(length == 0 && path[0] == '\0');
    CHECK_FAILS(spindrift_library_emitter_name(library, gust, 1, name, sizeof name, NULL),
                SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE, "1 emitter");

    parameter.struct_size = sizeof parameter;
    CHECK_OK(spindrift_library_parameter_info(library, gust, 2, &parameter));
    CHECK(strcmp(parameter.name, "wind") == 0 && parameter.kind == SPINDRIFT_PARAMETER_FLOAT3);
    CHECK(parameter.default_value.r == 0.6f && parameter.min.r == -8 && parameter.max.g == 8);
    CHECK_OK(spindrift_library_parameter_info(library, gust, 1, &parameter));
    CHECK(strcmp(parameter.name, "tint") == 0 && parameter.kind == SPINDRIFT_PARAMETER_COLOR);

    /* An effect held in memory: the same name and text give the same id; new text reloads on
     * the next poll; text that no longer validates is rejected and the last good version stays. */
    CHECK_OK(spindrift_library_add_text(library, "mem/capi.json", kEffect, strlen(kEffect),
                                        &text_id));
    CHECK_OK(spindrift_library_add_text(library, "mem/capi.json", kEffect, strlen(kEffect),
                                        &again));
    CHECK(again == text_id && text_id != gust);
    CHECK_OK(spindrift_library_compile(library, text_id));
    report.struct_size = sizeof report;
    CHECK_OK(spindrift_library_poll_changes(library, &report, NULL));
    CHECK(report.files_changed == 0);
    {
        const char* edited = editedEffect();
        CHECK_OK(spindrift_library_add_text(library, "mem/capi.json", edited, strlen(edited),
                                            &again));
    }
    CHECK_OK(spindrift_library_poll_changes(library, &report, NULL));
    CHECK(report.files_changed == 1 && report.files_reloaded == 1 && report.files_rejected == 0);
    CHECK_OK(spindrift_library_effect_info(library, text_id, &info));
    CHECK(info.version == 2);
    CHECK_OK(spindrift_library_add_text(library, "mem/capi.json", "{\"version\": 1,", 14, &again));
    CHECK_OK(spindrift_library_poll_changes(library, &report, &diagnostics));
    CHECK(report.files_rejected == 1);
    CHECK_OK(spindrift_diagnostics_error_count(diagnostics, &count));
    CHECK(count >= 1);
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));
    CHECK_OK(spindrift_library_effect_info(library, text_id, &info));
    CHECK(info.version == 2 && info.failed && info.compiled);
    CHECK_OK(spindrift_library_effect_diagnostics(library, text_id, &diagnostics));
    CHECK_OK(spindrift_diagnostics_count(diagnostics, &count));
    CHECK(count == info.diagnostic_count && count >= 1);
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));
    snprintf(path, sizeof path, "%s/examples/effects/ember_gust.json", SPINDRIFT_SOURCE_DIR);
    CHECK_FAILS(spindrift_library_add_text(library, path, kEffect, strlen(kEffect), &again),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "already registered as a file");
    CHECK_FAILS(spindrift_library_compile(library, 999), SPINDRIFT_ERROR_UNKNOWN_EFFECT, "999");

    /* Hot reload of a file on disk. */
    file = fopen(kLive, "wb");
    CHECK(file != NULL);
    fputs(kEffect, file);
    fclose(file);
    CHECK_OK(spindrift_library_add_file(library, kLive, &again));
    CHECK_OK(spindrift_library_compile(library, again));
    file = fopen(kLive, "wb");
    CHECK(file != NULL);
    fputs(editedEffect(), file);
    fclose(file);
    CHECK_OK(spindrift_library_poll_changes(library, &report, NULL));
    CHECK(report.files_reloaded == 1);
    CHECK_OK(spindrift_library_effect_info(library, again, &info));
    CHECK(info.version == 2);
    remove(kLive);
}

/* A path that moves its instance along +X at 1 m/s, starting 10 m out. */
static void slidePath(double time_s, spindrift_matrix3x4* out, void* user) {
    *(int*)user += 1;
    out->rows[0][3] = (float)(10.0 + time_s);
}

static void testInstances(spindrift_world world, spindrift_effect_id effect) {
    spindrift_instance a, idle;
    spindrift_instance_info info;
    spindrift_particle* particles = malloc(8192 * sizeof *particles);
    spindrift_transform t = spindrift_identity_transform();
    uint32_t before, after, i, n;
    bool flag = false;
    int path_calls = 0;
    CHECK(particles != NULL);

    a = makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
    idle = makeInstance(world, effect, 0);
    update(world, 30);
    before = liveParticles(world, a);
    CHECK(before > 0);
    CHECK(liveParticles(world, idle) == 0);
    update(world, 30);
    CHECK(liveParticles(world, a) > before); /* still filling toward its 2 s lifetime */
    CHECK_OK(spindrift_instance_is_playing(world, idle, &flag));
    CHECK(!flag);
    CHECK_OK(spindrift_instance_play(world, idle));
    CHECK_OK(spindrift_instance_is_playing(world, idle, &flag));
    CHECK(flag);
    update(world, 10);
    CHECK(liveParticles(world, idle) > 0);

    /* Pause holds everything; resume plays on. */
    CHECK_OK(spindrift_instance_pause(world, a));
    info.struct_size = sizeof info;
    CHECK_OK(spindrift_instance_info_get(world, a, &info));
    CHECK(info.state == SPINDRIFT_STATE_PAUSED);
    before = liveParticles(world, a);
    {
        double time_s = info.time_s;
        update(world, 5);
        CHECK_OK(spindrift_instance_info_get(world, a, &info));
        CHECK(info.time_s == time_s && info.live_particles == before);
    }
    CHECK_OK(spindrift_instance_resume(world, a));
    update(world, 1);
    CHECK_OK(spindrift_instance_info_get(world, a, &info));
    CHECK(info.state == SPINDRIFT_STATE_PLAYING && info.steps > 0);

    /* A burst by emitter name adds exactly its count. */
    before = emitterParticles(world, a, 1, particles, 8192);
    CHECK_OK(spindrift_instance_emit(world, a, "burst", 37));
    update(world, 1);
    after = emitterParticles(world, a, 1, particles, 8192);
    CHECK(after == before + 37);
    CHECK_FAILS(spindrift_instance_emit(world, a, "nope", 1), SPINDRIFT_ERROR_UNKNOWN_EMITTER,
                "burst"); /* the message lists the names there are */

    /* Teleport: the next births are at the new place. */
    t.position.x = 50;
    CHECK_OK(spindrift_instance_set_transform(world, a, &t, true));
    CHECK_OK(spindrift_instance_emit(world, a, "burst", 5));
    update(world, 1);
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    for (i = 0, after = 0; i < n; ++i)
        after += particles[i].emitter_index == 1 && fabsf(particles[i].position.x - 50) < 1 ? 1u : 0u;
    CHECK(after == 5);
    CHECK_OK(spindrift_instance_info_get(world, a, &info));
    CHECK(info.transform.position.x == 50);

    /* A count query, and a buffer too small. */
    CHECK_OK(spindrift_instance_read_particles(world, a, NULL, 0, &n));
    CHECK(n == liveParticles(world, a));
    CHECK_FAILS(spindrift_instance_read_particles(world, a, particles, 3, &n),
                SPINDRIFT_ERROR_BUFFER_TOO_SMALL, "particles");
    CHECK(n > 3);

    /* Attached to a path: births follow it. */
    CHECK_OK(spindrift_instance_attach(world, a, slidePath, &path_calls));
    update(world, 1);
    CHECK(path_calls > 0);
    CHECK_OK(spindrift_instance_emit(world, a, "burst", 4));
    update(world, 1);
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    for (i = 0, after = 0; i < n; ++i)
        after += particles[i].emitter_index == 1 && particles[i].position.x > 9.5f &&
                         particles[i].position.x < 12
                     ? 1u
                     : 0u;
    CHECK(after == 4);
    CHECK_OK(spindrift_instance_attach(world, a, NULL, NULL));
    path_calls = 0;
    update(world, 1);
    CHECK(path_calls == 0);

    /* Time scale 0 holds it still; seek replays to a time. */
    CHECK_OK(spindrift_instance_set_time_scale(world, a, 0));
    CHECK_OK(spindrift_instance_info_get(world, a, &info));
    {
        uint64_t steps = info.steps;
        update(world, 3);
        CHECK_OK(spindrift_instance_info_get(world, a, &info));
        CHECK(info.steps == steps);
    }
    CHECK_OK(spindrift_instance_set_time_scale(world, a, 1));
    CHECK_OK(spindrift_instance_seek(world, a, 0.5));
    CHECK_OK(spindrift_instance_info_get(world, a, &info));
    CHECK(fabs(info.time_s - 0.5) < 0.02);
    CHECK_OK(spindrift_instance_advance_to(world, a, 1.0));
    CHECK_OK(spindrift_instance_info_get(world, a, &info));
    CHECK(fabs(info.time_s - 1.0) < 0.02);

    /* Stop: no births, the particles finish their lives, the instance finishes. */
    CHECK_OK(spindrift_instance_clear(world, idle));
    CHECK(liveParticles(world, idle) == 0);
    CHECK_OK(spindrift_instance_is_finished(world, idle, &flag));
    CHECK(flag);
    CHECK_OK(spindrift_instance_restart(world, idle));
    CHECK_OK(spindrift_instance_is_playing(world, idle, &flag));
    CHECK(flag);
    CHECK_OK(spindrift_instance_stop(world, idle));
    update(world, 200); /* 2 s lifetimes */
    CHECK_OK(spindrift_instance_is_finished(world, idle, &flag));
    CHECK(flag);
    CHECK_OK(spindrift_instance_is_alive(world, idle, &flag));
    CHECK(flag);
    CHECK_OK(spindrift_instance_destroy(world, idle));
    CHECK_OK(spindrift_instance_is_alive(world, idle, &flag));
    CHECK(!flag);

    /* Destroy on finish. */
    {
        spindrift_instance once = makeInstance(
            world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE | SPINDRIFT_INSTANCE_DESTROY_ON_FINISH);
        spindrift_update_receipt receipt;
        uint32_t destroyed = 0;
        int frame;
        receipt.struct_size = sizeof receipt;
        update(world, 2);
        CHECK_OK(spindrift_instance_stop(world, once));
        for (frame = 0; frame < 300; ++frame) {
            CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
            destroyed += receipt.destroyed_on_finish;
        }
        CHECK(destroyed == 1);
        CHECK_OK(spindrift_instance_is_alive(world, once, &flag));
        CHECK(!flag);
    }
    CHECK_OK(spindrift_instance_destroy(world, a));
    free(particles);
}

static void testOverridesAndParameters(spindrift_world world, spindrift_effect_id effect) {
    spindrift_instance a = makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
    spindrift_particle* particles = malloc(8192 * sizeof *particles);
    spindrift_color half = {0.5f, 0.25f, 1, 1};
    spindrift_color tint = {2, 0, 0, 1}, got_color;
    spindrift_vec3 wind = {3, 0, -2}, got_wind;
    float intensity = 0;
    double wind_vx = 0, calm_vx = 0;
    uint32_t n, i, before, key_before;
    CHECK(particles != NULL);
    update(world, 20);

    /* Tint and size scale apply to what is read back. */
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    CHECK(n > 0 && particles[0].color.r == 1 && particles[0].color.g == 1);
    {
        float size = particles[0].size_m;
        CHECK_OK(spindrift_instance_set_tint(world, a, &half));
        CHECK_OK(spindrift_instance_set_size_scale(world, a, 3));
        CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
        CHECK(particles[0].color.r == 0.5f && particles[0].color.g == 0.25f);
        CHECK(fabsf(particles[0].size_m - 3 * size) < 1e-5f);
    }
    CHECK_OK(spindrift_instance_set_size_scale(world, a, 1));
    CHECK_OK(spindrift_instance_set_tint(world, a, &(spindrift_color){1, 1, 1, 1}));

    /* Spawn-rate scale 0 and a disabled emitter stop births. */
    CHECK_OK(spindrift_instance_set_spawn_rate_scale(world, a, 0));
    update(world, 1);
    before = liveParticles(world, a);
    update(world, 5);
    CHECK(liveParticles(world, a) <= before);
    CHECK_OK(spindrift_instance_set_spawn_rate_scale(world, a, 1));
    CHECK_OK(spindrift_instance_set_emitter_enabled(world, a, "main", false));
    update(world, 1);
    before = liveParticles(world, a);
    update(world, 5);
    CHECK(liveParticles(world, a) <= before);
    CHECK_OK(spindrift_instance_set_emitter_enabled(world, a, "main", true));
    update(world, 5);
    CHECK(liveParticles(world, a) > before);

    /* A new seed restarts it with other particles. */
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    key_before = particles[0].key;
    CHECK_OK(spindrift_instance_set_seed(world, a, 12345));
    CHECK(liveParticles(world, a) == 0);
    update(world, 5);
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    CHECK(n > 0 && particles[0].key != key_before);

    /* Parameters: defaults, then set values change the births. */
    CHECK_OK(spindrift_instance_get_parameter_float(world, a, "intensity", &intensity));
    CHECK(intensity == 200);
    CHECK_OK(spindrift_instance_set_parameter_float3(world, a, "wind", &wind));
    CHECK_OK(spindrift_instance_get_parameter_float3(world, a, "wind", &got_wind));
    CHECK(got_wind.x == 3 && got_wind.z == -2);
    CHECK_OK(spindrift_instance_set_parameter_color(world, a, "tint", &tint));
    CHECK_OK(spindrift_instance_get_parameter_color(world, a, "tint", &got_color));
    CHECK(got_color.r == 2 && got_color.g == 0);
    CHECK_OK(spindrift_instance_restart(world, a));
    update(world, 10);
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    CHECK(n > 0);
    for (i = 0; i < n; ++i) {
        if (particles[i].emitter_index != 0) continue;
        CHECK(particles[i].color.r == 2 && particles[i].color.g == 0);
        wind_vx += particles[i].velocity_m_per_s.x;
    }
    /* The same particles (same seed) without wind: the wind pushed every one along +x. */
    got_wind.x = got_wind.y = got_wind.z = 0;
    CHECK_OK(spindrift_instance_set_parameter_float3(world, a, "wind", &got_wind));
    CHECK_OK(spindrift_instance_restart(world, a));
    update(world, 10);
    CHECK_OK(spindrift_instance_read_particles(world, a, particles, 8192, &n));
    for (i = 0; i < n; ++i)
        calm_vx += particles[i].emitter_index == 0 ? particles[i].velocity_m_per_s.x : 0;
    CHECK(wind_vx > calm_vx + 0.1 * n); /* 3 m/s^2 for ages of 0 to 1/6 s */
    CHECK_OK(spindrift_instance_set_parameter_float(world, a, "intensity", 0));
    update(world, 1);
    before = liveParticles(world, a);
    update(world, 10);
    CHECK(liveParticles(world, a) <= before);
    CHECK_FAILS(spindrift_instance_set_parameter_float(world, a, "intensity", 5000),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "intensity");
    CHECK_FAILS(spindrift_instance_set_parameter_float(world, a, "wind", 1),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "wind");
    CHECK_FAILS(spindrift_instance_set_parameter_float(world, a, "nope", 1),
                SPINDRIFT_ERROR_UNKNOWN_PARAMETER, "intensity");
    CHECK_OK(spindrift_instance_destroy(world, a));
    free(particles);
}

/* The distance field of the ground plane y = 0, counting its calls (a one-thread world). */
static float groundDistance(const spindrift_vec3* position, spindrift_vec3* gradient, void* user) {
    *(long*)user += 1;
    gradient->x = 0;
    gradient->y = 1;
    gradient->z = 0;
    return position->y;
}

static void testEventsAndColliders(spindrift_library library, spindrift_effect_id effect) {
    spindrift_world_config config;
    spindrift_world world;
    spindrift_collider colliders[6];
    spindrift_attractor attractors[20];
    spindrift_update_receipt receipt;
    const spindrift_event* events = NULL;
    uint32_t count = 0, i, births = 0, collisions = 0, deaths = 0, kinds_ok = 1;
    char name[SPINDRIFT_MAX_NAME_BYTES + 1];
    float heights[4] = {0, 0, 0, 0};
    long field_calls = 0;
    spindrift_scene_depth depth;
    float depth_samples[64];
    spindrift_instance a;
    int frame;

    CHECK_OK(spindrift_default_world_config(&config));
    CHECK_OK(spindrift_world_create(library, &config, &world));
    a = makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);

    /* Every collider kind, each in its own group. */
    for (i = 0; i < 6; ++i) {
        CHECK_OK(spindrift_default_collider(&colliders[i]));
        colliders[i].shape = i;
        colliders[i].groups = 1u << i;
        colliders[i].position.x = i == 0 ? 0 : 100 + 10 * (float)i; /* only the plane is near */
    }
    colliders[SPINDRIFT_COLLIDER_HEIGHTFIELD].heights = heights;
    colliders[SPINDRIFT_COLLIDER_HEIGHTFIELD].columns = 2;
    colliders[SPINDRIFT_COLLIDER_HEIGHTFIELD].rows = 2;
    CHECK_OK(spindrift_world_set_colliders(world, colliders, 6));
    CHECK_OK(spindrift_world_collider_count(world, &count));
    CHECK(count == 6);

    receipt.struct_size = sizeof receipt;
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.events > 0);
    CHECK_OK(spindrift_world_events(world, sizeof(spindrift_event), &events, &count));
    CHECK(count == receipt.events && events != NULL);
    for (i = 0; i < count; ++i) {
        kinds_ok &= events[i].kind == SPINDRIFT_EVENT_BIRTH ? 1u : 0u;
        kinds_ok &= events[i].instance.id == a.id ? 1u : 0u;
        kinds_ok &= events[i].emitter_index == 0 ? 1u : 0u;
    }
    CHECK(kinds_ok); /* the first step only gives births */
    CHECK_OK(spindrift_world_event_emitter_name(world, 0, name, sizeof name, NULL));
    CHECK(strcmp(name, "main") == 0);
    CHECK_FAILS(spindrift_world_event_emitter_name(world, count, name, sizeof name, NULL),
                SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE, "event index");

    /* Particles fall back to the ground plane and are killed there: contacts, then deaths. */
    for (frame = 0; frame < 90; ++frame) {
        CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
        CHECK_OK(spindrift_world_events(world, sizeof(spindrift_event), &events, &count));
        for (i = 0; i < count; ++i) {
            births += events[i].kind == SPINDRIFT_EVENT_BIRTH ? 1u : 0u;
            deaths += events[i].kind == SPINDRIFT_EVENT_DEATH ? 1u : 0u;
            if (events[i].kind == SPINDRIFT_EVENT_COLLISION) {
                collisions += 1;
                CHECK(fabsf(events[i].normal.y - 1) < 1e-4f); /* the plane's normal */
            }
        }
    }
    CHECK(births > 0 && collisions > 0 && deaths > 0);

    /* A wrong element refuses the whole set; the previous one stays. */
    colliders[2].struct_size = 4;
    CHECK_FAILS(spindrift_world_set_colliders(world, colliders, 6), SPINDRIFT_ERROR_STRUCT_SIZE,
                "colliders[2]");
    colliders[2].struct_size = sizeof colliders[2];
    colliders[3].groups = 0;
    CHECK_FAILS(spindrift_world_set_colliders(world, colliders, 6),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "collider 3");
    CHECK_OK(spindrift_world_collider_count(world, &count));
    CHECK(count == 6);
    CHECK_OK(spindrift_world_set_colliders(world, NULL, 0));
    CHECK_OK(spindrift_world_collider_count(world, &count));
    CHECK(count == 0);

    /* The host's distance field takes over the ground: still contacts, through the callback. */
    CHECK_OK(spindrift_world_set_distance_field(world, groundDistance, &field_calls,
                                                SPINDRIFT_ALL_COLLISION_GROUPS));
    for (frame = 0, collisions = 0; frame < 90; ++frame) {
        CHECK_OK(spindrift_world_update(world, STEP_S, NULL));
        CHECK_OK(spindrift_world_events(world, sizeof(spindrift_event), &events, &count));
        for (i = 0; i < count; ++i)
            collisions += events[i].kind == SPINDRIFT_EVENT_COLLISION ? 1u : 0u;
    }
    CHECK(field_calls > 0 && collisions > 0);
    CHECK_OK(spindrift_world_set_distance_field(world, NULL, NULL, SPINDRIFT_ALL_COLLISION_GROUPS));

    /* The scene depth takes over: the ground as a camera 10 m above it, looking down, sees it
     * (10 m of depth in every pixel). The collision module has depth_buffer. */
    for (i = 0; i < 64; ++i) depth_samples[i] = 10.0f;
    CHECK_OK(spindrift_default_scene_depth(&depth));
    depth.samples = depth_samples;
    depth.width = 8;
    depth.height = 8;
    depth.eye.y = 10;
    depth.forward = (spindrift_vec3){0, -1, 0};
    depth.up = (spindrift_vec3){0, 0, -1};
    depth.vertical_fov_rad = 2.0f;
    CHECK_OK(spindrift_world_set_scene_depth(world, &depth));
    for (frame = 0, collisions = 0; frame < 90; ++frame) {
        CHECK_OK(spindrift_world_update(world, STEP_S, NULL));
        CHECK_OK(spindrift_world_events(world, sizeof(spindrift_event), &events, &count));
        for (i = 0; i < count; ++i) {
            if (events[i].kind != SPINDRIFT_EVENT_COLLISION) continue;
            collisions += 1;
            CHECK(fabsf(events[i].normal.y - 1) < 1e-3f); /* the ground's, from the depth */
        }
    }
    CHECK(collisions > 0);
    depth_samples[9] = -1.0f;
    CHECK_FAILS(spindrift_world_set_scene_depth(world, &depth), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "scene depth sample 9 (row 1, column 1)");
    depth.struct_size = 4;
    CHECK_FAILS(spindrift_world_set_scene_depth(world, &depth), SPINDRIFT_ERROR_STRUCT_SIZE,
                "depth->struct_size");
    CHECK_OK(spindrift_world_set_scene_depth(world, NULL));

    /* Attractors: the 16 nearest the camera act, the rest are counted. */
    for (i = 0; i < 20; ++i) {
        CHECK_OK(spindrift_default_attractor(&attractors[i]));
        attractors[i].position.x = (float)i;
    }
    CHECK_OK(spindrift_world_set_attractors(world, attractors, 20));
    CHECK_OK(spindrift_world_set_camera_position(world, &(spindrift_vec3){0, 0, 0}));
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.attractors_active == SPINDRIFT_ACTIVE_ATTRACTORS);
    CHECK(receipt.attractors_dropped == 20 - SPINDRIFT_ACTIVE_ATTRACTORS);

    CHECK_OK(spindrift_world_destroy(world));
}

static void testScalability(spindrift_library library, spindrift_effect_id effect) {
    spindrift_world world;
    spindrift_instance instances[3];
    spindrift_update_receipt receipt;
    spindrift_budgets budgets;
    spindrift_draw_view away;
    spindrift_instance_info info;
    uint32_t tier = 99, i;
    float scale = -1;

    CHECK_OK(spindrift_world_create(library, NULL, &world));
    for (i = 0; i < 3; ++i) {
        spindrift_transform t = spindrift_identity_transform();
        instances[i] = makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
        t.position.z = -10.0f * (float)(i + 1);
        CHECK_OK(spindrift_instance_set_transform(world, instances[i], &t, true));
    }
    receipt.struct_size = sizeof receipt;

    /* A global spawn scale of 0: no births anywhere. */
    CHECK_OK(spindrift_world_set_spawn_scale(world, 0));
    CHECK_OK(spindrift_world_spawn_scale(world, &scale));
    CHECK(scale == 0);
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.live_particles == 0);
    CHECK_OK(spindrift_world_set_spawn_scale(world, 1));
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.live_particles > 0);

    CHECK_OK(spindrift_world_set_quality_tier(world, SPINDRIFT_QUALITY_LOW));
    CHECK_OK(spindrift_world_quality_tier(world, &tier));
    CHECK(tier == SPINDRIFT_QUALITY_LOW);
    CHECK_FAILS(spindrift_world_set_quality_tier(world, 3), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "tier");
    CHECK_OK(spindrift_world_set_quality_tier(world, SPINDRIFT_QUALITY_HIGH));

    /* Budgets: one awake instance; the farther two sleep, unless important. */
    budgets.struct_size = sizeof budgets;
    budgets.max_awake_instances = 1;
    budgets.max_live_particles = 0;
    CHECK_OK(spindrift_world_set_budgets(world, &budgets));
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.asleep_by_budget == 2);
    CHECK_OK(spindrift_instance_set_important(world, instances[2], true));
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    info.struct_size = sizeof info;
    CHECK_OK(spindrift_instance_info_get(world, instances[2], &info));
    CHECK(info.important && !info.asleep);
    budgets.max_awake_instances = 0;
    CHECK_OK(spindrift_world_set_budgets(world, &budgets));

    /* A cull view looking away from every instance culls them all. */
    CHECK_OK(spindrift_default_draw_view(&away));
    away.forward.z = 1;
    CHECK_OK(spindrift_world_set_cull_view(world, &away));
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.instances_culled == 3);
    CHECK_OK(spindrift_world_set_cull_view(world, NULL));
    CHECK_OK(spindrift_world_update(world, STEP_S, &receipt));
    CHECK(receipt.instances_culled == 0);
    CHECK_OK(spindrift_world_destroy(world));
}

/* A world of its own: destroyed world-space instances of other tests would still be drawn
 * while their particles finish (retention). */
static void testDrawList(spindrift_library library, spindrift_effect_id effect) {
    spindrift_world world;
    spindrift_instance a, b;
    spindrift_draw_list list;
    spindrift_draw_view view;
    spindrift_draw_list_stats stats;
    const spindrift_draw_batch* batches = NULL;
    spindrift_color red = {3, 0, 0, 1};
    spindrift_vec3 corners[4];
    uint64_t drawn = 0;
    uint32_t count = 0, i, j;
    spindrift_transform far_away = spindrift_identity_transform();

    CHECK_OK(spindrift_world_create(library, NULL, &world));
    a = makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
    b = makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
    far_away.position.z = -30;
    CHECK_OK(spindrift_instance_set_transform(world, b, &far_away, true));
    update(world, 20);
    CHECK_OK(spindrift_instance_emit(world, a, "burst", 10));
    update(world, 1);
    CHECK_OK(spindrift_default_draw_view(&view));
    view.eye.z = 10;
    CHECK_OK(spindrift_draw_list_create(&list));
    CHECK_OK(spindrift_world_draw_list(world, &view, list));
    CHECK_OK(spindrift_draw_list_batches(list, sizeof(spindrift_draw_batch), &batches, &count));
    CHECK(count == 3); /* a: main and burst; b: main (its burst emitter has nothing) */
    CHECK(batches[0].instance.id == b.id); /* the farthest first */
    for (i = 0; i < count; ++i) {
        CHECK(batches[i].kind == SPINDRIFT_DRAW_BILLBOARDS && !batches[i].device_resident);
        CHECK(batches[i].particle_length == batches[i].particle_count);
        /* The emitter's emission: "burst" sets it, "main" has the defaults. */
        CHECK(batches[i].emitter_index == 1
                  ? batches[i].emissive == 3 && batches[i].emissive_share == 0.25f
                  : batches[i].emissive == 1 && batches[i].emissive_share == 0);
        drawn += batches[i].particle_length;
    }
    CHECK(drawn == liveParticles(world, a) + liveParticles(world, b));
    stats.struct_size = sizeof stats;
    CHECK_OK(spindrift_draw_list_stats_get(list, &stats));
    CHECK(stats.particles == drawn && stats.instances_drawn == 2);
    CHECK_OK(spindrift_billboard_corners(&view, &batches[0], &batches[0].particles[0], corners));
    CHECK(corners[0].x != corners[2].x);

    /* A parameter changes what is drawn: new births are red. */
    CHECK_OK(spindrift_instance_set_parameter_color(world, a, "tint", &red));
    CHECK_OK(spindrift_instance_restart(world, a));
    update(world, 5);
    CHECK_OK(spindrift_world_draw_list(world, &view, list));
    CHECK_OK(spindrift_draw_list_batches(list, sizeof(spindrift_draw_batch), &batches, &count));
    for (i = 0, drawn = 0; i < count; ++i) {
        if (batches[i].instance.id != a.id) continue;
        for (j = 0; j < batches[i].particle_length; ++j) {
            CHECK(batches[i].particles[j].color.r == 3 && batches[i].particles[j].color.g == 0);
            drawn += 1;
        }
    }
    CHECK(drawn > 0 && drawn == liveParticles(world, a));

    /* A hidden instance is left out. */
    CHECK_OK(spindrift_instance_set_visible(world, b, false));
    CHECK_OK(spindrift_world_draw_list(world, &view, list));
    CHECK_OK(spindrift_draw_list_batches(list, sizeof(spindrift_draw_batch), &batches, &count));
    for (i = 0; i < count; ++i) CHECK(batches[i].instance.id == a.id);

    CHECK_OK(spindrift_draw_list_destroy(list));
    CHECK_OK(spindrift_world_destroy(world));
}

/* The host's job system: a plain loop that runs the jobs backwards (any order must do). */
static void reverseParallelFor(uint32_t count, spindrift_job_fn job, void* job_context,
                               void* user) {
    uint32_t i;
    *(long*)user += 1;
    for (i = count; i > 0; --i) job(job_context, i - 1);
}

static void testWorldConfig(spindrift_library library, spindrift_effect_id effect) {
    spindrift_world_config config;
    spindrift_world world;
    spindrift_world_stats stats;
    long batches = 0;
    CHECK_OK(spindrift_default_world_config(&config));
    CHECK(config.threads == 1 && config.backend == SPINDRIFT_BACKEND_CPU);
    config.parallel_for = reverseParallelFor;
    config.parallel_for_user = &batches;
    CHECK_OK(spindrift_world_create(library, &config, &world));
    makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
    makeInstance(world, effect, SPINDRIFT_INSTANCE_PLAY_ON_CREATE);
    update(world, 3);
    CHECK(batches > 0);
    stats.struct_size = sizeof stats;
    CHECK_OK(spindrift_world_stats_get(world, &stats));
    CHECK(stats.updates == 3 && stats.instances_created == 2 && stats.instance_count == 2);
    CHECK_OK(spindrift_world_destroy(world)); /* destroys its instances too */
}

int main(void) {
    Counts counts = {0, 0, 0};
    spindrift_allocator allocator = {sizeof(spindrift_allocator), countedAllocate,
                                     countedReallocate, countedRelease, NULL};
    spindrift_library library;
    spindrift_world_config config;
    spindrift_world world;
    spindrift_effect_id effect;
    allocator.user = &counts;

    testVersion();
    CHECK_OK(spindrift_set_allocator(&allocator));
    testValidation();

    CHECK_OK(spindrift_library_create(&library));
    CHECK(counts.allocations > 0); /* the C layer's own memory comes from the host */
    CHECK_FAILS(spindrift_set_allocator(NULL), SPINDRIFT_ERROR_IN_USE, "still in use");
    testLibrary(library);
    CHECK_OK(spindrift_library_add_text(library, "capi.json", kEffect, strlen(kEffect), &effect));
    CHECK_OK(spindrift_library_compile(library, effect));

    CHECK_OK(spindrift_default_world_config(&config));
    config.threads = 2;
    CHECK_OK(spindrift_world_create(library, &config, &world));
    CHECK_FAILS(spindrift_library_destroy(library), SPINDRIFT_ERROR_IN_USE, "1 world");
    testInstances(world, effect);
    testOverridesAndParameters(world, effect);
    testDrawList(library, effect);
    testEventsAndColliders(library, effect);
    testScalability(library, effect);
    testWorldConfig(library, effect);

    CHECK_OK(spindrift_world_destroy(world));
    CHECK_OK(spindrift_library_destroy(library));
    /* Every block went back to the allocator that gave it, so it can be replaced now. */
    CHECK(counts.releases == counts.allocations);
    CHECK(counts.reallocations > 0);
    CHECK_OK(spindrift_set_allocator(NULL));
    puts("capi_test: ok");
    return 0;
}
