/* Rendering through the C API (include/spindrift/spindrift.h, "Rendering") on the first Vulkan
 * device (lavapipe in CI), validation on: a world drawn from a camera shows its particles where
 * the camera looks and nothing where it does not, the same frame twice is the same image, textured
 * and mesh effects load their files, a light's bit of shadowed_lights gives it shadows, a file
 * renders at its own or a given size, and bad use (sizes, cameras, handles, options) is an error
 * code with a message. The byte-for-byte match with `spindrift render` is checked from Python
 * (python/tests/test_render.py). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"
#include "spindrift/spindrift.h"

#define WIDTH 64
#define HEIGHT 48
#define FRAME_BYTES (WIDTH * HEIGHT * 4)

static uint8_t frame_a[FRAME_BYTES];
static uint8_t frame_b[FRAME_BYTES];

/* Pixels whose colour differs from the frame's top-left pixel (the background, the camera
 * looking slightly down so the top row is sky). */
static long pixelsUnlikeCorner(const uint8_t* frame, long bytes) {
    long i, count = 0;
    for (i = 0; i < bytes; i += 4) {
        if (memcmp(frame + i, frame, 3) != 0) count += 1;
    }
    return count;
}

static long differingPixels(const uint8_t* a, const uint8_t* b, long bytes) {
    long i, count = 0;
    for (i = 0; i < bytes; i += 4) {
        if (memcmp(a + i, b + i, 4) != 0) count += 1;
    }
    return count;
}

static double sumOfBytes(const uint8_t* frame, long bytes) {
    long i;
    double sum = 0;
    for (i = 0; i < bytes; i += 4) sum += frame[i] + frame[i + 1] + frame[i + 2];
    return sum;
}

static spindrift_renderer makeRenderer(void) {
    spindrift_renderer_config config;
    spindrift_renderer renderer;
    char name[256];
    size_t length = 0;
    CHECK_OK(spindrift_default_renderer_config(&config));
    CHECK(config.width == 1280 && config.height == 720 && config.device == NULL);
    config.width = WIDTH;
    config.height = HEIGHT;
    config.validation = true;
    CHECK_OK(spindrift_renderer_create(&config, &renderer));
    CHECK(renderer.id != 0);
    CHECK_OK(spindrift_renderer_device_name(renderer, name, sizeof name, &length));
    CHECK(length > 0 && strlen(name) == length);
    return renderer;
}

/* A camera looking at the campfire from its default distance, ground off so only particles and
 * the background are drawn. */
static spindrift_camera fireCamera(void) {
    spindrift_camera camera;
    CHECK_OK(spindrift_default_camera(&camera));
    CHECK(camera.fov_y_deg == 45 && camera.ground && camera.transparency == 0);
    /* A scene file's post: ACES, bloom 0.05 over 6 levels, manual exposure at 0 EV. */
    CHECK(camera.tonemap == SPINDRIFT_TONEMAP_ACES && camera.exposure_mode == 0 &&
          camera.exposure_ev == 0 && camera.bloom_strength == 0.05f && camera.bloom_levels == 6);
    camera.eye.x = 0;
    camera.eye.y = 1;
    camera.eye.z = 4;
    camera.target.x = 0;
    camera.target.y = 0.6f;
    camera.target.z = 0;
    camera.ground = false;
    return camera;
}

