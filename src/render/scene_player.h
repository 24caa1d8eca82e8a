// The scene player: turns a validated scene into what the renderer draws, frame after frame.
//
// It loads each instance's effect (JSON or cooked .sfx, loadCompiledEffect; an effect file used by
// several instances is compiled once), creates one effect instance (runtime/effect_instance.h)
// per scene instance on the backend chooseBackend picks for it (runtime/backend_choice.h;
// PlayerConfig::backend), and loads each drawn emitter's texture (PNG, relative to the effect
// file; one image per distinct file). For a frame at scene time t it runs every instance's steps
// up to its own time along its path (runSteps), has it write its draw records, sorts the emitters
// that sort, turns ribbon trails (writeRibbonStrips) and beams (appendBeamStrips) into strips, and
// lists the batches in draw order. It never steps a backend itself.
//
// Instance time: tau = (t - start_s) * time_scale. tau < 0: the instance has not started and
// draws nothing. Otherwise the instance holds the state after the whole fixed steps that fit in
// tau (n = floor(tau / dt), with 1/1000 of a step of slack against rounding), the same whatever
// frame times led there: stepping forward continues from the last frame, a frame earlier than the
// last restarts the instance and steps again from 0. A negative start_s therefore pre-rolls: at
// t = 0 the instance has already run -start_s * time_scale seconds. Each step is run with the
// instance's transform at the scene times of its start and end (motion path and rotation_deg), so
// particles born along a path are spread along it.
//
// Draw order, so that alpha-blended effects composite sensibly with scene.transparency sorted:
// instances farthest from the eye first, by the distance of the instance's
// position (its origin, path included) at t, ties in scene order; within an instance, emitters
// in authored order; within an emitter, the emitter's sort mode (particle_sort.h). Two effects
// whose particles interpenetrate are not sorted against each other. Strips (ribbons, beams) are
// drawn in the emitter's place in that order, their segments unsorted. With weighted_oit the
// alpha and premultiplied billboard emitters are not sorted (drawsThroughOit: their order does
// not change the image; counted in sort_skipped_records); frameView carries the mode to the
// renderer.
//
// Beams: each live particle of a beam emitter draws the emitter's curve (beamCurve, with the
// instance's placement at the frame) with its own jitter (its DrawRecord key) and colour; the
// jitter cycle counts from the instance's simulation time, steps_done x fixed_timestep_s.
//
// Meshes: each mesh emitter's OBJ file is read (relative to the effect file, one mesh per distinct
// file; mesh/obj_reader.h) at load, and each live particle draws it (a MeshBatch with meshParams,
// sorted like billboards).
//
// GPU-simulated instances (PlayerConfig::backend gpu, or auto on a GPU device). With
// PlayerConfig::renderer they run on the renderer's Vulkan device and are drawn from the device:
// each frame, after its steps, the instance submits its draw records, for sorting emitters a
// GPU-sorted back-to-front order and for ribbon and beam emitters their strips (beams with the
// frame's beamCurve and jitter cycle; gpu::submitDrawOutput), and its batches carry
// DeviceRecords / DeviceStrips instead of host data; the renderer draws them indirectly. No
// particle and no count is read back, and its statistics are asynchronous (a frame or two late).
// Such an emitter counts in `particles` with its last known live count (its segments are not
// counted in `strip_segments`: they are never known on the host). A GPU instance without a
// renderer reads its draw records (and ribbon trails) back each frame (gpu::readBackDrawRecords)
// and goes on as a CPU instance.
//
// Allocation: everything is sized at load (records, strip points and segments for the most every
// ribbon and beam emitter can write, batches); playing frames reuses the buffers, so frames
// allocate nothing once the sort scratch has grown to the largest emitter (the promise covers
// CPU instances; a GPU instance's Vulkan submissions are the driver's business). Not
// thread-safe per player.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/placement.h"
#include "gpu/draw_output.h"
#include "image/image.h"
#include "mesh/obj_reader.h"
#include "render/particle_sort.h"
#include "render/renderer.h"
#include "runtime/backend_choice.h"
#include "runtime/effect_instance.h"
#include "spindrift/diagnostic.h"
#include "spindrift/scene_desc.h"

