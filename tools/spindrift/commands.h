// The subcommands of the `spindrift` tool. Each returns the process exit code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "render/frame_output.h"

namespace spindrift::cli {

// Checks every effect (.json) and cooked file (.sfx) named, directories searched recursively
// for both, and the textures and meshes each names (they must exist and decode). Prints each
// diagnostic compiler-style and a summary; 0 when no file has an error.
int runValidate(const std::vector<std::string>& inputs, bool quiet);

// Compiles input (an effect or a cooked file) and writes the cooked bytes to output (default:
// input with its extension replaced by .sfx) atomically (io/output_file.h). An output that is
// the input (by path or file identity) or not a regular file is refused. Writes nothing when
// there is an error.
int runCook(const std::string& input, std::string output);

// Prints what a compiled effect holds: emitters, ops, capacities, LUT use, structural hash,
// and which backends can run each emitter (and why not).
int runInspect(const std::string& input);

struct SimulateOptions {
    std::string input;
    double time_s = 1;
    uint32_t threads = 1;
    bool seed_set = false;
    uint32_t seed = 0;
    std::string dump;            // "", "csv" or "json"
    std::string backend = "cpu"; // "cpu", "gpu" or "auto" (chooseBackend)
    std::string device;          // the GPU backend's device, as RenderOptions::device
    bool validation = false;     // the GPU backend's Vulkan validation layer; any message fails
};

// Runs the effect on the chosen backend (chooseBackend: cpu, gpu or auto) for whole fixed steps
// up to time_s and prints which backend ran and why, and per emitter live count, births, deaths
// and overflows. The CPU backend also prints a hash of its full state; the GPU backend prints
// "state hash: n/a" (it matches the CPU within tolerance, not bit for bit). With dump, the draw
// records of every live particle go to stdout in the same columns for both backends (the report
// then goes to stderr). A gpu request without a device, or for an effect the GPU backend cannot
// run, is an error naming why (exit 1).
int runSimulate(const SimulateOptions& options);

// The zlib level `render` writes PNGs at unless told (--png-level).
inline constexpr uint32_t kRenderPngLevel = static_cast<uint32_t>(render::kFramePngLevel);
// At most this many writer threads by default (--jobs picks more, up to kMaxFrameWriters).
inline constexpr uint32_t kDefaultRenderJobs = 16;

struct RenderOptions {
    std::string input;   // a scene (.json) or an effect (.json or .sfx)
    std::string output;  // "" = <input stem>.png
    uint32_t frames = 0; // 0 = the default for the output kind
    double fps = 0;      // 0 = the scene's fps
    uint32_t width = 0;  // --size; 0 = the scene's resolution
    uint32_t height = 0;
    std::string device;
    bool list_devices = false;
    uint32_t contact_sheet = 0; // frames on the sheet; 0 = no sheet
    bool time_set = false;
    double time_s = 0;
    bool validation = false;
    bool quiet = false;
    std::string backend = "cpu"; // each instance's simulation backend: "cpu", "gpu" or "auto"
    // "sorted" or "weighted_oit" overrides the scene's transparency; empty keeps it.
    std::string transparency;
    // "full" or "half" overrides the scene's particle_resolution; empty keeps it.
    std::string particle_resolution;
    // How billboards are drawn (render::RasterPath): "graphics" (default), "compute" or
    // "automatic".
    std::string raster = "graphics";
    // zlib level of every PNG written (still, sequence, contact sheet): 0..9.
    uint32_t png_level = kRenderPngLevel;
    // Writer threads of a sequence or video beside the render thread (0: renderJobs's default);
    // 1 writes each frame on the render thread before the next is drawn.
    uint32_t jobs = 0;
    // Also write each frame's motion vectors (docs/rendering.md, "Motion vectors") as a .pfm
    // (render/motion_file.h): a still's path, or a sequence's (a frame-number placeholder, or one
    // is added as for the PNGs); "" writes none.
    std::string motion_vectors;
    // The coverage a particle fragment needs to write its motion (MotionVectorsDesc), and
    // whether additive particles write theirs: --motion-coverage, --motion-additive.
    double motion_coverage = 0.5;
    bool motion_additive = false;
};

// Renders a scene, or an effect in its default scene, to a still PNG, a numbered PNG sequence,
// an MP4 (through ffmpeg) or a contact sheet, chosen by the output's extension and the options
// (docs/rendering.md). Errors (a bad scene, a missing texture, no Vulkan device, a bad option)
// are printed compiler-style and give exit code 1.
int runRender(const RenderOptions& options);

struct EditOptions {
    std::string input;  // an effect file or a folder; "" = the current folder
    uint32_t port = 0;  // 0: a free port; at most 65535
    std::string device; // the preview renderer's Vulkan device
};

// Serves the browser effect editor for the folder (or the file's folder, with the file open) on
// 127.0.0.1 and prints its address; runs until SIGINT or SIGTERM (docs/editor.md).
int runEdit(const EditOptions& options);

} // namespace spindrift::cli
