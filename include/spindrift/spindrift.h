/* Spindrift's C API (C99): the public runtime (spindrift/runtime.h, spindrift/draw_list.h) for
 * hosts written in C or bound from another language (C#, Rust, Python). docs/c-api.md is the tour.
 *
 * Handles. Libraries, worlds, draw lists, diagnostics lists and renderers are named by opaque
 * 64-bit handles (a slot and a generation, never a pointer): the zero handle is null, and a handle
 * whose object was destroyed is *stale*. Every call checks its handles first and answers a null,
 * forged or stale one, or one of the wrong kind, with an error code; none is ever dereferenced.
 * Instances are named by the world's own generation-checked handles (spindrift_instance).
 *
 * Errors. Every call returns a spindrift_result: SPINDRIFT_OK, or an error code and nothing
 * changed. spindrift_last_error_message() then says in words what was wrong, on the calling
 * thread: the call's name, the handle or value at fault, and for effect files the first
 * problem as file:line:col: path: message (every diagnostic is enumerable through a
 * spindrift_diagnostics list). No C++ exception crosses this boundary: every entry point catches
 * everything, out of memory included (SPINDRIFT_ERROR_OUT_OF_MEMORY).
 *
 * Structs. Every struct passed in or filled out (configs, descriptions, receipts, statistics)
 * starts with uint32_t struct_size, which the caller sets to sizeof the struct it was compiled
 * with (the spindrift_default_* functions do it); any other size is refused with
 * SPINDRIFT_ERROR_STRUCT_SIZE. Arrays the library hands out (events, draw batches) are read
 * through calls that take the element size the caller expects. Vocabulary structs (vectors,
 * quaternions, colours, transforms, particles) are frozen layouts without a size.
 *
 * Threads. As the C++ runtime: a world and its library are used from one thread at a time;
 * distinct worlds may run on distinct threads. Handle checks and object creation and destruction
 * are safe from any thread. The last-error message is per thread.
 *
 * Memory. spindrift_set_allocator gives the library the host's malloc/realloc/free; every
 * allocation the C layer makes itself goes through it. The C++ engine below still allocates
 * through operator new (docs/c-api.md, "Memory", says what).
 *
 * Strings passed in are NUL-terminated UTF-8 unless a length is given. Strings handed out are
 * copied into a caller buffer (buffer, buffer_bytes, out_length), or point into an object's
 * storage for as long as the call that returned them says.
 */
#ifndef SPINDRIFT_SPINDRIFT_H
#define SPINDRIFT_SPINDRIFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spindrift/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Version: the project version of the CMake project (a build check keeps them equal). */

#define SPINDRIFT_VERSION_MAJOR 0
#define SPINDRIFT_VERSION_MINOR 1
#define SPINDRIFT_VERSION_PATCH 0
#define SPINDRIFT_MAKE_VERSION(major, minor, patch)                                                \
    (((uint32_t)(major) << 22) | ((uint32_t)(minor) << 12) | (uint32_t)(patch))
#define SPINDRIFT_HEADER_VERSION                                                                   \
    SPINDRIFT_MAKE_VERSION(SPINDRIFT_VERSION_MAJOR, SPINDRIFT_VERSION_MINOR,                       \
                           SPINDRIFT_VERSION_PATCH)

/* The library's version, SPINDRIFT_MAKE_VERSION-packed; compare with SPINDRIFT_HEADER_VERSION. */
SPINDRIFT_API uint32_t spindrift_version(void);
/* "major.minor.patch", static storage. */
SPINDRIFT_API const char* spindrift_version_string(void);

/* ------------------------------------------------------------------------------------------ */
/* Errors. FROZEN numbering. */

typedef enum spindrift_result {
    SPINDRIFT_OK = 0,
    SPINDRIFT_ERROR_NULL_HANDLE = 1,          /* the zero handle where an object is needed */
    SPINDRIFT_ERROR_INVALID_HANDLE = 2,       /* never made, forged, or of another kind */
    SPINDRIFT_ERROR_STALE_HANDLE = 3,         /* its object (or instance) was destroyed */
    SPINDRIFT_ERROR_NULL_POINTER = 4,         /* a required pointer argument is NULL */
    SPINDRIFT_ERROR_STRUCT_SIZE = 5,          /* struct_size is not this library's size */
    SPINDRIFT_ERROR_INVALID_ARGUMENT = 6,     /* non-finite, negative or out-of-range value */
    SPINDRIFT_ERROR_UNKNOWN_EFFECT = 7,       /* an effect id the library does not hold */
    SPINDRIFT_ERROR_EFFECT_FAILED = 8,        /* the effect does not load, validate or compile */
    SPINDRIFT_ERROR_UNKNOWN_EMITTER = 9,      /* no emitter of that name in the effect */
    SPINDRIFT_ERROR_UNKNOWN_PARAMETER = 10,   /* no user parameter of that name */
    SPINDRIFT_ERROR_UNSUPPORTED = 11,         /* asked of an instance that cannot do it */
    SPINDRIFT_ERROR_NOT_RUNNING = 12,         /* emit on a finished or cleared instance */
    SPINDRIFT_ERROR_CAPACITY_EXCEEDED = 13,   /* a documented limit was reached */
    SPINDRIFT_ERROR_BACKEND_UNAVAILABLE = 14, /* the backend cannot run this effect here */
    SPINDRIFT_ERROR_OUT_OF_MEMORY = 15,       /* an allocation failed (host callback or new) */
    SPINDRIFT_ERROR_BUFFER_TOO_SMALL = 16,    /* out_length says how many bytes are needed */
    SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE = 17,  /* an index past a list's count */
    SPINDRIFT_ERROR_IN_USE = 18,              /* a library destroyed while worlds still use it */
    SPINDRIFT_ERROR_INTERNAL = 19             /* an unexpected failure inside (the message says) */
} spindrift_result;

/* A short fixed text for a result ("stale handle"); static storage, never NULL. */
SPINDRIFT_API const char* spindrift_result_name(spindrift_result result);

/* What was wrong with this thread's last call that failed, in words (at most
 * SPINDRIFT_MAX_ERROR_MESSAGE_BYTES - 1 bytes, cut short past that); "" after a call that
 * succeeded. Thread-local storage, valid until this thread's next Spindrift call. */
#define SPINDRIFT_MAX_ERROR_MESSAGE_BYTES 4096
SPINDRIFT_API const char* spindrift_last_error_message(void);

/* ------------------------------------------------------------------------------------------ */
/* Memory */

/* malloc, realloc and free with a user pointer. allocate and reallocate return memory aligned
 * for any standard type (as malloc does), or NULL when out of memory (the call then returns
 * SPINDRIFT_ERROR_OUT_OF_MEMORY). reallocate(NULL, n) allocates; release(NULL) does nothing.
 * They may be called from any thread that calls Spindrift. */
typedef struct spindrift_allocator {
    uint32_t struct_size;
    void* (*allocate)(size_t size_bytes, void* user);
    void* (*reallocate)(void* memory, size_t size_bytes, void* user);
    void (*release)(void* memory, void* user);
    void* user;
} spindrift_allocator;

/* Replaces the allocator of the C layer (NULL: malloc, realloc and free again). Refused with
 * SPINDRIFT_ERROR_IN_USE while any object (library, world, draw list, diagnostics) exists, so
 * memory is always returned to the allocator that gave it. All three functions are required. */
SPINDRIFT_API spindrift_result spindrift_set_allocator(const spindrift_allocator* allocator);

/* ------------------------------------------------------------------------------------------ */
/* Vocabulary (frozen layouts) */

typedef struct spindrift_vec3 {
    float x, y, z;
} spindrift_vec3;

/* A rotation as a quaternion (x, y, z, w); any finite non-zero one is normalised. */
typedef struct spindrift_quat {
    float x, y, z, w;
} spindrift_quat;

/* Linear RGBA. */
typedef struct spindrift_color {
    float r, g, b, a;
} spindrift_color;

/* world_from_effect = translate(position) * rotate(rotation) * scale(scale); each scale
 * component finite with magnitude in [1e-6, 1e6]. */
typedef struct spindrift_transform {
    spindrift_vec3 position;
    spindrift_quat rotation;
    spindrift_vec3 scale;
} spindrift_transform;

/* The identity transform. */
SPINDRIFT_API spindrift_transform spindrift_identity_transform(void);