static void testWorldRender(void) {
    spindrift_renderer renderer = makeRenderer();
    spindrift_library library;
    spindrift_world world;
    spindrift_effect_id fire, rocks;
    spindrift_instance_desc desc;
    spindrift_instance campfire, rockfall;
    spindrift_camera camera = fireCamera();
    char path[1024];
    int i;

    CHECK_OK(spindrift_library_create(&library));
    snprintf(path, sizeof path, "%s/examples/effects/campfire.json", SPINDRIFT_SOURCE_DIR);
    CHECK_OK(spindrift_library_add_file(library, path, &fire));
    snprintf(path, sizeof path, "%s/examples/effects/rockfall.json", SPINDRIFT_SOURCE_DIR);
    CHECK_OK(spindrift_library_add_file(library, path, &rocks));
    CHECK_OK(spindrift_world_create(library, NULL, &world));

    /* An empty world: the background alone. */
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    CHECK(pixelsUnlikeCorner(frame_a, FRAME_BYTES) == 0);
    CHECK(frame_a[3] == 255);

    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = fire;
    CHECK_OK(spindrift_instance_create(world, &desc, &campfire));
    for (i = 0; i < 60; ++i) CHECK_OK(spindrift_world_update(world, 1.0 / 60.0, NULL));
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    /* The fire (three textured emitters) covers a good part of the frame... */
    CHECK(pixelsUnlikeCorner(frame_a, FRAME_BYTES) > WIDTH * HEIGHT / 50);
    /* ...the same frame again is the same image... */
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    /* ...and looking away from it shows the background alone. */
    camera.target.z = 8;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(pixelsUnlikeCorner(frame_b, FRAME_BYTES) == 0);
    camera = fireCamera();
    /* A hidden instance is not drawn. */
    CHECK_OK(spindrift_instance_set_visible(world, campfire, false));
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(pixelsUnlikeCorner(frame_b, FRAME_BYTES) == 0);
    CHECK_OK(spindrift_instance_set_visible(world, campfire, true));

    /* Weighted OIT draws the same particles another way: still visible, a different image. */
    camera.transparency = SPINDRIFT_TRANSPARENCY_WEIGHTED_OIT;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(pixelsUnlikeCorner(frame_b, FRAME_BYTES) > WIDTH * HEIGHT / 50);
    camera = fireCamera();

    /* The post: the default camera's (ACES, bloom) is not the frame as drawn; a camera of the
     * size from before the post fields draws without post, as does one that turns it all off;
     * more exposure is a brighter frame. */
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    camera.struct_size = (uint32_t)SPINDRIFT_CAMERA_SIZE_WITHOUT_POST;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) > WIDTH * HEIGHT / 50);
    camera = fireCamera();
    camera.tonemap = SPINDRIFT_TONEMAP_NONE;
    camera.bloom_strength = 0;
    camera.shadows = false; /* nor has a camera from before the post any shadows (the smoke) */
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    camera = fireCamera();
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    camera.exposure_ev = 2;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(sumOfBytes(frame_b, FRAME_BYTES) > sumOfBytes(frame_a, FRAME_BYTES) * 1.1);
    camera.exposure_mode = SPINDRIFT_EXPOSURE_AUTOMATIC;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(pixelsUnlikeCorner(frame_b, FRAME_BYTES) > WIDTH * HEIGHT / 50);
    camera = fireCamera();

    /* A mesh effect: its OBJ is read and drawn (the ground on, the rocks in front of it). */
    CHECK_OK(spindrift_instance_destroy(world, campfire));
    desc.effect = rocks;
    CHECK_OK(spindrift_instance_create(world, &desc, &rockfall));
    for (i = 0; i < 60; ++i) CHECK_OK(spindrift_world_update(world, 1.0 / 60.0, NULL));
    camera.eye.y = 3;
    camera.eye.z = 9;
    camera.target.y = 1;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    CHECK(pixelsUnlikeCorner(frame_a, FRAME_BYTES) > 0);

    /* Lights, sky and shadows (the fields after the post): the rocks on the ground, lit by the
     * sun. The scene defaults shadows on: turning them off brightens the ground under the rocks;
     * a camera of the size from before the light fields draws none, as the one turned off does. */
    {
        spindrift_light light;
        CHECK(camera.shadows && camera.shadow_cascades == 2 && camera.shadow_resolution == 1024);
        camera.ground = true;
        CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
        camera.shadows = false;
        CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
        CHECK(sumOfBytes(frame_b, FRAME_BYTES) > sumOfBytes(frame_a, FRAME_BYTES));
        camera.shadows = true;
        camera.struct_size = (uint32_t)SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHTS;
        CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
        CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
        camera.struct_size = sizeof camera;
        camera.shadows = false;
        /* A red point light 1 m over the ground in front of the rocks reddens the ground. */
        memset(&light, 0, sizeof light);
        light.type = SPINDRIFT_LIGHT_POINT;
        light.position.y = 1;
        light.position.z = 2;
        light.color.r = 1;
        light.intensity = 20;
        light.range_m = 6;
        light.direction.y = -1;
        light.outer_deg = 30;
        camera.lights = &light;
        camera.light_count = 1;
        CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
        CHECK(sumOfBytes(frame_a, FRAME_BYTES) > sumOfBytes(frame_b, FRAME_BYTES) * 1.02);
        /* A blue sky lights what faces up. */
        camera.light_count = 0;
        camera.sky_zenith.b = 1;
        camera.sky_intensity = 2;
        CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
        CHECK(sumOfBytes(frame_a, FRAME_BYTES) > sumOfBytes(frame_b, FRAME_BYTES) * 1.02);
        /* Bad light fields are refused, named. */
        camera.light_count = 1;
        light.range_m = 0;
        CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->lights[0]");
        light.range_m = 6;
        light.type = 7;
        CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->lights[0].type");
        camera.lights = NULL;
        CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->lights");
        camera.light_count = SPINDRIFT_MAX_CAMERA_LIGHTS + 1;
        CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->light_count");
        camera.light_count = 0;
        camera.sky_intensity = NAN;
        CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->sky");
        camera.sky_intensity = 0;
        camera.shadows = true;
        camera.shadow_cascades = 9;
        CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                    SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->shadow");
        camera = fireCamera();
        camera.eye.y = 3;
        camera.eye.z = 9;
        camera.target.y = 1;
    }

    /* Bad use. */
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES - 1),
                SPINDRIFT_ERROR_BUFFER_TOO_SMALL, "12288 bytes");
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, NULL, FRAME_BYTES),
                SPINDRIFT_ERROR_NULL_POINTER, "rgba");
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, NULL, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_NULL_POINTER, "camera");
    camera.struct_size = 4;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_STRUCT_SIZE, "camera->struct_size");
    camera = fireCamera();
    camera.fov_y_deg = 0;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "fov_y_deg");
    camera = fireCamera();
    camera.eye.x = NAN;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->eye");
    camera = fireCamera();
    camera.target = camera.eye;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->target");
    camera = fireCamera();
    camera.up.x = 0; /* along the view direction, backwards */
    camera.up.y = 0.4f;
    camera.up.z = 4;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->up");
    camera = fireCamera();
    camera.near_m = 10;
    camera.far_m = 1;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "near_m");
    camera = fireCamera();
    camera.background.g = -1;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "background");
    camera = fireCamera();
    camera.transparency = 2;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "transparency");
    camera = fireCamera();
    camera.tonemap = 4;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->tonemap");
    camera = fireCamera();
    camera.exposure_min_ev = 3;
    camera.exposure_max_ev = 3;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->exposure_max_ev");
    camera = fireCamera();
    camera.bloom_levels = 0;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->bloom_levels");
    camera = fireCamera();
    camera.bloom_strength = NAN;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->bloom_strength");
    camera = fireCamera();
    CHECK_FAILS(spindrift_renderer_render_world(renderer, (spindrift_world){0}, &camera, frame_a,
                                                FRAME_BYTES),
                SPINDRIFT_ERROR_NULL_HANDLE, "world");
    /* A world handle as a renderer: the wrong kind. */
    CHECK_FAILS(spindrift_renderer_render_world((spindrift_renderer){world.id}, world, &camera,
                                                frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_HANDLE, "not a renderer handle");

    CHECK_OK(spindrift_world_destroy(world));
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES),
                SPINDRIFT_ERROR_STALE_HANDLE, "stale");
    CHECK_OK(spindrift_library_destroy(library));
    CHECK_OK(spindrift_renderer_destroy(renderer));
    CHECK_FAILS(spindrift_renderer_destroy(renderer), SPINDRIFT_ERROR_STALE_HANDLE, "renderer");
    CHECK_FAILS(spindrift_renderer_device_name(renderer, NULL, 0, NULL),
                SPINDRIFT_ERROR_STALE_HANDLE, "renderer");
    CHECK_OK(spindrift_renderer_destroy((spindrift_renderer){0}));
}

