// `spindrift simulate`: one effect instance (runtime/effect_instance.h) on the CPU or the GPU
// backend for whole fixed steps, then a per-emitter report (the instance's statistics, the same
// counters from either backend) and optionally every live particle's draw record.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "commands.h"
#include "cook/effect_file.h"
#include "driver/driver.h"
#include "effect_source.h"
#include "render/progress.h"
#include "runtime/effect_instance.h"
#include "runtime/simulation_device.h"

namespace spindrift::cli {

namespace {

// Steps one GPU submission may hold: bounds the per-step uniform buffer (one slot per step).
constexpr uint32_t kGpuStepsPerAdvance = 64;

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

// What both backends print: the run, the backend and why, one row per emitter (the instance's
// statistics, filled the same from either backend), finished.
void printReport(FILE* out, const SimulateOptions& options, const EffectInstance& instance,
                 const std::string& ran_on) {
    const CompiledEffect& compiled = *instance.effect;
    const double dt = static_cast<double>(compiled.effect.fixed_timestep_s);
    const uint64_t steps = instance.steps_run;
    std::fprintf(out, "simulated %s: %" PRIu64 " steps of %g s = %g s, %s, seed %u\n",
                 options.input.c_str(), steps, dt, static_cast<double>(steps) * dt, ran_on.c_str(),
                 compiled.effect.seed);
    std::fprintf(out, "backend: %s (%s)\n",
                 std::string(backendName(instance.backend.backend)).c_str(),
                 instance.backend.reason.c_str());
    std::fprintf(out, "%-20s %10s %12s %12s %12s\n", "emitter", "live", "births", "deaths",
                 "overflows");
    std::vector<EmitterStatistics> rows;
    emitterStatistics(instance, rows);
    for (uint32_t e = 0; e < rows.size(); ++e) {
        const EmitterRecord& record = compiled.emitters[e];
        std::fprintf(
            out, "%-20s %10" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
            std::string(stringAt(compiled, record.name_offset, record.name_length)).c_str(),
            rows[e].live, rows[e].births, rows[e].deaths, overflows(rows[e]));
    }
    std::fprintf(out, "finished: %s\n", finished(instance) ? "yes" : "no");
}

// Shows the run's progress (render/progress.h).
class ProgressListener final : public StepListener {
public:
    explicit ProgressListener(render::StepProgress& progress) : progress_(progress) {}
    void stepsDone(uint64_t steps) override { progress_.update(steps); }

private:
    render::StepProgress& progress_;
};

// Prints the validation layer's messages; true when there were any (the run then fails).
bool reportValidation(const EffectInstance& instance) {
    std::vector<std::string> messages;
    appendValidationMessages(instance, messages);
    for (const std::string& m : messages) std::fprintf(stderr, "validation: %s\n", m.c_str());
    if (messages.empty()) return false;
    printDiagnostics({{Severity::error, "", 0, 0, 0, "",
                       std::to_string(messages.size()) + " Vulkan validation message" +
                           (messages.size() == 1 ? "" : "s")}});
    return true;
}

// Every live particle's draw record, emitters in compiled order (one part runs them all here).
bool collectDrawRecords(EffectInstance& instance, std::vector<DrawRecord>& records,
                        std::vector<Diagnostic>& diagnostics) {
    if (!writeHostDrawRecords(instance, diagnostics)) return false;
    for (uint32_t e = 0; e < instance.effect->emitters.size(); ++e) {
        const std::span<const DrawRecord> emitter = hostDrawRecords(instance, e);
        records.insert(records.end(), emitter.begin(), emitter.end());
    }
    return true;
}

// Runs the instance for `steps` steps and prints the report (and the dump). The exit code.
int simulateInstance(const SimulateOptions& options, EffectInstance& instance, uint64_t steps) {
    {
        render::StepProgress progress(steps, false);
        ProgressListener listener(progress);
        StepRun run;
        run.listener = &listener;
        // The state hash is the CPU's after exactly `steps` steps, finished or not.
        run.stop_when_finished = false;
        runSteps(instance, steps, run);
    }
    const bool dumping = !options.dump.empty();
    std::vector<DrawRecord> records;
    std::vector<Diagnostic> diagnostics;
    const bool gpu_failed = instance.gpu && !instance.gpu->errors.empty();
    if (dumping && !gpu_failed && !collectDrawRecords(instance, records, diagnostics)) {
        printDiagnostics(diagnostics, options.input);
        return 1;
    }
    if (gpu_failed) {
        printDiagnostics(instance.gpu->errors, options.input);
        return 1;
    }
    if (reportValidation(instance)) return 1;

    FILE* report = dumping ? stderr : stdout;
    if (instance.gpu) {
        printReport(report, options, instance, "device " + instance.gpu->gpu->device_name);
        // The GPU matches the CPU within a tolerance, not bit for bit (docs/gpu-backend.md,
        // "Parity"): a hash of its state would not compare with the CPU's, so none is printed.
        std::fprintf(report, "state hash: n/a (gpu backend: within tolerance of the cpu, not "
                             "bit-identical)\n");
    } else {
        const uint32_t threads = instance.cpu->config.threads;
        printReport(report, options, instance,
                    std::to_string(threads) + (threads == 1 ? " thread" : " threads"));
        std::fprintf(report, "state hash: %016" PRIx64 "\n", cpu::stateHash(*instance.cpu));
    }
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
    const SimulationDevice device =
        request == BackendRequest::cpu ? SimulationDevice{} : probeSimulationDevice(options.device);
    InstanceConfig config;
    config.backend = request;
    // simulate reports one backend's run (its state hash is the CPU's): an effect auto would
    // split runs wholly on the CPU here, and the reason says so. The scene player splits it.
    config.allow_split = false;
    config.threads = options.threads;
    config.driver.max_steps_per_frame = kGpuStepsPerAdvance;
    config.device = options.device;
    config.validation = options.validation;
    diagnostics.clear();
    std::unique_ptr<EffectInstance> instance =
        createEffectInstance(compiled, config, device, options.input, diagnostics);
    printDiagnostics(diagnostics);
    if (!instance) return 1;
    return simulateInstance(options, *instance, steps);
}

} // namespace spindrift::cli
