// The scene player: turns a validated scene into what the renderer draws, frame after frame. It
// is a client of the public runtime (include/spindrift/runtime.h, draw_list.h), as a game is:
//
// At load it registers each instance's effect file in its EffectLibrary (JSON or cooked .sfx,
// loadCompiledEffect; a file used by several instances is compiled once), creates one World
// instance per scene instance (World::create; the world's backend is PlayerConfig::backend,
// chosen per instance by chooseBackend, runtime/backend_choice.h) that follows the scene's motion
// path and rotation (World::followPath), and loads each drawn emitter's texture (PNG, relative to
// the effect file; one image per distinct file) and mesh. For a frame at scene time t it advances
// every started instance to its own time (World::advanceTo), hides the others
// (World::setVisible), takes the world's draw list for the eye (World::drawList) and hands it to
// the renderer as batches (render/draw_list_batches.h). It never steps a backend or writes a
// draw record itself.
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
// Allocation: the world's instances are sized at load; the draw list and the batches grow to the
// largest frame and are reused, so frames allocate nothing once warm (the promise covers CPU
// instances; a GPU instance's Vulkan submissions are the driver's business). Not thread-safe per
// player.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "driver/placement.h"
#include "image/image.h"
#include "mesh/obj_reader.h"
#include "render/particle_sort.h"
#include "render/renderer.h"
#include "runtime/backend_choice.h"
#include "runtime/effect_instance.h"
#include "spindrift/diagnostic.h"
#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"
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
    // The world keeps seek checkpoints (WorldConfig's defaults), so an instance sent back in time
    // replays from the latest checkpoint before it instead of time 0: a timeline that is
    // scrubbed (the editor's preview). Off, nothing is snapshotted: a render that only goes
    // forward.
    bool seek_checkpoints = false;
};
inline constexpr uint64_t kPlayerProgressMinSteps = 10'000;

// One distinct texture file. handle is kNoTexture until uploadAssets gives it one (tests that
// run without a GPU may set handles by hand).
struct PlayerTexture {
    std::string path; // as opened: the effect file's directory joined with the authored path
    Image image;
    TextureEncoding encoding = TextureEncoding::color; // data: a distortion emitter's field
    TextureHandle handle = kNoTexture;
};

// One distinct mesh file. handle is kNoMesh until uploadAssets gives it one.
struct PlayerMesh {
    std::string path; // as opened: the effect file's directory joined with the authored path
    MeshData mesh;
    MeshHandle handle = kNoMesh;
};

// One scene instance: an instance of the player's world, following the scene's path.
struct PlayerInstance {
    uint32_t scene_index = 0;                     // index in SceneDesc::effects
    std::string effect_file;                      // resolved path of the effect file
    std::shared_ptr<const CompiledEffect> effect; // the library's compiled effect
    EffectId effect_id;                           // in ScenePlayer::library
    InstanceHandle handle;                        // in ScenePlayer::world
    // The world's effect instance behind handle (runtime/world_access.h): its backend and why,
    // its parts and statistics. The player drives it only through the world.
    EffectInstance* simulation = nullptr;
    // The scene's motion path and rotation as the instance's TransformPath (World::followPath).
    std::unique_ptr<TransformPath> path;
    // This frame's beam and ribbon points of the instance built on the host: a view into the
    // frame's draw list (empty for strips drawn from the device).
    std::span<const StripPoint> strip_points;
    bool started = false; // false: not started at the last frame
};

// One effect file's textures and meshes, per compiled emitter: indices in ScenePlayer::textures
// and ::meshes, or kNone.
struct PlayerEffect {
    std::vector<uint32_t> emitter_texture;
    std::vector<uint32_t> emitter_mesh;
};

struct ScenePlayer {
    SceneDesc scene;
    std::string scene_file;
    PlayerConfig config;
    // The player is a client of the public runtime: its effects live in an EffectLibrary, its
    // instances in a World (declared after the library: destroyed before it), and each frame is
    // the world's draw list (World::drawList) for the scene camera.
    std::unique_ptr<EffectLibrary> library;
    std::unique_ptr<World> world;
    DrawList draw_list;
    std::vector<PlayerInstance> instances;
    std::vector<PlayerEffect> effects; // per EffectId value - 1
    std::vector<PlayerTexture> textures;
    std::vector<PlayerMesh> meshes;

    // The last frame, valid until the next playFrame: the draw list as the renderer's batches
    // (render/draw_list_batches.h). Records, points and segments point into the list and the world.
    std::vector<DrawBatch> batches;
    uint64_t particles = 0;      // particles drawn: billboard, mesh and strip particles
    uint64_t strip_segments = 0; // segments in the strip batches built on the host
    // Records of sorting emitters left in backend order because they draw through weighted OIT
    // (scene.transparency; drawsThroughOit), where order does not change the image.
    uint64_t sort_skipped_records = 0;
    // Wall milliseconds of the last playFrame's two stages: advancing the instances (the world's
    // fixed steps, or the GPU backend's submissions) and building the draw list with the batches.
    double advance_ms = 0;
    double draw_list_ms = 0;
    // The frame's point and spot lights for FrameView::lights: the scene's own, in order, then
    // the particle lights of the emitters (render.lights), in draw order. A GPU emitter's are
    // chosen from its particles read back from the device (World::readParticles, synchronous:
    // the offline frame waits for the device anyway); device_light_emitters counts them.
    std::vector<LightDesc> lights;
    uint32_t device_light_emitters = 0;
    // Work space of the readback: an instance's particles, an emitter's as draw records.
    std::vector<Particle> device_particles;
    std::vector<DrawRecord> device_light_records;
    // Failures while playing (a GPU instance's Vulkan error, once per instance; the instance then
    // draws nothing). Hosts check it after playFrame.
    std::vector<Diagnostic> errors;
    // Depth-buffer collision: what the frames must copy of their opaque depth for the instances
    // (FrameView::scene_depth; none without a renderer or a depth_buffer op). playFrame gives the
    // steps the depth the renderer copied last (lastSceneDepth): one frame late.
    SceneDepthOutput scene_depth = SceneDepthOutput::none;
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

// The renderer keeps every texture and mesh it was given (kMaxTextures, kMaxMeshes), so a player
// rebuilt after an edit or a reload takes old_player's handle for each file whose contents did not
// change, and uploadAssets then uploads only what is new: editing or reloading for hours never
// exhausts the renderer (the viewer and the editor both rebuild their players).
void reuseAssets(const ScenePlayer& old_player, ScenePlayer& player);

// Steps every instance to scene time time_s (see the top of this file) and builds the frame's
// batches in draw order into player.batches (empty emitters are left out). eye is the camera eye
// the particles are sorted against: frameView(player.scene, time_s).camera.eye for the scene's
// own camera. A time that checkPlayTimes refuses steps nothing and draws nothing: its errors go
// to player.errors.
void playFrame(ScenePlayer& player, float time_s, const Float3& eye);

// What the renderer needs besides the batches: the camera at time_s and the scene's lens, clip
// planes, background, ground, primitives (a view of scene.primitives: keep scene alive), sun,
// ambient and the scene's lights (a view of scene.lights; a player's frame sets
// view.lights = player.lights after playFrame, which adds the particle lights).
FrameView frameView(const SceneDesc& scene, float time_s);

// The longest chain of emitter delay + longest lifetime through sub-emitter links, in effect
// seconds: when the last particle of a first cycle of every emitter can have died.
float longestChainTime(const CompiledEffect& effect);

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