static void testRendererCreate(void) {
    spindrift_renderer_config config;
    spindrift_renderer renderer;
    CHECK_FAILS(spindrift_renderer_create(NULL, &renderer), SPINDRIFT_ERROR_NULL_POINTER, "config");
    CHECK_OK(spindrift_default_renderer_config(&config));
    CHECK_FAILS(spindrift_renderer_create(&config, NULL), SPINDRIFT_ERROR_NULL_POINTER,
                "out_renderer");
    config.width = 8;
    CHECK_FAILS(spindrift_renderer_create(&config, &renderer), SPINDRIFT_ERROR_INVALID_ARGUMENT,
                "8x720");
    CHECK(renderer.id == 0);
    CHECK_OK(spindrift_default_renderer_config(&config));
    config.width = WIDTH;
    config.height = HEIGHT;
    config.device = "no such device anywhere";
    CHECK_FAILS(spindrift_renderer_create(&config, &renderer), SPINDRIFT_ERROR_BACKEND_UNAVAILABLE,
                "no such device anywhere");
    config.device = NULL;
    config.struct_size = 0;
    CHECK_FAILS(spindrift_renderer_create(&config, &renderer), SPINDRIFT_ERROR_STRUCT_SIZE,
                "struct_size");
}

static void testFileRender(void) {
    spindrift_file_render_options options;
    spindrift_file_render_info info;
    spindrift_diagnostics diagnostics;
    uint32_t count = 0;
    char path[1024];
    uint8_t* big;

    snprintf(path, sizeof path, "%s/examples/effects/campfire.json", SPINDRIFT_SOURCE_DIR);
    CHECK_OK(spindrift_default_file_render_options(&options));
    CHECK(!options.time_set && options.width == 0 && options.backend == SPINDRIFT_BACKEND_CPU);
    info.struct_size = sizeof info;

    /* A size query: the default scene's resolution. */
    CHECK_OK(spindrift_render_file(path, &options, NULL, 0, &info, NULL));
    CHECK(info.width == 1280 && info.height == 720 && !info.is_scene);

    options.width = WIDTH;
    options.height = HEIGHT;
    options.validation = true;
    CHECK_OK(spindrift_render_file(path, &options, NULL, 0, &info, NULL));
    CHECK(info.width == WIDTH && info.height == HEIGHT);
    CHECK_OK(spindrift_render_file(path, &options, frame_a, FRAME_BYTES, &info, &diagnostics));
    CHECK(diagnostics.id != 0);
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));
    CHECK(info.particles > 0 && info.time_s > 0);
    CHECK(pixelsUnlikeCorner(frame_a, FRAME_BYTES) > WIDTH * HEIGHT / 50);
    /* The default still time, asked for explicitly, is the same frame. */
    options.time_set = true;
    options.time_s = info.time_s;
    CHECK_OK(spindrift_render_file(path, &options, frame_b, FRAME_BYTES, NULL, NULL));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    /* At time 0 nothing is born yet. */
    options.time_s = 0;
    CHECK_OK(spindrift_render_file(path, &options, frame_b, FRAME_BYTES, &info, NULL));
    CHECK(info.particles == 0 && info.time_s == 0);
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) > WIDTH * HEIGHT / 50);

    /* A scene file at its own resolution. */
    snprintf(path, sizeof path, "%s/examples/scenes/campfire_night.json", SPINDRIFT_SOURCE_DIR);
    CHECK_OK(spindrift_default_file_render_options(&options));
    CHECK_OK(spindrift_render_file(path, &options, NULL, 0, &info, NULL));
    CHECK(info.is_scene && info.width >= 16 && info.height >= 16);
    big = (uint8_t*)malloc((size_t)info.width * info.height * 4);
    CHECK(big != NULL);
    CHECK_FAILS(spindrift_render_file(path, &options, big, 16, &info, NULL),
                SPINDRIFT_ERROR_BUFFER_TOO_SMALL, "rgba_bytes is 16");
    free(big);

    /* Bad use. */
    CHECK_OK(spindrift_default_file_render_options(&options));
    CHECK_FAILS(spindrift_render_file(NULL, &options, NULL, 0, NULL, NULL),
                SPINDRIFT_ERROR_NULL_POINTER, "path");
    CHECK_FAILS(spindrift_render_file(path, NULL, NULL, 0, NULL, NULL),
                SPINDRIFT_ERROR_NULL_POINTER, "options");
    CHECK_FAILS(spindrift_render_file(path, &options, NULL, 10, NULL, NULL),
                SPINDRIFT_ERROR_NULL_POINTER, "rgba");
    options.time_set = true;
    options.time_s = -1;
    CHECK_FAILS(spindrift_render_file(path, &options, NULL, 0, NULL, NULL),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "time_s");
    options.time_s = NAN;
    CHECK_FAILS(spindrift_render_file(path, &options, NULL, 0, NULL, NULL),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "time_s");
    CHECK_OK(spindrift_default_file_render_options(&options));
    options.width = 100;
    CHECK_FAILS(spindrift_render_file(path, &options, NULL, 0, NULL, NULL),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "100x0");
    CHECK_OK(spindrift_default_file_render_options(&options));
    options.backend = 3;
    CHECK_FAILS(spindrift_render_file(path, &options, NULL, 0, NULL, NULL),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "backend");
    CHECK_OK(spindrift_default_file_render_options(&options));
    info.struct_size = 1;
    CHECK_FAILS(spindrift_render_file(path, &options, NULL, 0, &info, NULL),
                SPINDRIFT_ERROR_STRUCT_SIZE, "out_info");
    /* A file that does not exist: an effect error, with its diagnostics listed. */
    CHECK_FAILS(spindrift_render_file("no/such/effect.json", &options, NULL, 0, NULL, &diagnostics),
                SPINDRIFT_ERROR_EFFECT_FAILED, "no/such/effect.json");
    CHECK_OK(spindrift_diagnostics_count(diagnostics, &count));
    CHECK(count > 0);
    CHECK_OK(spindrift_diagnostics_destroy(diagnostics));
}