/* Handles: 0 is null. Copy and compare them freely. */
typedef struct spindrift_library {
    uint64_t id;
} spindrift_library;
typedef struct spindrift_world {
    uint64_t id;
} spindrift_world;
typedef struct spindrift_draw_list {
    uint64_t id;
} spindrift_draw_list;
typedef struct spindrift_diagnostics {
    uint64_t id;
} spindrift_diagnostics;
/* One instance of a world: bits 0-31 its slot, 32-63 its generation. */
typedef struct spindrift_instance {
    uint64_t id;
} spindrift_instance;
/* One effect of a library; 0 is invalid. */
typedef uint32_t spindrift_effect_id;

/* ------------------------------------------------------------------------------------------ */
/* Diagnostics: findings about an effect file, enumerable one by one. */

typedef enum spindrift_severity {
    SPINDRIFT_SEVERITY_ERROR = 0,
    SPINDRIFT_SEVERITY_WARNING = 1
} spindrift_severity;

/* One finding. The strings point into the diagnostics list and stay valid until it is
 * destroyed; a part the finding lacks is "" (never NULL). line and column are 1-based, 0 when the
 * input has no text positions (a cooked file: byte_offset names the place). */
typedef struct spindrift_diagnostic {
    uint32_t struct_size;
    uint32_t severity; /* spindrift_severity */
    const char* file;
    uint32_t line;
    uint32_t column;
    uint64_t byte_offset;
    const char* path;    /* JSON path, "$.emitters[2].spawn.rate_per_s" */
    const char* message; /* what was found and what was expected */
} spindrift_diagnostic;

SPINDRIFT_API spindrift_result spindrift_diagnostics_count(spindrift_diagnostics diagnostics,
                                                           uint32_t* out_count);
/* out->struct_size must be set. */
SPINDRIFT_API spindrift_result spindrift_diagnostics_get(spindrift_diagnostics diagnostics,
                                                         uint32_t index, spindrift_diagnostic* out);
/* The number of errors (warnings left out). */
SPINDRIFT_API spindrift_result spindrift_diagnostics_error_count(spindrift_diagnostics diagnostics,
                                                                 uint32_t* out_count);
/* Destroying the null handle is SPINDRIFT_OK (nothing to do); a stale one is an error. */
SPINDRIFT_API spindrift_result spindrift_diagnostics_destroy(spindrift_diagnostics diagnostics);

/* Loads, validates and compiles an effect file (.sfx: cooked, anything else: JSON), as the
 * library would, without registering it. *out_diagnostics (may be NULL: not wanted) receives a
 * new list the caller destroys, also when the effect is invalid. Returns SPINDRIFT_OK for a valid
 * effect, SPINDRIFT_ERROR_EFFECT_FAILED (message: the first error and how many there are) for an
 * invalid one. */
SPINDRIFT_API spindrift_result spindrift_validate_file(const char* path,
                                                       spindrift_diagnostics* out_diagnostics);
/* The same for JSON text in memory (text_bytes bytes, no NUL needed); file_name is what the
 * diagnostics call the file (NULL: "<memory>"). */
SPINDRIFT_API spindrift_result spindrift_validate_text(const char* text, size_t text_bytes,
                                                       const char* file_name,
                                                       spindrift_diagnostics* out_diagnostics);

/* ------------------------------------------------------------------------------------------ */
/* Effect library */

SPINDRIFT_API spindrift_result spindrift_library_create(spindrift_library* out_library);
/* Refused (SPINDRIFT_ERROR_IN_USE) while a world made with it exists. Null handle: OK. */
SPINDRIFT_API spindrift_result spindrift_library_destroy(spindrift_library library);

/* Registers the file at path (read and compiled on first use) and returns its id; the same path
 * again gives the same id. */
SPINDRIFT_API spindrift_result spindrift_library_add_file(spindrift_library library,
                                                          const char* path,
                                                          spindrift_effect_id* out_effect);
/* Registers JSON text held in memory (copied) under name: diagnostics call the file name, and
 * the textures and meshes it names are resolved against name's folder. The same name with the
 * same text gives the same id; with new text, the text is replaced and the next
 * spindrift_library_poll_changes reloads it (an editor's live buffer). A name already registered
 * as a file is refused. The text is compiled on first use, or by spindrift_library_compile. */
SPINDRIFT_API spindrift_result spindrift_library_add_text(spindrift_library library,
                                                          const char* name, const char* text,
                                                          size_t text_bytes,
                                                          spindrift_effect_id* out_effect);
/* Loads and compiles the effect now. SPINDRIFT_ERROR_EFFECT_FAILED when it does not compile (the
 * message gives the first error; spindrift_library_effect_diagnostics all of them). */
SPINDRIFT_API spindrift_result spindrift_library_compile(spindrift_library library,
                                                         spindrift_effect_id effect);

typedef struct spindrift_effect_info {
    uint32_t struct_size;
    bool compiled;             /* compiled at least once */
    bool failed;               /* the last compile or reload failed */
    uint32_t version;          /* 1 after the first compile, +1 per successful reload */
    uint32_t emitter_count;    /* of the compiled version, compiled order */
    uint32_t parameter_count;  /* user parameters, authored order */
    uint32_t diagnostic_count; /* of the last compile or reload attempt */
} spindrift_effect_info;

SPINDRIFT_API spindrift_result spindrift_library_effect_info(spindrift_library library,
                                                             spindrift_effect_id effect,
                                                             spindrift_effect_info* out);
/* Strings of one emitter (compiled order), copied into buffer with a NUL: the name, and the
 * texture and mesh files resolved against the effect's folder ("" when it has none). *out_length
 * (may be NULL) gets the length without the NUL. buffer may be NULL when buffer_bytes is 0 (ask
 * for the length: SPINDRIFT_OK); a buffer too small gets the text cut short and
 * SPINDRIFT_ERROR_BUFFER_TOO_SMALL. */
SPINDRIFT_API spindrift_result spindrift_library_emitter_name(spindrift_library library,
                                                              spindrift_effect_id effect,
                                                              uint32_t emitter_index, char* buffer,
                                                              size_t buffer_bytes,
                                                              size_t* out_length);
SPINDRIFT_API spindrift_result spindrift_library_emitter_texture(spindrift_library library,
                                                                 spindrift_effect_id effect,
                                                                 uint32_t emitter_index,
                                                                 char* buffer, size_t buffer_bytes,
                                                                 size_t* out_length);
SPINDRIFT_API spindrift_result spindrift_library_emitter_mesh(spindrift_library library,
                                                              spindrift_effect_id effect,
                                                              uint32_t emitter_index, char* buffer,
                                                              size_t buffer_bytes,
                                                              size_t* out_length);

/* FROZEN numbering. */
typedef enum spindrift_parameter_kind {
    SPINDRIFT_PARAMETER_FLOAT = 0,
    SPINDRIFT_PARAMETER_FLOAT3 = 1,
    SPINDRIFT_PARAMETER_COLOR = 2
} spindrift_parameter_kind;

/* Names are at most this many bytes (the effect format's limit), plus the NUL. */
#define SPINDRIFT_MAX_NAME_BYTES 64

/* One user parameter; components past the kind's width are 0. */
typedef struct spindrift_parameter_info {
    uint32_t struct_size;
    uint32_t kind; /* spindrift_parameter_kind */
    char name[SPINDRIFT_MAX_NAME_BYTES + 1];
    spindrift_color default_value; /* r = x, g = y, b = z */
    spindrift_color min;           /* per component, inclusive */
    spindrift_color max;
} spindrift_parameter_info;

SPINDRIFT_API spindrift_result spindrift_library_parameter_info(spindrift_library library,
                                                                spindrift_effect_id effect,
                                                                uint32_t parameter_index,
                                                                spindrift_parameter_info* out);
/* A new list (the caller destroys it) of the diagnostics of the effect's last compile or reload. */
SPINDRIFT_API spindrift_result spindrift_library_effect_diagnostics(
    spindrift_library library, spindrift_effect_id effect, spindrift_diagnostics* out_diagnostics);

typedef struct spindrift_reload_report {
    uint32_t struct_size;
    uint32_t files_checked;  /* compiled entries examined */
    uint32_t files_changed;  /* whose contents changed since they were compiled */
    uint32_t files_reloaded; /* recompiled: instances switch at their next update */
    uint32_t files_rejected; /* changed but invalid: the previous version stays in use */
} spindrift_reload_report;

