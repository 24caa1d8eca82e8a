// `spindrift simulate`: an effect on the CPU or the GPU backend for whole fixed steps, then a
// per-emitter report and optionally every live particle's draw record.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "commands.h"
#include "cook/effect_file.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "effect_source.h"
#include "gpu/gpu_effect.h"
#include "render/progress.h"
#include "render/simulation_device.h"
#include "runtime/backend_choice.h"
#include "runtime/driver.h"

namespace spindrift::cli {

namespace {

// Steps one GPU submission may hold: bounds the per-step uniform buffer (one slot per step).
constexpr uint32_t kGpuStepsPerAdvance = 64;
// One row of the report, whichever backend ran.
struct EmitterRow {
    uint64_t live = 0;
    uint64_t births = 0;
    uint64_t deaths = 0;
    uint64_t overflows = 0; // births dropped or replacing a live particle (replace_oldest)
};

// The same columns for both backends, so a dump from one compares with a dump from the other.
void dumpCsv(std::span<const DrawRecord> records) {
    std::printf("emitter,position_x,position_y,position_z,size,color_r,color_g,color_b,color_a,"
                "velocity_x,velocity_y,velocity_z,rotation_rad,age_normalized,flipbook_frame\n");
    for (const DrawRecord& r : records) {
        std::printf("%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                    r.emitter_index, double(r.position_size.x), double(r.position_size.y),
                    double(r.position_size.z), double(r.position_size.w), double(r.color.x),
                    double(r.color.y), double(r.color.z), double(r.color.w),
                    double(r.velocity_rotation.x), double(r.velocity_rotation.y),
                    double(r.velocity_rotation.z), double(r.velocity_rotation.w),
                    double(r.normalized_age), double(r.flipbook_frame));
    }
}

void dumpJson(std::span<const DrawRecord> records) {
    std::printf("[\n");
    for (size_t i = 0; i < records.size(); ++i) {
        const DrawRecord& r = records[i];
        std::printf(
            "  {\"emitter\": %u, \"position\": [%.9g, %.9g, %.9g], \"size\": %.9g, "
            "\"color\": [%.9g, %.9g, %.9g, %.9g], \"velocity\": [%.9g, %.9g, %.9g], "
            "\"rotation_rad\": %.9g, \"age_normalized\": %.9g, \"flipbook_frame\": %.9g}%s\n",
            r.emitter_index, double(r.position_size.x), double(r.position_size.y),
            double(r.position_size.z), double(r.position_size.w), double(r.color.x),
            double(r.color.y), double(r.color.z), double(r.color.w), double(r.velocity_rotation.x),
            double(r.velocity_rotation.y), double(r.velocity_rotation.z),
            double(r.velocity_rotation.w), double(r.normalized_age), double(r.flipbook_frame),
            i + 1 < records.size() ? "," : "");
    }
    std::printf("]\n");
}

void dump(const std::string& format, std::span<const DrawRecord> records) {
    if (format == "csv")
        dumpCsv(records);
    else
        dumpJson(records);
}

// What both backends print: the run, the backend and why, one row per emitter, finished.
void printReport(FILE* out, const SimulateOptions& options, const CompiledEffect& compiled,
                 uint64_t steps, const std::string& ran_on, const BackendChoice& choice,
                 const std::vector<EmitterRow>& rows, bool finished) {
    const double dt = static_cast<double>(compiled.effect.fixed_timestep_s);
    std::fprintf(out, "simulated %s: %" PRIu64 " steps of %g s = %g s, %s, seed %u\n",
                 options.input.c_str(), steps, dt, static_cast<double>(steps) * dt, ran_on.c_str(),
                 compiled.effect.seed);
    std::fprintf(out, "backend: %s (%s)\n", std::string(backendName(choice.backend)).c_str(),
                 choice.reason.c_str());
    std::fprintf(out, "%-20s %10s %12s %12s %12s\n", "emitter", "live", "births", "deaths",
                 "overflows");
    for (uint32_t e = 0; e < rows.size(); ++e) {
        const EmitterRecord& record = compiled.emitters[e];
        std::fprintf(
            out, "%-20s %10" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
            std::string(stringAt(compiled, record.name_offset, record.name_length)).c_str(),
            rows[e].live, rows[e].births, rows[e].deaths, rows[e].overflows);
    }
    std::fprintf(out, "finished: %s\n", finished ? "yes" : "no");
}

int simulateOnCpu(const SimulateOptions& options, std::shared_ptr<CompiledEffect> compiled,
                  uint64_t steps, const BackendChoice& choice) {
    cpu::CpuConfig config;
    config.threads = options.threads;
    std::vector<Diagnostic> limits; // the CPU backend's own limits (ribbon trail storage)
    std::unique_ptr<cpu::CpuEffect> fx = cpu::createCpuEffect(compiled, config, limits);
    if (fx == nullptr) {
        printDiagnostics(limits, options.input);
        return 1;
    }
    {
        render::StepProgress progress(steps, false);
        for (uint64_t i = 0; i < steps; ++i) {
            cpu::stepOnce(*fx);
            progress.update(i + 1);
        }
    }

    std::vector<EmitterRow> rows(fx->pools.size());
    for (uint32_t e = 0; e < rows.size(); ++e) {
        const cpu::EmitterStats& s = fx->stats[e];
        rows[e] = {fx->pools[e].count, s.births, s.deaths,
                   s.overflow_dropped + s.overflow_replaced};
    }
    const bool dumping = !options.dump.empty();
    FILE* report = dumping ? stderr : stdout;
    const std::string ran_on =
        std::to_string(config.threads) + (config.threads == 1 ? " thread" : " threads");
    printReport(report, options, *compiled, steps, ran_on, choice, rows, cpu::finished(*fx));
    std::fprintf(report, "state hash: %016" PRIx64 "\n", cpu::stateHash(*fx));
    if (dumping) {
        std::vector<DrawRecord> records(cpu::liveCount(*fx));
        cpu::writeDrawRecords(*fx, records.data());
        dump(options.dump, records);
    }
    return 0;
}

// Returned by simulateOnGpu when no instance could be made (an `auto` choice then falls back).
constexpr int kNoGpuInstance = -1;

// Prints the validation layer's messages; true when there were any (the run then fails).
bool reportValidation(const gpu::GpuEffect& fx) {
    const std::vector<std::string>& messages = gpu::validationMessages(fx);
    for (const std::string& m : messages) std::fprintf(stderr, "validation: %s\n", m.c_str());
    if (messages.empty()) return false;
    printDiagnostics({{Severity::error, "", 0, 0, 0, "",
                       std::to_string(messages.size()) + " Vulkan validation message" +
                           (messages.size() == 1 ? "" : "s")}});
    return true;
}

// may_fall_back: the choice was auto, so a device that cannot start the backend hands the run to
// the CPU (kNoGpuInstance, the reasons printed as warnings) instead of failing it.
int simulateOnGpu(const SimulateOptions& options, std::shared_ptr<CompiledEffect> compiled,
                  uint64_t steps, const BackendChoice& choice, bool may_fall_back) {
    gpu::GpuConfig config;
    config.device = options.device;
    config.validation = options.validation;
    config.driver.max_steps_per_frame = kGpuStepsPerAdvance;
    std::vector<Diagnostic> diagnostics;
    std::unique_ptr<gpu::GpuEffect> fx = gpu::createGpuEffect(compiled, config, diagnostics);
    if (fx == nullptr) {
        // auto only picks a device it found, but the device may still lack what the passes
        // need (Vulkan 1.3, buffer device addresses): then the CPU runs it, and says so.
        if (may_fall_back) {
            for (Diagnostic& d : diagnostics) d.severity = Severity::warning;
            printDiagnostics(diagnostics, options.input);
            return kNoGpuInstance;
        }
        printDiagnostics(diagnostics, options.input);
        return 1;
    }
    printDiagnostics(diagnostics, options.input);

    // Frames of whole steps (the driver's snap makes k * dt exactly k steps); a finished effect
    // plans no more steps and changes no more.
    const double dt = static_cast<double>(compiled->effect.fixed_timestep_s);
    uint64_t done = 0;
    {
        render::StepProgress progress(steps, false);
        while (done < steps && fx->errors.empty() && !gpu::finished(*fx)) {
            const auto k =
                static_cast<uint32_t>(std::min<uint64_t>(kGpuStepsPerAdvance, steps - done));
            const FrameReport frame = gpu::advanceFrame(*fx, static_cast<double>(k) * dt);
            if (frame.steps == 0) break;
            done += frame.steps;
            progress.update(done);
        }
    }
    const bool dumping = !options.dump.empty();
    std::vector<DrawRecord> records;
    std::vector<uint32_t> counts(compiled->emitters.size());
    if (dumping && fx->errors.empty()) {
        records.resize(fx->layout.draw_records);
        diagnostics.clear();
        if (!gpu::readBackDrawRecords(*fx, records, counts, diagnostics)) {
            printDiagnostics(diagnostics, options.input);
            return 1;
        }
        size_t live = 0;
        for (const uint32_t c : counts) live += c;
        records.resize(live);
    }
    if (!fx->errors.empty()) {
        printDiagnostics(fx->errors, options.input);
        return 1;
    }
    if (reportValidation(*fx)) return 1;

    std::vector<EmitterRow> rows(fx->stats.size());
    for (uint32_t e = 0; e < rows.size(); ++e) {
        const gpu::GpuEmitterStats& s = fx->stats[e];
        rows[e] = {s.live, s.births, s.deaths, s.overflow_dropped + s.overflow_replaced};
    }
    FILE* report = dumping ? stderr : stdout;
    printReport(report, options, *compiled, steps, "device " + fx->gpu->device_name, choice, rows,
                gpu::finished(*fx));
    // The GPU matches the CPU within a tolerance, not bit for bit (docs/gpu-backend.md,
    // "Parity"): a hash of its state would not compare with the CPU's, so none is printed.
    std::fprintf(report, "state hash: n/a (gpu backend: within tolerance of the cpu, not "
                         "bit-identical)\n");
    if (dumping) dump(options.dump, records);
    return 0;
}

// Why --time cannot run: not a time, or more steps than kMaxSimulatedSteps.
std::string stepLimitMessage(double time_s, const CompiledEffect& compiled) {
    const float dt = compiled.effect.fixed_timestep_s;
    char text[320];
    if (!(time_s >= 0) || !std::isfinite(time_s)) {
        std::snprintf(text, sizeof text,
                      "--time: expected a finite number of seconds >= 0, found %g", time_s);
        return text;
    }
    std::snprintf(text, sizeof text,
                  "--time %g s is %.4g fixed steps of %g s, more than the %" PRIu64
                  " steps a run may simulate (kMaxSimulatedSteps, docs/driver.md, \"Limits\"): "
                  "this effect runs at most %g s",
                  time_s, stepsInTime(time_s, dt), static_cast<double>(dt), kMaxSimulatedSteps,
                  static_cast<double>(kMaxSimulatedSteps) * static_cast<double>(dt));
    return text;
}

} // namespace

int runSimulate(const SimulateOptions& options) {
    BackendRequest request = BackendRequest::cpu;
    if (!parseBackendRequest(options.backend, request)) {
        printDiagnostics(
            {{Severity::error, "", 0, 0, 0, "",
              "--backend: expected cpu, gpu or auto, found '" + options.backend + "'"}});
        return 1;
    }
    std::vector<Diagnostic> diagnostics;
    auto compiled = std::make_shared<CompiledEffect>();
    const bool ok = loadCompiledEffect(options.input, *compiled, diagnostics);
    printDiagnostics(diagnostics);
    if (!ok) return 1;
    if (options.seed_set) compiled->effect.seed = options.seed;
    // Whole fixed steps up to the requested time: the state at time T is the state after
    // round(T / dt) steps, the same however a host would have paced its frames. Bounded by
    // kMaxSimulatedSteps before anything runs.
    uint64_t steps = 0;
    if (!boundedStepsInTime(options.time_s, compiled->effect.fixed_timestep_s, steps)) {
        printDiagnostics({{Severity::error, options.input, 0, 0, 0, "",
                           stepLimitMessage(options.time_s, *compiled)}});
        return 1;
    }

    // Only a request that may run on the GPU looks for a device: cpu needs no Vulkan at all.
    const SimulationDevice device = request == BackendRequest::cpu
                                        ? SimulationDevice{}
                                        : render::probeSimulationDevice(options.device);
    BackendChoice choice = chooseBackend(*compiled, request, device);
    if (!choice.ok) {
        printDiagnostics({{Severity::error, options.input, 0, 0, 0, "", choice.reason}});
        return 1;
    }
    // simulate reports one backend's run (its state hash is the CPU's): an effect auto would
    // split runs wholly on the CPU here, and the reason says so. The scene player splits it.
    if (splitsEffect(choice)) {
        choice = {true, Backend::cpu, choice.reason + "; simulate runs it all on the CPU",
                  std::vector<Backend>(compiled->emitters.size(), Backend::cpu)};
    }

    if (choice.backend == Backend::gpu) {
        const int code =
            simulateOnGpu(options, compiled, steps, choice, request == BackendRequest::automatic);
        if (code != kNoGpuInstance) return code;
        choice = {true, Backend::cpu,
                  "auto: the GPU backend could not start on device '" + device.name + "'",
                  std::vector<Backend>(compiled->emitters.size(), Backend::cpu)};
    }
    return simulateOnCpu(options, compiled, steps, choice);
}

} // namespace spindrift::cli