/* Motion vectors (spindrift_renderer_render_world_motion): the colour is render_world's, the
 * ground under a camera moved sideways moves the other way, no previous camera gives none, and bad
 * options are refused naming the field. */
static float motion_xy[WIDTH * HEIGHT * 2];

/* A library holding examples/effects/<file> and a world of one instance of it, run `frames`
 * frames of 1/60 s. */
static void sampleWorld(const char* file, int frames, spindrift_library* library,
                        spindrift_world* world) {
    spindrift_effect_id effect;
    spindrift_instance_desc desc;
    spindrift_instance instance;
    char path[1024];
    int i;

    CHECK_OK(spindrift_library_create(library));
    snprintf(path, sizeof path, "%s/examples/effects/%s", SPINDRIFT_SOURCE_DIR, file);
    CHECK_OK(spindrift_library_add_file(*library, path, &effect));
    CHECK_OK(spindrift_world_create(*library, NULL, world));
    CHECK_OK(spindrift_default_instance_desc(&desc));
    desc.effect = effect;
    CHECK_OK(spindrift_instance_create(*world, &desc, &instance));
    for (i = 0; i < frames; ++i) CHECK_OK(spindrift_world_update(*world, 1.0 / 60.0, NULL));
}

static void testWorldMotion(void) {
    spindrift_renderer renderer = makeRenderer();
    spindrift_library library;
    spindrift_world world;
    spindrift_camera camera = fireCamera();
    spindrift_motion_options motion;
    int i;

    sampleWorld("campfire.json", 60, &library, &world);
    camera.ground = true;

    CHECK_OK(spindrift_default_motion_options(&motion));
    CHECK(!motion.has_previous_camera && motion.coverage_threshold == 0.5f &&
          !motion.additive_writes);
    CHECK_OK(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                    FRAME_BYTES, motion_xy, sizeof motion_xy));
    /* The bottom row is ground: without a previous camera it does not move. */
    for (i = 0; i < WIDTH; ++i) CHECK(motion_xy[((HEIGHT - 1) * WIDTH + i) * 2] == 0.0f);
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);

    /* The previous camera 10 cm to the left: the ground moved left on screen, not up or down. */
    motion.has_previous_camera = true;
    motion.previous_eye = camera.eye;
    motion.previous_target = camera.target;
    motion.previous_up = camera.up;
    motion.previous_eye.x -= 0.1f;
    motion.previous_target.x -= 0.1f;
    motion.previous_fov_y_deg = camera.fov_y_deg;
    CHECK_OK(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                    FRAME_BYTES, motion_xy, sizeof motion_xy));
    for (i = 0; i < WIDTH; ++i) {
        const float* m = &motion_xy[((HEIGHT - 1) * WIDTH + i) * 2];
        CHECK(m[0] < -0.5f && fabsf(m[1]) < 0.05f);
    }

    motion.interval_s = NAN;
    CHECK_FAILS(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                       FRAME_BYTES, motion_xy, sizeof motion_xy),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "interval_s");
    motion.interval_s = 0.02f;
    motion.previous_fov_y_deg = 180;
    CHECK_FAILS(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                       FRAME_BYTES, motion_xy, sizeof motion_xy),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "previous_fov_y_deg");
    motion.previous_fov_y_deg = 45;
    CHECK_FAILS(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                       FRAME_BYTES, motion_xy,
                                                       sizeof motion_xy - 1),
                SPINDRIFT_ERROR_BUFFER_TOO_SMALL, "motion_xy_bytes");
    CHECK_FAILS(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                       FRAME_BYTES, NULL, sizeof motion_xy),
                SPINDRIFT_ERROR_NULL_POINTER, "motion_xy");
    CHECK_FAILS(spindrift_renderer_render_world_motion(renderer, world, &camera, NULL, frame_a,
                                                       FRAME_BYTES, motion_xy, sizeof motion_xy),
                SPINDRIFT_ERROR_NULL_POINTER, "motion");
    motion.struct_size = 8;
    CHECK_FAILS(spindrift_renderer_render_world_motion(renderer, world, &camera, &motion, frame_a,
                                                       FRAME_BYTES, motion_xy, sizeof motion_xy),
                SPINDRIFT_ERROR_STRUCT_SIZE, "motion");

    CHECK_OK(spindrift_world_destroy(world));
    CHECK_OK(spindrift_library_destroy(library));
    CHECK_OK(spindrift_renderer_destroy(renderer));
}