/* Hot reload: recompiles every compiled effect whose file (or text) changed. out may be NULL;
 * *out_diagnostics (may be NULL) receives a new list of the rejected files' diagnostics (and the
 * reloaded ones' warnings). A rejected file is not an error of this call: SPINDRIFT_OK, counted
 * in the report; the message of spindrift_last_error_message stays "". */
SPINDRIFT_API spindrift_result
spindrift_library_poll_changes(spindrift_library library, spindrift_reload_report* out,
                               spindrift_diagnostics* out_diagnostics);

/* ------------------------------------------------------------------------------------------ */
/* World */

/* FROZEN numbering. */
typedef enum spindrift_backend {
    SPINDRIFT_BACKEND_CPU = 0,      /* deterministic, every feature */
    SPINDRIFT_BACKEND_GPU = 1,      /* Vulkan compute; refused without a device or a feature */
    SPINDRIFT_BACKEND_AUTOMATIC = 2 /* the GPU when it can run the effect, else the CPU */
} spindrift_backend;

/* A parallel-for over the host's job system: calls job(job_context, i) exactly once for every i
 * in [0, count), on any threads, and returns when all have returned (spindrift/runtime.h,
 * JobRunner, has the whole contract). */
typedef void (*spindrift_job_fn)(void* job_context, uint32_t index);
typedef void (*spindrift_parallel_for_fn)(uint32_t count, spindrift_job_fn job, void* job_context,
                                          void* user);

typedef struct spindrift_world_config {
    uint32_t struct_size;
    uint32_t backend; /* spindrift_backend */
    /* Threads of the world's own pool, the calling thread included (1: all on the caller).
     * Unused when parallel_for is set. Results do not depend on it. */
    uint32_t threads;
    uint32_t max_steps_per_frame;           /* catch-up cap; time past it is dropped and reported */
    uint32_t max_instances;                 /* live instances at once */
    uint32_t recycled_per_effect;           /* destroyed instances kept for reuse, per effect */
    uint64_t max_seek_steps;                /* seek and advance_to refuse targets past this */
    spindrift_parallel_for_fn parallel_for; /* NULL: the world's own threads */
    void* parallel_for_user;
    /* Seek checkpoints (spindrift/runtime.h, WorldConfig): a CPU instance's snapshot every this
     * many steps of its seek and advance_to replays, 0 for none; at most 2^20. */
    uint32_t seek_checkpoint_interval_steps;
    uint32_t pad0;
    uint64_t max_seek_checkpoint_bytes; /* per instance, 0 for none; at most 2^34 */
} spindrift_world_config;

/* struct_size of a spindrift_world_config from before the seek checkpoint fields (a host compiled
 * against an older header): accepted, the missing fields at their defaults. */
#define SPINDRIFT_WORLD_CONFIG_SIZE_WITHOUT_CHECKPOINTS                                            \
    (offsetof(spindrift_world_config, seek_checkpoint_interval_steps))

/* The C++ defaults: CPU backend, 1 thread, 8 catch-up steps, 2^20 instances, an hour of seek at
 * 60 Hz, 16 recycled per effect, a seek checkpoint every 60 steps, at most 8 MiB of them per
 * instance. Sets struct_size. */
SPINDRIFT_API spindrift_result spindrift_default_world_config(spindrift_world_config* out);

/* A world playing effects of library (which must not be destroyed before the world). config may
 * be NULL (the defaults). */
SPINDRIFT_API spindrift_result spindrift_world_create(spindrift_library library,
                                                      const spindrift_world_config* config,
                                                      spindrift_world* out_world);
/* Destroys the world and its instances. Null handle: OK. */
SPINDRIFT_API spindrift_result spindrift_world_destroy(spindrift_world world);

/* What one update did (counts of this update only; spindrift/runtime.h, WorldUpdateReceipt). */
typedef struct spindrift_update_receipt {
    uint32_t struct_size;
    uint32_t instances;         /* live instances after the update */
    uint32_t instances_stepped; /* playing or stopping instances advanced */
    uint32_t finished;          /* instances that finished in this update */
    uint64_t steps;             /* fixed steps run, all instances */
    uint64_t discarded_steps;   /* dropped by the catch-up cap */
    double discarded_s;         /* their simulation time, summed over instances */
    uint64_t live_particles;    /* after the update, all instances */
    uint32_t destroyed_on_finish;
    uint32_t reloaded_kept;      /* switched to a reloaded effect, particles kept */
    uint32_t reloaded_restarted; /* switched to a reloaded effect and restarted */
    uint32_t reload_failures;    /* left on their old version */
    bool frame_rejected;         /* the frame time was negative or not finite: taken as 0 */
    uint64_t events;             /* gameplay events delivered (spindrift_world_events) */
    uint64_t events_dropped;     /* past an emitter's events.max_per_step */
    uint32_t events_latency_frames;
    uint32_t attractors_active;
    uint32_t attractors_dropped;
    uint32_t instances_asleep;
    uint32_t instances_culled;
    uint32_t asleep_by_budget;
    uint32_t instances_examined;
    uint32_t instances_woken;
    uint64_t fast_forward_steps;
    uint32_t retained_instances; /* destroyed world-space instances still finishing */
    uint64_t retained_particles;
} spindrift_update_receipt;

/* Advances every playing instance by frame_dt_s x its time scale in whole fixed steps. out may
 * be NULL. A negative or non-finite frame time runs the update as a zero-length frame (as the
 * C++ runtime does: the receipt says frame_rejected) and returns
 * SPINDRIFT_ERROR_INVALID_ARGUMENT naming the value. */
SPINDRIFT_API spindrift_result spindrift_world_update(spindrift_world world, double frame_dt_s,
                                                      spindrift_update_receipt* out);

/* Totals since the world was made. */
typedef struct spindrift_world_stats {
    uint32_t struct_size;
    uint32_t instance_count; /* live now */
    uint64_t updates;
    uint64_t instances_created;
    uint64_t instances_destroyed;
    uint64_t instances_recycled;
    uint64_t stale_handle_uses; /* calls made with a stale or invalid instance handle */
    uint64_t rejected_frames;
    uint64_t discarded_steps;
    uint64_t rejected_path_transforms;
    uint64_t instances_retained;
} spindrift_world_stats;

SPINDRIFT_API spindrift_result spindrift_world_stats_get(spindrift_world world,
                                                         spindrift_world_stats* out);

/* ------------------------------------------------------------------------------------------ */
/* Instances */

/* spindrift_instance_desc.flags bits. */
#define SPINDRIFT_INSTANCE_PLAY_ON_CREATE 1u    /* starts playing (else idle) */
#define SPINDRIFT_INSTANCE_DESTROY_ON_FINISH 2u /* destroyed by the update where it finishes */
#define SPINDRIFT_INSTANCE_IMPORTANT 4u         /* budgets never put it to sleep */

typedef struct spindrift_instance_desc {
    uint32_t struct_size;
    spindrift_effect_id effect;
    spindrift_transform transform; /* it starts here */
    uint32_t flags;
    float time_scale;       /* [0, 1000] */
    spindrift_color tint;   /* finite, >= 0: multiplies colours read back */
    float size_scale;       /* [0, 1e6] */
    float spawn_rate_scale; /* [0, 1e6] */
    bool override_seed;     /* true: the effect's seed is replaced by seed */
    uint32_t seed;
} spindrift_instance_desc;

/* effect 0, identity transform, SPINDRIFT_INSTANCE_PLAY_ON_CREATE, scales 1, white tint. */
SPINDRIFT_API spindrift_result spindrift_default_instance_desc(spindrift_instance_desc* out);

/* On failure *out_instance is the null handle. */
SPINDRIFT_API spindrift_result spindrift_instance_create(spindrift_world world,
                                                         const spindrift_instance_desc* desc,
                                                         spindrift_instance* out_instance);
/* The handle is stale at once; a world-space effect's live particles finish their lives
 * (spindrift/runtime.h, World::destroy). */
SPINDRIFT_API spindrift_result spindrift_instance_destroy(spindrift_world world,
                                                          spindrift_instance instance);

/* Control: spindrift/runtime.h has each one's exact effect. */
SPINDRIFT_API spindrift_result spindrift_instance_play(spindrift_world world,
                                                       spindrift_instance instance);