namespace spindrift::render {

struct PlayerConfig {
    uint32_t threads = 1; // CPU-backend threads per instance; results do not depend on it
    // Each instance's simulation backend (chooseBackend). cpu by default: the golden images and
    // every bit-reproducible output are the CPU backend's; the GPU is within tolerance of it.
    BackendRequest backend = BackendRequest::cpu;
    std::string device;      // the GPU backend's Vulkan device, as RendererConfig::device
    bool validation = false; // the GPU backend's validation layer (simulationValidationMessages)
    // The renderer the frames go to. When set, GPU instances run on its device and their
    // billboards are drawn straight from the device (no readback; statistics asynchronous), and
    // `device` and `validation` are the renderer's. When null, each GPU instance has a device of
    // its own and its draw records are read back every frame (tools and tests without a
    // renderer).
    Renderer* renderer = nullptr;
    // auto treats a CPU device (lavapipe) as a GPU, so tests on lavapipe exercise what auto does
    // on a GPU machine (the per-emitter split); never set by the command-line tool.
    bool auto_on_cpu_device = false;
    // Shows on stderr the progress of an instance's long runs of steps (a large pre-roll, a jump
    // far ahead): StepProgress, for runs of kPlayerProgressMinSteps or more that last over a
    // second.
    bool step_progress = false;
};
inline constexpr uint64_t kPlayerProgressMinSteps = 10'000;

// One distinct texture file. handle is kNoTexture until uploadAssets gives it one (tests that
// run without a GPU may set handles by hand).
struct PlayerTexture {
    std::string path; // as opened: the effect file's directory joined with the authored path
    Image image;
    TextureHandle handle = kNoTexture;
};

// One distinct mesh file. handle is kNoMesh until uploadAssets gives it one.
struct PlayerMesh {
    std::string path; // as opened: the effect file's directory joined with the authored path
    MeshData mesh;
    MeshHandle handle = kNoMesh;
};

struct PlayerInstance {
    uint32_t scene_index = 0; // index in SceneDesc::effects
    std::string effect_file;  // resolved path of the effect file
    std::shared_ptr<const CompiledEffect> effect;
    // The simulation (runtime/effect_instance.h): its backend and why, its parts, clock,
    // placement, statistics and host draw records. The player places it along the scene path.
    std::unique_ptr<EffectInstance> simulation;
    // A GPU part drawn from the renderer's device: eye, per-emitter sort modes and beam frames.
    gpu::GpuDrawRequest draw_request;
    std::vector<uint32_t> emitter_texture; // per compiled emitter: index in textures, or kNone
    std::vector<uint32_t> emitter_mesh;    // per compiled emitter: index in meshes, or kNone
    std::vector<StripPoint> strip_points;  // this frame's beams and ribbons (capacity: their most)
    std::vector<uint32_t> strip_segments;  // segment indices, each batch's from its first point
    bool started = false;                  // false: not started at the last frame
};

struct ScenePlayer {
    SceneDesc scene;
    std::string scene_file;
    PlayerConfig config;
    std::vector<PlayerInstance> instances;
    std::vector<PlayerTexture> textures;
    std::vector<PlayerMesh> meshes;

    // The last frame, valid until the next playFrame. Batch records, points and segments point
    // into the instances.
    std::vector<DrawBatch> batches;
    uint64_t particles = 0;      // particles drawn: billboard, mesh and strip particles
    uint64_t strip_segments = 0; // segments in the strip batches built on the host
    // Records of sorting emitters left in backend order because they draw through weighted OIT
    // (scene.transparency; drawsThroughOit), where order does not change the image.
    uint64_t sort_skipped_records = 0;
    // Failures while playing (a GPU instance's Vulkan error, once per instance; the instance then
    // draws nothing). Hosts check it after playFrame.
    std::vector<Diagnostic> errors;