/* Shadows of point and spot lights (camera.shadowed_lights, docs/rendering.md "Shadows of local
 * lights"): the rockfall's rocks (opaque meshes, which cast) on the ground under a spot low to
 * their right, the sun off. The spot's bit darkens the frame by the rocks' shadows on the ground;
 * without it, without the camera's shadows, with the bit of another light or from a camera of the
 * size from before the mask, the frame is the unshadowed one. A bit for a light that is not there
 * is refused, named. */
static void testLightShadows(void) {
    spindrift_renderer renderer = makeRenderer();
    spindrift_library library;
    spindrift_world world;
    spindrift_camera camera;
    spindrift_light lights[2];
    double unshadowed, shadowed;

    /* 1.5 s: the rocks have fallen and lie on the ground, before their lifetime ends. */
    sampleWorld("rockfall.json", 90, &library, &world);

    CHECK_OK(spindrift_default_camera(&camera));
    CHECK(camera.struct_size == sizeof camera && camera.shadowed_lights == 0 && camera.shadows);
    camera.eye.x = 0;
    camera.eye.y = 4;
    camera.eye.z = 5;
    camera.target.x = 0;
    camera.target.y = 0;
    camera.target.z = 0;
    camera.sun_intensity = 0;
    camera.ambient.r = camera.ambient.g = camera.ambient.b = 0.02f;
    camera.tonemap = SPINDRIFT_TONEMAP_NONE;
    camera.bloom_strength = 0;
    /* lights[0] has no intensity, so its bit draws no map; lights[1] is the spot, 1 m up at
     * x = 3, shining down toward -x over the rocks. */
    memset(lights, 0, sizeof lights);
    lights[0].type = SPINDRIFT_LIGHT_POINT;
    lights[0].position.y = 1;
    lights[0].range_m = 5;
    lights[1].type = SPINDRIFT_LIGHT_SPOT;
    lights[1].position.x = 3;
    lights[1].position.y = 1;
    lights[1].color.r = lights[1].color.g = lights[1].color.b = 1;
    lights[1].intensity = 40;
    lights[1].range_m = 15;
    lights[1].direction.x = -1;
    lights[1].direction.y = -0.3f;
    lights[1].inner_deg = 40;
    lights[1].outer_deg = 60;
    camera.lights = lights;
    camera.light_count = 2;

    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_a, FRAME_BYTES));
    unshadowed = sumOfBytes(frame_a, FRAME_BYTES);
    CHECK(pixelsUnlikeCorner(frame_a, FRAME_BYTES) > WIDTH * HEIGHT / 4); /* the lit ground */
    camera.shadowed_lights = 2;                                           /* lights[1], the spot */
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    shadowed = sumOfBytes(frame_b, FRAME_BYTES);
    printf("capi_render_test: light shadows: unshadowed %.0f, shadowed %.0f, %ld pixels differ\n",
           unshadowed, shadowed, differingPixels(frame_a, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) > WIDTH * HEIGHT / 50);
    CHECK(shadowed < unshadowed * 0.98);

    /* The mask bit of lights[0] (no intensity: no map) is the unshadowed frame. */
    camera.shadowed_lights = 1;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    /* The camera's shadows off: no light casts either. */
    camera.shadowed_lights = 2;
    camera.shadows = false;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    camera.shadows = true;
    /* A host compiled before the mask passes the older size: it renders, no light casting (the
     * mask past its struct is not read). */
    camera.struct_size = (uint32_t)SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHT_SHADOWS;
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    camera.shadowed_lights = ~(uint64_t)0; /* garbage there is not looked at */
    CHECK_OK(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES));
    CHECK(differingPixels(frame_a, frame_b, FRAME_BYTES) == 0);
    camera.struct_size = sizeof camera;

    /* A bit at or past light_count names the field. */
    camera.shadowed_lights = 4;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->shadowed_lights");
    camera.shadowed_lights = (uint64_t)1 << 63;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->shadowed_lights");
    camera.light_count = 0;
    camera.shadowed_lights = 1;
    CHECK_FAILS(spindrift_renderer_render_world(renderer, world, &camera, frame_b, FRAME_BYTES),
                SPINDRIFT_ERROR_INVALID_ARGUMENT, "camera->shadowed_lights");

    CHECK_OK(spindrift_world_destroy(world));
    CHECK_OK(spindrift_library_destroy(library));
    CHECK_OK(spindrift_renderer_destroy(renderer));
}

int main(void) {
    testRendererCreate();
    testWorldRender();
    testLightShadows();
    testFileRender();
    testWorldMotion();
    printf("capi_render_test: ok\n");
    return 0;
}