SPINDRIFT_API spindrift_result spindrift_instance_pause(spindrift_world world,
                                                        spindrift_instance instance);
SPINDRIFT_API spindrift_result spindrift_instance_resume(spindrift_world world,
                                                         spindrift_instance instance);
SPINDRIFT_API spindrift_result spindrift_instance_stop(spindrift_world world,
                                                       spindrift_instance instance);
SPINDRIFT_API spindrift_result spindrift_instance_clear(spindrift_world world,
                                                        spindrift_instance instance);
SPINDRIFT_API spindrift_result spindrift_instance_restart(spindrift_world world,
                                                          spindrift_instance instance);
/* count particles on the named emitter in the instance's next step (1..2^24). */
SPINDRIFT_API spindrift_result spindrift_instance_emit(spindrift_world world,
                                                       spindrift_instance instance,
                                                       const char* emitter, uint32_t count);
/* Where the instance is at the end of the coming update; teleport: jump now, no sweep. */
SPINDRIFT_API spindrift_result
spindrift_instance_set_transform(spindrift_world world, spindrift_instance instance,
                                 const spindrift_transform* transform, bool teleport);
/* world_from_effect as a 3x4 matrix: rows[i] = (row i of the linear part, translation i). */
typedef struct spindrift_matrix3x4 {
    float rows[3][4];
} spindrift_matrix3x4;

/* A moving transform an instance follows (a cutscene track, a bone's animation, a projectile's
 * flight): writes world_from_effect at the instance's own time_s (seconds since its (re)start),
 * *out holding the identity on entry. Called possibly many times per update, on the thread that
 * calls the world; it must be a pure function of time_s. A non-finite matrix is replaced by the
 * instance's transform and counted (spindrift_world_stats.rejected_path_transforms). */
typedef void (*spindrift_path_fn)(double time_s, spindrift_matrix3x4* out, void* user);

/* Attaches the instance to path (World::followPath): updates move it along the path, each step
 * from the path's transform at its start to that at its end, and a restart starts at the path's
 * time 0. NULL detaches it (it keeps its transform). The callback and user must stay valid until
 * the instance is detached, destroyed, or the world destroyed. */
SPINDRIFT_API spindrift_result spindrift_instance_attach(spindrift_world world,
                                                         spindrift_instance instance,
                                                         spindrift_path_fn path, void* user);
SPINDRIFT_API spindrift_result spindrift_instance_set_time_scale(spindrift_world world,
                                                                 spindrift_instance instance,
                                                                 float time_scale);
/* Replays from time 0 to the whole step nearest time_s. */
SPINDRIFT_API spindrift_result spindrift_instance_seek(spindrift_world world,
                                                       spindrift_instance instance, double time_s);
/* Runs the instance's steps to time_s (forward, or from 0 again when earlier), uncapped. */
SPINDRIFT_API spindrift_result spindrift_instance_advance_to(spindrift_world world,
                                                             spindrift_instance instance,
                                                             double time_s);
/* A hidden instance simulates but is left out of draw lists. */
SPINDRIFT_API spindrift_result spindrift_instance_set_visible(spindrift_world world,
                                                              spindrift_instance instance,
                                                              bool visible);

/* Queries. is_alive answers false (SPINDRIFT_OK) for a stale or forged instance handle; the
 * others return the handle's error. */
SPINDRIFT_API spindrift_result spindrift_instance_is_alive(spindrift_world world,
                                                           spindrift_instance instance,
                                                           bool* out_alive);
SPINDRIFT_API spindrift_result spindrift_instance_is_playing(spindrift_world world,
                                                             spindrift_instance instance,
                                                             bool* out_playing); /* or stopping */
SPINDRIFT_API spindrift_result spindrift_instance_is_finished(spindrift_world world,
                                                              spindrift_instance instance,
                                                              bool* out_finished);

/* FROZEN numbering. */
typedef enum spindrift_instance_state {
    SPINDRIFT_STATE_IDLE = 0,
    SPINDRIFT_STATE_PLAYING = 1,
    SPINDRIFT_STATE_PAUSED = 2,
    SPINDRIFT_STATE_STOPPING = 3,
    SPINDRIFT_STATE_FINISHED = 4
} spindrift_instance_state;

typedef struct spindrift_instance_info {
    uint32_t struct_size;
    uint32_t state; /* spindrift_instance_state */
    spindrift_effect_id effect;
    uint32_t effect_version;
    uint32_t backend; /* spindrift_backend: cpu or gpu */
    double time_s;    /* simulation seconds since its (re)start */
    uint64_t steps;
    uint64_t live_particles;
    uint64_t discarded_steps;
    uint32_t restarts_by_reload;
    spindrift_transform transform;
    bool asleep;
    bool culled;
    bool important;
    float birth_fade;
} spindrift_instance_info;

SPINDRIFT_API spindrift_result spindrift_instance_info_get(spindrift_world world,
                                                           spindrift_instance instance,
                                                           spindrift_instance_info* out);

/* One particle in world space, overrides applied (64 bytes; frozen layout). */
typedef struct spindrift_particle {
    spindrift_vec3 position; /* metres */
    float size_m;
    spindrift_color color; /* linear, straight alpha */
    spindrift_vec3 velocity_m_per_s;
    float rotation_rad;
    float normalized_age; /* age / lifetime, [0, 1] */
    float flipbook_frame;
    uint32_t emitter_index; /* compiled order */
    uint32_t key;           /* the particle's stable random key */
} spindrift_particle;

/* Copies the instance's particles (at most capacity) into out; *out_count gets how many it has
 * (when more than capacity: SPINDRIFT_ERROR_BUFFER_TOO_SMALL, the first capacity copied). out may
 * be NULL when capacity is 0 (ask for the count: SPINDRIFT_OK). */
SPINDRIFT_API spindrift_result spindrift_instance_read_particles(spindrift_world world,
                                                                 spindrift_instance instance,
                                                                 spindrift_particle* out,
                                                                 uint32_t capacity,
                                                                 uint32_t* out_count);

/* Overrides (spindrift_instance_desc has the ranges). set_seed restarts the instance. */
SPINDRIFT_API spindrift_result spindrift_instance_set_tint(spindrift_world world,
                                                           spindrift_instance instance,
                                                           const spindrift_color* tint);
SPINDRIFT_API spindrift_result spindrift_instance_set_size_scale(spindrift_world world,
                                                                 spindrift_instance instance,
                                                                 float size_scale);
SPINDRIFT_API spindrift_result spindrift_instance_set_spawn_rate_scale(spindrift_world world,
                                                                       spindrift_instance instance,
                                                                       float spawn_rate_scale);
SPINDRIFT_API spindrift_result spindrift_instance_set_seed(spindrift_world world,
                                                           spindrift_instance instance,
                                                           uint32_t seed);
SPINDRIFT_API spindrift_result spindrift_instance_set_emitter_enabled(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* emitter,
                                                                      bool enabled);
/* Budgets never put an important instance to sleep. */
SPINDRIFT_API spindrift_result spindrift_instance_set_important(spindrift_world world,
                                                                spindrift_instance instance,
                                                                bool important);

/* User parameters by name: the kind must be the parameter's and every component finite and in
 * its range (refused, never clamped: SPINDRIFT_ERROR_INVALID_ARGUMENT); an unknown name is
 * SPINDRIFT_ERROR_UNKNOWN_PARAMETER (the message lists the names there are). */
SPINDRIFT_API spindrift_result spindrift_instance_set_parameter_float(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name,
                                                                      float value);
SPINDRIFT_API spindrift_result spindrift_instance_set_parameter_float3(spindrift_world world,
                                                                       spindrift_instance instance,
                                                                       const char* name,
                                                                       const spindrift_vec3* value);
SPINDRIFT_API spindrift_result spindrift_instance_set_parameter_color(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name,
                                                                      const spindrift_color* value);
SPINDRIFT_API spindrift_result spindrift_instance_get_parameter_float(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name, float* out);
SPINDRIFT_API spindrift_result spindrift_instance_get_parameter_float3(spindrift_world world,
                                                                       spindrift_instance instance,
                                                                       const char* name,
                                                                       spindrift_vec3* out);
SPINDRIFT_API spindrift_result spindrift_instance_get_parameter_color(spindrift_world world,
                                                                      spindrift_instance instance,
                                                                      const char* name,
                                                                      spindrift_color* out);