    // Work space.
    std::vector<uint32_t> instance_order;
    std::vector<float> instance_distance;
    SortScratch sort_scratch;
};

// Loads every instance's effect and every texture, and creates each instance on the backend
// chooseBackend picks (config.backend; the device is probed once when the request is not cpu).
// A gpu request the instance cannot meet (no device, a feature the GPU backend lacks) is an
// error at the effect file naming why; an auto choice of the GPU whose device then fails to
// start falls back to the CPU with a warning. scene must be valid (validateScene) and
// scene_file is the path its effect paths are relative to (resolveEffectPath). Returns nullptr
// when any error was found: an effect that does not load or compile (its diagnostics), a texture
// that is missing or not a valid PNG (an error at the effect file and
// "$.emitters[i].render.texture", naming the emitter and the path looked for), a mesh that is
// missing or not a valid OBJ (likewise at "$.emitters[i].render.mesh", with the OBJ's line where
// it has one). Warnings (a GPU fallback) are appended either way.
std::unique_ptr<ScenePlayer> createScenePlayer(const SceneDesc& scene,
                                               const std::string& scene_file,
                                               const PlayerConfig& config,
                                               std::vector<Diagnostic>& diagnostics);

// Every GPU instance's validation-layer messages so far (empty without PlayerConfig::validation
// or without GPU instances), appended to out.
void appendSimulationValidationMessages(const ScenePlayer& player, std::vector<std::string>& out);

// Every file the player read: the scene file (when there is one), each distinct effect file, and
// each texture and mesh file, as opened. A host that writes files refuses to write onto any of
// them (checkOutputPath, io/output_file.h).
std::vector<std::string> inputFiles(const ScenePlayer& player);

// Uploads every texture (addTexture) and mesh (addMesh) once and records its handle. Returns
// false, with the renderer's error, when one fails.
bool uploadAssets(ScenePlayer& player, Renderer& renderer, std::vector<Diagnostic>& diagnostics);

// Steps every instance to scene time time_s (see the top of this file) and builds the frame's
// batches in draw order into player.batches (empty emitters are left out). eye is the camera eye
// the particles are sorted against: frameView(player.scene, time_s).camera.eye for the scene's
// own camera. A time that checkPlayTimes refuses steps nothing and draws nothing: its errors go
// to player.errors.
void playFrame(ScenePlayer& player, float time_s, const Float3& eye);

// What the renderer needs besides the batches: the camera at time_s and the scene's lens, clip
// planes, background, ground, primitives (a view of scene.primitives: keep scene alive), sun and
// ambient.
FrameView frameView(const SceneDesc& scene, float time_s);

// Effect seconds after which the effect looks "developed", for a still: the longest chain of
// emitter delay + longest lifetime through sub-emitter links is L; a looping effect has reached
// its steady look after max(2 s, L); a one-shot effect (looping false) is shown at 0.4 L, while
// its particles are spread out but mostly alive. Never past the effect's duration_s when it does
// not loop.
float developedTime(const CompiledEffect& effect);

// The scene time of the default still: the latest time any instance becomes developed
// (start_s + developedTime / time_scale), within [0, scene duration_s].
float defaultStillTime(const ScenePlayer& player);

// world_from_effect of an instance at scene time time_s: rotation_deg (extrinsic X, then Y,
// then Z) then the translation to instancePosition(instance, time_s).
Rows3x4 instanceTransform(const EffectInstanceDesc& instance, float time_s);

// Whole fixed steps an instance has run at scene time time_s (0 before it starts); what
// playFrame steps each instance to. Counted in double: past kMaxSimulatedSteps it returns
// kMaxSimulatedSteps + 1, so no time overflows the count.
uint64_t instanceSteps(const EffectInstanceDesc& instance, float fixed_timestep_s, float time_s);

// Appends an error per instance that would need more than kMaxSimulatedSteps fixed steps to be
// played at the latest of times_s (a pre-roll, start_s < 0, counts in full), at the scene file
// and the instance's start_s, naming the instance, its effect file, the steps and the earliest
// start_s that would fit. Returns false when any. playFrame refuses such a frame (player.errors,
// nothing drawn); a host checks its times with this before it renders anything.
bool checkPlayTimes(const ScenePlayer& player, std::span<const float> times_s,
                    std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::render
