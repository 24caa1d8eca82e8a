/* A minimal C99 host over the C API: load an effect, spawn an instance, update frames and read
 * the draw list a renderer would draw. Run from the repository root: c_minimal [effect.json]
 * Exits 0 only when the draw list had particles to draw. */
#include <stdio.h>

#include "spindrift/spindrift.h"

/* Prints the failed call's message and returns 1: every Spindrift call returns a result, and
 * spindrift_last_error_message() says in words what was wrong. */
static int fail(const char* what) {
    fprintf(stderr, "c_minimal: %s: %s\n", what, spindrift_last_error_message());
    return 1;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "examples/effects/campfire.json";
    spindrift_library library = {0};
    spindrift_world world = {0};
    spindrift_draw_list list = {0};
    spindrift_effect_id effect;
    spindrift_instance_desc desc;
    spindrift_instance instance;
    spindrift_draw_view view;
    spindrift_draw_list_stats stats;
    const spindrift_draw_batch* batches = NULL;
    uint32_t batch_count = 0;
    uint64_t most_drawn = 0;
    int frame;
    int status = 1;

    printf("c_minimal: Spindrift %s\n", spindrift_version_string());
    if (spindrift_library_create(&library) != SPINDRIFT_OK) return fail("library");
    if (spindrift_library_add_file(library, path, &effect) != SPINDRIFT_OK ||
        spindrift_world_create(library, NULL, &world) != SPINDRIFT_OK ||
        spindrift_draw_list_create(&list) != SPINDRIFT_OK) {
        status = fail("setup");
        goto done;
    }

    spindrift_default_instance_desc(&desc); /* sets struct_size and the defaults */
    desc.effect = effect;
    desc.transform.position.z = -4;
    if (spindrift_instance_create(world, &desc, &instance) != SPINDRIFT_OK) {
        status = fail("instance");
        goto done;
    }

    spindrift_default_draw_view(&view); /* at the origin, looking down -Z at the instance */
    stats.struct_size = sizeof stats;
    for (frame = 0; frame < 90; ++frame) {
        uint64_t drawn = 0;
        uint32_t i;
        if (spindrift_world_update(world, 1.0 / 60.0, NULL) != SPINDRIFT_OK ||
            spindrift_world_draw_list(world, &view, list) != SPINDRIFT_OK ||
            spindrift_draw_list_batches(list, sizeof(spindrift_draw_batch), &batches,
                                        &batch_count) != SPINDRIFT_OK) {
            status = fail("frame");
            goto done;
        }
        for (i = 0; i < batch_count; ++i) drawn += batches[i].particle_count;
        if (drawn > most_drawn) most_drawn = drawn;
    }
    if (spindrift_draw_list_stats_get(list, &stats) != SPINDRIFT_OK) {
        status = fail("stats");
        goto done;
    }

    printf("c_minimal: %s: %u batches, %llu particles drawn in the last frame (most in a frame: "
           "%llu)\n",
           path, batch_count, (unsigned long long)stats.particles, (unsigned long long)most_drawn);
    if (stats.particles == 0) {
        fprintf(stderr, "c_minimal: nothing was drawn\n");
    } else {
        status = 0;
    }

done:
    /* Destroying a null handle is OK; the world goes before the library it uses. */
    spindrift_draw_list_destroy(list);
    spindrift_world_destroy(world);
    spindrift_library_destroy(library);
    return status;
}