/* ------------------------------------------------------------------------------------------ */
/* Events to gameplay (spindrift/runtime.h, "Events to gameplay": order, bounds, backends) */

/* FROZEN numbering. */
typedef enum spindrift_event_kind {
    SPINDRIFT_EVENT_BIRTH = 0,
    SPINDRIFT_EVENT_DEATH = 1,
    SPINDRIFT_EVENT_COLLISION = 2,
    SPINDRIFT_EVENT_THRESHOLD = 3
} spindrift_event_kind;

typedef struct spindrift_event {
    uint32_t kind;               /* spindrift_event_kind */
    uint32_t emitter_index;      /* compiled order; spindrift_world_event_emitter_name */
    spindrift_instance instance; /* may be stale by now (destroy on finish) */
    uint64_t step;               /* the instance's fixed step */
    uint32_t particle_key;       /* the particle's stable key (spindrift_particle.key) */
    uint32_t collision_op;       /* collision: which collision module, 0-based */
    spindrift_vec3 position;     /* world space, end of the step */
    spindrift_vec3 velocity;     /* world space, m/s */
    spindrift_vec3 normal;       /* collision: the contact normal; else 0 */
    uint32_t reserved;
} spindrift_event;

/* The last update's events in canonical order: *out_events points into the world and stays
 * valid until its next update (or its destruction). event_size must be sizeof(spindrift_event). */
SPINDRIFT_API spindrift_result spindrift_world_events(spindrift_world world, uint32_t event_size,
                                                      const spindrift_event** out_events,
                                                      uint32_t* out_count);
/* The emitter name of the last update's event at event_index (buffer rules as
 * spindrift_library_emitter_name). */
SPINDRIFT_API spindrift_result spindrift_world_event_emitter_name(spindrift_world world,
                                                                  uint32_t event_index,
                                                                  char* buffer, size_t buffer_bytes,
                                                                  size_t* out_length);

/* ------------------------------------------------------------------------------------------ */
/* Host-fed world: colliders, a distance field, attractors, the camera */

#define SPINDRIFT_ALL_COLLISION_GROUPS 0xFFFFFFu /* groups are bits 0..23 */
#define SPINDRIFT_MAX_WORLD_COLLIDERS 64u
#define SPINDRIFT_MAX_HEIGHTFIELD_SIDE 64u
#define SPINDRIFT_MAX_WORLD_ATTRACTORS 1024u
#define SPINDRIFT_ACTIVE_ATTRACTORS 16u

/* FROZEN numbering. */
typedef enum spindrift_collider_shape {
    SPINDRIFT_COLLIDER_PLANE = 0,      /* position on it; normal = rotation * +Y */
    SPINDRIFT_COLLIDER_SPHERE = 1,     /* centre, radius; inside keeps particles in */
    SPINDRIFT_COLLIDER_BOX = 2,        /* centre, half_extents along rotation's axes */
    SPINDRIFT_COLLIDER_CAPSULE = 3,    /* centre; half_height along rotation * +Y, radius */
    SPINDRIFT_COLLIDER_CYLINDER = 4,   /* centre, radius, half_height, capped */
    SPINDRIFT_COLLIDER_HEIGHTFIELD = 5 /* corner (sample 0, 0); heights along rotation * +Y */
} spindrift_collider_shape;

/* One collider of the host's level, world space (spindrift/runtime.h, WorldCollider). */
typedef struct spindrift_collider {
    uint32_t struct_size;
    uint32_t shape;  /* spindrift_collider_shape */
    uint32_t groups; /* non-zero subset of SPINDRIFT_ALL_COLLISION_GROUPS */
    spindrift_vec3 position;
    spindrift_quat rotation;
    spindrift_vec3 half_extents; /* box: each > 0 */
    float radius;                /* sphere, capsule, cylinder: > 0 */
    float half_height;           /* capsule: >= 0; cylinder: > 0 */
    bool inside;                 /* sphere only */
    /* heightfield: columns x rows samples (2..64 each), row after row along rotation * +Z, x
     * fastest, cell_size metres apart; copied by spindrift_world_set_colliders. */
    const float* heights;
    uint32_t columns;
    uint32_t rows;
    float cell_size_x;
    float cell_size_z;
} spindrift_collider;

/* A plane through the origin facing +Y in group 1, and the C++ defaults of every other field. */
SPINDRIFT_API spindrift_result spindrift_default_collider(spindrift_collider* out);

/* Replaces the level's colliders (copied; count 0 clears; colliders may be NULL then). Every
 * element's struct_size is checked. A wrong one names the collider and the field; the previous
 * set stays. */
SPINDRIFT_API spindrift_result spindrift_world_set_colliders(spindrift_world world,
                                                             const spindrift_collider* colliders,
                                                             uint32_t count);
SPINDRIFT_API spindrift_result spindrift_world_collider_count(spindrift_world world,
                                                              uint32_t* out_count);

/* The host's signed distance at position (negative inside matter); writes the gradient (out of
 * the matter, any non-zero length). Called from worker threads at once: thread-safe and pure. */
typedef float (*spindrift_distance_fn)(const spindrift_vec3* position, spindrift_vec3* gradient,
                                       void* user);
/* NULL field clears it. CPU backend only (spindrift/runtime.h, setDistanceField). */
SPINDRIFT_API spindrift_result spindrift_world_set_distance_field(spindrift_world world,
                                                                  spindrift_distance_fn field,
                                                                  void* user, uint32_t groups);

/* What a camera saw of the opaque scene, for collision modules with depth_buffer (spindrift/
 * runtime.h, SceneDepth; docs/runtime-api.md "Host-fed world"): linear depth in metres along
 * `forward`, width x height, rows from the top; SPINDRIFT_NO_SCENE_DEPTH (or more than half of
 * it) where the camera saw no surface. */
#define SPINDRIFT_NO_SCENE_DEPTH 1.0e30f
typedef struct spindrift_scene_depth {
    uint32_t struct_size;
    const float* samples; /* copied by spindrift_world_set_scene_depth */
    uint32_t width;       /* 1..8192 */
    uint32_t height;      /* 1..8192, width x height <= 2^24 */
    spindrift_vec3 eye;
    spindrift_vec3 forward; /* unit */
    spindrift_vec3 up;      /* unit, perpendicular to forward: the image's up */
    float vertical_fov_rad; /* (0, pi); square pixels */
    float near_m;           /* > 0 */
} spindrift_scene_depth;

/* No samples, a 1x1 size, a camera at the origin looking down -Z with +Y up, 0.785 rad, 0.1 m. */
SPINDRIFT_API spindrift_result spindrift_default_scene_depth(spindrift_scene_depth* out);
/* Replaces the scene depth (the samples are copied); NULL clears it. A wrong field or sample is
 * named and the previous depth stays. CPU instances read it; see World::setSceneDepth for GPU
 * instances. */
SPINDRIFT_API spindrift_result spindrift_world_set_scene_depth(spindrift_world world,
                                                               const spindrift_scene_depth* depth);

typedef struct spindrift_attractor {
    uint32_t struct_size;
    spindrift_vec3 position;
    float strength; /* m/s^2 at the centre (negative pushes), finite */
    float radius;   /* > 0 */
    float falloff;  /* >= 0: (1 - d / radius)^falloff */
    uint32_t groups;
} spindrift_attractor;

/* strength 1, radius 1, falloff 1, group 1, at the origin. */
SPINDRIFT_API spindrift_result spindrift_default_attractor(spindrift_attractor* out);
/* Replaces the host's attractors (copied; at most SPINDRIFT_MAX_WORLD_ATTRACTORS); each update
 * applies the SPINDRIFT_ACTIVE_ATTRACTORS nearest the camera. */
SPINDRIFT_API spindrift_result spindrift_world_set_attractors(spindrift_world world,
                                                              const spindrift_attractor* attractors,
                                                              uint32_t count);
/* Where the camera is: which attractors act, what sleeps by distance. */
SPINDRIFT_API spindrift_result spindrift_world_set_camera_position(spindrift_world world,
                                                                   const spindrift_vec3* position);

/* ------------------------------------------------------------------------------------------ */
/* Drawing (spindrift/draw_list.h) */

typedef struct spindrift_draw_view {
    uint32_t struct_size;
    spindrift_vec3 eye;     /* what sorting measures from */
    spindrift_vec3 forward; /* finite, non-zero */
    spindrift_vec3 up;      /* not parallel to forward */
    float fov_y_deg;        /* (0, 180) */
    float aspect;           /* > 0 */
    float near_m;           /* 0 < near_m < far_m */
    float far_m;
    uint32_t viewport_width; /* >= 1 */
    uint32_t viewport_height;
    bool order_independent; /* the host composites alpha batches with weighted blended OIT */
} spindrift_draw_view;

/* The C++ defaults: eye at the origin looking down -Z, 45 degrees, 16:9, 1280x720. */
SPINDRIFT_API spindrift_result spindrift_default_draw_view(spindrift_draw_view* out);

/* ------------------------------------------------------------------------------------------ */
/* Scalability (docs/runtime-api.md, "Scalability") */

/* FROZEN numbering. */
typedef enum spindrift_quality_tier {
    SPINDRIFT_QUALITY_LOW = 0, /* cosmetic emitters do not spawn */
    SPINDRIFT_QUALITY_MEDIUM = 1,
    SPINDRIFT_QUALITY_HIGH = 2
} spindrift_quality_tier;

typedef struct spindrift_budgets {
    uint32_t struct_size;
    uint32_t max_awake_instances; /* 0: none */
    uint64_t max_live_particles;  /* 0: none */
} spindrift_budgets;

/* Multiplies every birth count; [0, 1e6]. */
SPINDRIFT_API spindrift_result spindrift_world_set_spawn_scale(spindrift_world world, float scale);
SPINDRIFT_API spindrift_result spindrift_world_spawn_scale(spindrift_world world, float* out_scale);
SPINDRIFT_API spindrift_result spindrift_world_set_quality_tier(spindrift_world world,
                                                                uint32_t tier);
SPINDRIFT_API spindrift_result spindrift_world_quality_tier(spindrift_world world,
                                                            uint32_t* out_tier);
/* Instances out of view's frustum are culled; NULL turns culling off. */
SPINDRIFT_API spindrift_result spindrift_world_set_cull_view(spindrift_world world,
                                                             const spindrift_draw_view* view);
SPINDRIFT_API spindrift_result spindrift_world_set_budgets(spindrift_world world,
                                                           const spindrift_budgets* budgets);

/* ------------------------------------------------------------------------------------------ */
/* Draw lists */

/* FROZEN numbering: the effect format's render enums. */
typedef enum spindrift_draw_kind {
    SPINDRIFT_DRAW_BILLBOARDS = 0,
    SPINDRIFT_DRAW_STRIPS = 1, /* ribbons and beams */
    SPINDRIFT_DRAW_MESHES = 2
} spindrift_draw_kind;
typedef enum spindrift_draw_blend {
    SPINDRIFT_BLEND_ADDITIVE = 0,
    SPINDRIFT_BLEND_PREMULTIPLIED = 1,
    SPINDRIFT_BLEND_ALPHA = 2,
    SPINDRIFT_BLEND_OPAQUE = 3
} spindrift_draw_blend;
typedef enum spindrift_draw_alignment {
    SPINDRIFT_ALIGN_CAMERA = 0,
    SPINDRIFT_ALIGN_VELOCITY_STRETCH = 1,
    SPINDRIFT_ALIGN_AXIS = 2,
    SPINDRIFT_ALIGN_FIXED = 3
} spindrift_draw_alignment;
typedef enum spindrift_draw_sort {
    SPINDRIFT_SORT_NONE = 0,
    SPINDRIFT_SORT_BACK_TO_FRONT = 1,
    SPINDRIFT_SORT_FRONT_TO_BACK = 2,
    SPINDRIFT_SORT_OLDEST_FIRST = 3,
    SPINDRIFT_SORT_NEWEST_FIRST = 4
} spindrift_draw_sort;

/* One particle of a billboard or mesh batch: the layout of spindrift_particle (64 bytes). */
typedef spindrift_particle spindrift_draw_particle;

/* One point of a strip polyline (48 bytes; frozen layout). */
typedef struct spindrift_strip_point {
    spindrift_vec3 position;
    float width_m;
    spindrift_color color;
    spindrift_vec3 tangent;
    float u;
} spindrift_strip_point;

/* One batch: one drawn emitter of one instance, or a stretch of it when the view's one
 * back-to-front order interleaves it with others: draw the batches in order (spindrift/draw_list.h,
 * DrawBatch and Order). The pointers point into the list's storage and the world's instances:
 * valid until the list is filled again or destroyed, or the world changes (an update, a control
 * call, create, destroy, a seek, a reload) or is destroyed. NULL when the length is 0. */
typedef struct spindrift_draw_batch {
    uint32_t kind;  /* spindrift_draw_kind */
    uint32_t blend; /* spindrift_draw_blend */
    uint32_t sort;  /* spindrift_draw_sort: the emitter's mode */
    bool sorted;    /* particles are in sort order for this view */
    bool lit;
    bool device_resident; /* on a renderer's device: no particle data (spindrift/draw_list.h) */
    bool flipbook_blend;
    spindrift_instance instance;
    spindrift_effect_id effect;
    uint32_t emitter_index;
    float instance_distance_m;
    uint32_t alignment;                       /* spindrift_draw_alignment */
    const spindrift_draw_particle* particles; /* billboards, meshes: in draw order */
    uint64_t particle_length;
    const spindrift_strip_point* vertices; /* strips */
    uint64_t vertex_length;
    const uint32_t* segments; /* strips: per segment its first vertex */
    uint64_t segment_length;
    uint64_t particle_count;   /* particles drawn (strips: those the strips come from) */
    uint32_t device_max_count; /* device-resident only */
    spindrift_vec3 axis;
    float stretch_s;
    uint32_t flipbook_frames;
    uint32_t flipbook_columns;
    uint32_t flipbook_rows;
    float soft_fade_m;
    float mesh_scale;
    float mesh_tumble_rad_per_s;
    float emissive;       /* render.emissive: the colour's multiplier in an HDR frame, >= 0 */
    float emissive_share; /* render.emissive_share in [0, 1]: drawn additively (premultiplied) */
    float
        distortion; /* billboards: render.distortion; above 0 no colour, it bends what is behind */
    bool lit_per_particle; /* lit billboards: render.lighting per_particle (lights per particle) */
} spindrift_draw_batch;

typedef struct spindrift_draw_list_stats {
    uint32_t struct_size;
    uint32_t instances_drawn;
    uint32_t device_batches;
    uint64_t particles;
    uint64_t strip_segments;
    uint64_t sorted_particles;
    uint64_t sort_skipped_particles;
    /* The view's one back-to-front order across emitters (spindrift/draw_list.h, Order). */
    uint32_t order_emitters;        /* emitters' batches that joined it */
    uint32_t order_batches;         /* the batches it made of them */
    uint64_t sorted_strip_segments; /* strip segments sorted by their middle point */
    uint64_t order_exact_batches;   /* batches the exact order needed (over 4096: coarsened) */
    uint64_t order_coarsened_items; /* particles and segments drawn out of it past the cap */
} spindrift_draw_list_stats;

/* A list and its storage, reused frame to frame: keep it. */
SPINDRIFT_API spindrift_result spindrift_draw_list_create(spindrift_draw_list* out_list);
SPINDRIFT_API spindrift_result spindrift_draw_list_destroy(spindrift_draw_list list);
/* Fills list with world's visible instances in draw order for view; simulates nothing. A bad
 * view is SPINDRIFT_ERROR_INVALID_ARGUMENT and an empty list. */
SPINDRIFT_API spindrift_result spindrift_world_draw_list(spindrift_world world,
                                                         const spindrift_draw_view* view,
                                                         spindrift_draw_list list);
/* The batches: *out_batches points into the list, valid until it is filled again or destroyed
 * (their data pointers: see spindrift_draw_batch). batch_size must be
 * sizeof(spindrift_draw_batch). */
SPINDRIFT_API spindrift_result spindrift_draw_list_batches(spindrift_draw_list list,
                                                           uint32_t batch_size,
                                                           const spindrift_draw_batch** out_batches,
                                                           uint32_t* out_count);
SPINDRIFT_API spindrift_result spindrift_draw_list_stats_get(spindrift_draw_list list,
                                                             spindrift_draw_list_stats* out);
/* The four corners of a billboard particle's quad as Spindrift's renderer places it for view
 * (counter-clockwise from (-1, -1) to (-1, 1) in the quad's axes). Refused for a batch that is not
 * billboards. */
SPINDRIFT_API spindrift_result spindrift_billboard_corners(const spindrift_draw_view* view,
                                                           const spindrift_draw_batch* batch,
                                                           const spindrift_draw_particle* particle,
                                                           spindrift_vec3 out_corners[4]);

/* ------------------------------------------------------------------------------------------ */
/* Rendering (docs/c-api.md, "Rendering"): Spindrift's own Vulkan renderer, offscreen, for
 * previews, thumbnails, tests and tools. A game draws the draw lists with its own renderer. */

/* A renderer: a Vulkan device, offscreen targets of a fixed size, and the textures and meshes of
 * the effects it has drawn. Handle rules as every other object's. */
typedef struct spindrift_renderer {
    uint64_t id;
} spindrift_renderer;

typedef struct spindrift_renderer_config {
    uint32_t struct_size;
    uint32_t width; /* pixels, [16, 8192] */
    uint32_t height;
    /* Which Vulkan device: NULL or "" picks the first discrete GPU, else the first integrated
     * one, else any other (Mesa's lavapipe, a CPU device); a decimal number is an index in the
     * device list (`spindrift render --list-devices`); anything else is a case-insensitive part
     * of the device's name. Copied by spindrift_renderer_create. */
    const char* device;
    /* VK_LAYER_KHRONOS_validation on (an error when the layer is missing); any message it
     * reports makes the render that caused it fail (SPINDRIFT_ERROR_INTERNAL). */
    bool validation;
} spindrift_renderer_config;

/* 1280 x 720, the default device, no validation. Sets struct_size. */
SPINDRIFT_API spindrift_result spindrift_default_renderer_config(spindrift_renderer_config* out);

/* Creates the device, the targets and the pipelines. No Vulkan, no device (or none matching
 * config->device), or the validation layer missing: SPINDRIFT_ERROR_BACKEND_UNAVAILABLE naming
 * the cause. */
SPINDRIFT_API spindrift_result spindrift_renderer_create(const spindrift_renderer_config* config,
                                                         spindrift_renderer* out_renderer);
/* Null handle: OK. */
SPINDRIFT_API spindrift_result spindrift_renderer_destroy(spindrift_renderer renderer);
/* The Vulkan device's name (buffer rules as spindrift_library_emitter_name). */
SPINDRIFT_API spindrift_result spindrift_renderer_device_name(spindrift_renderer renderer,
                                                              char* buffer, size_t buffer_bytes,
                                                              size_t* out_length);

/* FROZEN numbering. How alpha-blended and premultiplied particles composite (docs/rendering.md,
 * "Transparency"). */
typedef enum spindrift_transparency {
    SPINDRIFT_TRANSPARENCY_SORTED = 0,      /* drawn in draw-list order, sorted per emitter */
    SPINDRIFT_TRANSPARENCY_WEIGHTED_OIT = 1 /* weighted-blended order-independent */
} spindrift_transparency;

/* FROZEN numbering. The tone map of a frame's HDR post (docs/rendering.md, "Colour pipeline"). */
typedef enum spindrift_tonemap {
    SPINDRIFT_TONEMAP_NONE = 0,    /* the frame as drawn, clamped to [0, 1] at readback */
    SPINDRIFT_TONEMAP_ACES = 1,    /* Narkowicz's fit of ACES */
    SPINDRIFT_TONEMAP_AGX = 2,     /* Sobotka's AgX */
    SPINDRIFT_TONEMAP_REINHARD = 3 /* x / (1 + x) */
} spindrift_tonemap;

/* FROZEN numbering. */
typedef enum spindrift_exposure_mode {
    SPINDRIFT_EXPOSURE_MANUAL = 0,   /* x 2^exposure_ev */
    SPINDRIFT_EXPOSURE_AUTOMATIC = 1 /* from the frame's luminance histogram */
} spindrift_exposure_mode;

/* FROZEN numbering. */
typedef enum spindrift_light_type {
    SPINDRIFT_LIGHT_POINT = 0,
    SPINDRIFT_LIGHT_SPOT = 1
} spindrift_light_type;

/* A point or spot light (a scene file's "lights" entry; docs/scene-format.md, docs/rendering.md
 * "Lights"): colour x intensity, falling to nothing at range; a spot shines along direction, full
 * within inner_deg of it, none past outer_deg. FROZEN layout: whether it casts shadows is its bit
 * in spindrift_camera's shadowed_lights. */
typedef struct spindrift_light {
    uint32_t type; /* spindrift_light_type */
    spindrift_vec3 position;
    spindrift_color color;    /* linear RGB, each finite and >= 0 */
    float intensity;          /* [0, 1e6] */
    float range_m;            /* (0, 1e4] */
    spindrift_vec3 direction; /* spot: non-zero (normalised) */
    float inner_deg;          /* spot: [0, 90) */
    float outer_deg;          /* spot: (inner_deg, 90] */
} spindrift_light;

/* What a frame looks at and is lit by (a scene file's camera, ground, sun, ambient, lights, sky and
 * shadows), and its HDR post (a scene file's exposure, tonemap and bloom). Colours are linear RGB,
 * each finite and >= 0 (alpha unused).
 * Versions: the post fields (tonemap onward) were appended, then the light fields (lights
 * onward), then shadowed_lights; a caller compiled against a header without them passes
 * struct_size SPINDRIFT_CAMERA_SIZE_WITHOUT_POST (drawn without post, as before: no tone map, no
 * bloom, exposure 2^0), SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHTS (no lights, no sky, no shadows) or
 * SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHT_SHADOWS (no light casts shadows). */
typedef struct spindrift_camera {
    uint32_t struct_size;
    spindrift_vec3 eye;
    spindrift_vec3 target; /* not eye */
    spindrift_vec3 up;     /* not parallel to target - eye */
    float fov_y_deg;       /* [1, 179] */
    float near_m;          /* 0 < near_m < far_m */
    float far_m;
    spindrift_color background;
    bool ground; /* a lit square plane y = ground_height, ground_size metres across */
    float ground_height;
    float ground_size; /* > 0 */
    spindrift_color ground_color;
    spindrift_vec3 sun_direction; /* toward the sun, non-zero (normalised) */
    spindrift_color sun_color;
    float sun_intensity; /* >= 0 */
    spindrift_color ambient;
    uint32_t transparency; /* spindrift_transparency */
    /* HDR post, in this order per pixel: bloom, exposure, tone map (docs/rendering.md). */
    uint32_t tonemap;            /* spindrift_tonemap */
    uint32_t exposure_mode;      /* spindrift_exposure_mode */
    float exposure_ev;           /* manual: the exposure; automatic: compensation. [-16, 16] */
    float exposure_min_ev;       /* automatic: clamp of the average's log2, min < max, */
    float exposure_max_ev;       /*   both in [-16, 16] */
    float exposure_low_percent;  /* automatic: darker pixels left out, [0, 100) */
    float exposure_high_percent; /* automatic: brighter ones from here on, (low, 100] */
    float exposure_speed;        /* automatic: adaptation per second, [0, 100] */
    float bloom_strength;        /* [0, 1]; 0: no bloom */
    uint32_t bloom_levels;       /* [1, 8] */
    /* Point and spot lights: light_count (at most SPINDRIFT_MAX_CAMERA_LIGHTS) of them at lights
     * (NULL when 0), read during the call only; a frame shades with the first 64. */
    const spindrift_light* lights;
    uint32_t light_count;
    /* The sky light (a scene file's "sky"): zenith, horizon and ground colours x sky_intensity
     * ([0, 1e4]; 0: none), projected onto spherical harmonics for every lit surface. */
    spindrift_color sky_zenith;
    spindrift_color sky_horizon;
    spindrift_color sky_ground;
    float sky_intensity;
    /* Sun shadows (a scene file's "shadows"): cascades of shadow_resolution^2 ([64, 4096]),
     * shadow_cascades of them ([1, 4]) over shadow_max_distance_m ((0, 1e4]) of view depth,
     * receivers moved shadow_bias_m ([0, 1]) toward the sun, blended particles through an opacity
     * map of shadow_opacity_resolution^2 ([64, 4096]). */
    bool shadows;
    uint32_t shadow_resolution;
    uint32_t shadow_cascades;
    float shadow_max_distance_m;
    float shadow_bias_m;
    uint32_t shadow_opacity_resolution;
    /* Bit i: lights[i] casts shadows (docs/rendering.md "Shadows of local lights"; a scene light's
     * "shadows": true), drawn when shadows is on. A bit mask beside the lights because
     * spindrift_light's layout is frozen. Bits at or past light_count must be 0. */
    uint64_t shadowed_lights;
} spindrift_camera;

/* struct_size of a spindrift_camera from before the post fields: accepted, drawn without post. */
#define SPINDRIFT_CAMERA_SIZE_WITHOUT_POST (offsetof(spindrift_camera, tonemap))
/* struct_size of a spindrift_camera from before the light fields: accepted, drawn with post but
 * without lights, sky or shadows. */
#define SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHTS (offsetof(spindrift_camera, lights))
/* struct_size of a spindrift_camera from before shadowed_lights: accepted, its lights cast no
 * shadows. Where shadow_opacity_resolution ends, which was that struct's sizeof (the offset of
 * shadowed_lights on 64-bit ABIs, but not on a 32-bit one that pads before a uint64_t). */
#define SPINDRIFT_CAMERA_SIZE_WITHOUT_LIGHT_SHADOWS                                                \
    (offsetof(spindrift_camera, shadow_opacity_resolution) + sizeof(uint32_t))
/* The most lights a camera may name. */
#define SPINDRIFT_MAX_CAMERA_LIGHTS 64

/* A scene file's defaults: eye (0, 2, 6) looking at (0, 1, 0), up +Y, 45 degrees, clip 0.05 to
 * 500 m, the default background, ground at y = 0 (40 m), sun and ambient; sorted; the post of a
 * scene file: ACES tone map, bloom 0.05 over 6 levels, manual exposure at 0 EV (the automatic
 * settings at their scene defaults); no lights, none casting shadows (shadowed_lights 0). Sets
 * struct_size. Writes sizeof(spindrift_camera) bytes, every field included: a host compiled
 * against an older header (without the post, the light fields or shadowed_lights) must not call
 * it from this library (its struct is smaller); it fills its camera by hand with its older
 * struct_size (SPINDRIFT_CAMERA_SIZE_WITHOUT_*), or is compiled again. */
SPINDRIFT_API spindrift_result spindrift_default_camera(spindrift_camera* out);

/* Draws world's visible instances as camera sees them: fills the renderer's own draw list for
 * the camera (sorted from its eye, aspect from the renderer's size), loads each drawn emitter's
 * texture and mesh once (the files spindrift_library_emitter_texture and _mesh name, cached by
 * path for the renderer's life), renders and reads the frame back into rgba: width x height
 * pixels, rows top to bottom, 4 bytes each (R, G, B, A), sRGB-encoded colour, alpha 255.
 * rgba_bytes below width x height x 4: SPINDRIFT_ERROR_BUFFER_TOO_SMALL. A bad camera:
 * SPINDRIFT_ERROR_INVALID_ARGUMENT naming the field. The post runs on the device between the
 * drawing and the readback; each call is a still for automatic exposure (it converges at once).
 * camera->struct_size SPINDRIFT_CAMERA_SIZE_WITHOUT_POST: no post. A texture or mesh file that does
 * not load: SPINDRIFT_ERROR_EFFECT_FAILED naming it. A world whose particles live on another device
 * (device-resident batches): SPINDRIFT_ERROR_UNSUPPORTED. Simulates nothing. */
SPINDRIFT_API spindrift_result spindrift_renderer_render_world(spindrift_renderer renderer,
                                                               spindrift_world world,
                                                               const spindrift_camera* camera,
                                                               uint8_t* rgba, size_t rgba_bytes);

/* Motion vectors for temporal anti-aliasing (docs/rendering.md, "Motion vectors"): per pixel the
 * screen-space motion of what it shows, its position in this frame MINUS its position in the
 * previous frame, in pixels of this frame, x to the right, y down (rows top to bottom). The opaque
 * scene and the background get the camera's motion (its depth reprojected with the previous
 * camera; none without one); billboards get their own (previous position = position - velocity x
 * interval_s, seen by the previous camera) where their coverage is at least coverage_threshold;
 * additive billboards keep what is behind unless additive_writes; strips and mesh particles keep
 * what is behind. */
typedef struct spindrift_motion_options {
    uint32_t struct_size;
    bool has_previous_camera; /* false: the camera's motion is 0 */
    spindrift_vec3 previous_eye;
    spindrift_vec3 previous_target; /* not previous_eye */
    spindrift_vec3 previous_up;
    float previous_fov_y_deg; /* [1, 179]; near, far and aspect are the camera's */
    float interval_s;         /* [0, 1]: seconds since the previous frame */
    float coverage_threshold; /* [0, 1] */
    bool additive_writes;
} spindrift_motion_options;

/* No previous camera, 1/60 s, threshold 0.5, additive particles writing none. Sets struct_size. */
SPINDRIFT_API spindrift_result spindrift_default_motion_options(spindrift_motion_options* out);

/* spindrift_renderer_render_world, and the frame's motion vectors into motion_xy: width x height
 * pixels, rows top to bottom, 2 floats each (x, y in pixels). motion_xy_bytes below
 * width x height x 8: SPINDRIFT_ERROR_BUFFER_TOO_SMALL; motion or motion_xy NULL:
 * SPINDRIFT_ERROR_NULL_POINTER; a field out of range or not finite:
 * SPINDRIFT_ERROR_INVALID_ARGUMENT naming it. The colour is what spindrift_renderer_render_world
 * gives for the same camera. */
SPINDRIFT_API spindrift_result spindrift_renderer_render_world_motion(
    spindrift_renderer renderer, spindrift_world world, const spindrift_camera* camera,
    const spindrift_motion_options* motion, uint8_t* rgba, size_t rgba_bytes, float* motion_xy,
    size_t motion_xy_bytes);

/* A frame of a file as `spindrift render FILE --time T` draws it. */
typedef struct spindrift_file_render_options {
    uint32_t struct_size;
    bool time_set;  /* false: the default still time (when the effects look developed) */
    double time_s;  /* scene seconds, [0, 3600] */
    uint32_t width; /* 0 (and height 0): the scene's resolution; else both in [16, 8192] */
    uint32_t height;
    const char* device; /* as spindrift_renderer_config */
    bool validation;
    uint32_t backend; /* spindrift_backend of every instance (CPU: the reference images) */
} spindrift_file_render_options;

/* The default still, the scene's resolution, the default device, CPU backend. Sets struct_size. */
SPINDRIFT_API spindrift_result
spindrift_default_file_render_options(spindrift_file_render_options* out);

typedef struct spindrift_file_render_info {
    uint32_t struct_size;
    uint32_t width; /* of the image */
    uint32_t height;
    double time_s;      /* the scene time drawn (0 after a size query) */
    uint64_t particles; /* drawn */
    bool is_scene;      /* the file was read as a scene (else an effect in its default scene) */
} spindrift_file_render_info;

/* Renders one frame of a scene file, or of an effect file (JSON or cooked .sfx) in the scene the
 * tool frames it in, exactly as `spindrift render` does: same scene, same player, same renderer,
 * so the same device and options give the tool's PNG pixels byte for byte. Each call creates and
 * destroys its own renderer (a fraction of a second); keep a spindrift_renderer for many frames
 * of a world instead.
 * rgba as spindrift_renderer_render_world; rgba NULL with rgba_bytes 0 asks for the size only
 * (SPINDRIFT_OK, out_info->width and height set, nothing compiled or rendered). out_info (may be
 * NULL) is filled in either case, and with BUFFER_TOO_SMALL. *out_diagnostics (may be NULL)
 * receives a new list (the caller destroys it) of the scene's and effects' findings. A file that
 * does not load: SPINDRIFT_ERROR_EFFECT_FAILED (the message: the first error); a time past what
 * may be simulated: SPINDRIFT_ERROR_CAPACITY_EXCEEDED; no device: BACKEND_UNAVAILABLE. */
SPINDRIFT_API spindrift_result spindrift_render_file(const char* path,
                                                     const spindrift_file_render_options* options,
                                                     uint8_t* rgba, size_t rgba_bytes,
                                                     spindrift_file_render_info* out_info,
                                                     spindrift_diagnostics* out_diagnostics);

#ifdef __cplusplus
}
#endif

#endif /* SPINDRIFT_SPINDRIFT_H */
