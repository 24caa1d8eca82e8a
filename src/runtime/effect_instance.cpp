#include "runtime/effect_instance.h"

#include "runtime/world_scene_depth.h"

#include <algorithm>

#include "cpu/draw_records.h"
#include "cpu/trails.h"
#include "gpu/gpu_stage_timing.h"
#include "gpu/ribbon_strips.h"
#include "vulkan/context.h"

namespace spindrift {

namespace {

// Marks the instance failed and gives the errors appended since `before` the instance's source.
void markFailed(EffectInstance& instance, std::vector<Diagnostic>& diagnostics, size_t before) {
    instance.failed = true;
    for (size_t i = before; i < diagnostics.size(); ++i) {
        if (diagnostics[i].file.empty()) diagnostics[i].file = instance.source;
    }
}

void appendWithSource(std::vector<Diagnostic>& from, const std::string& source, bool as_warnings,
                      std::vector<Diagnostic>& diagnostics) {
    for (Diagnostic& d : from) {
        if (d.file.empty()) d.file = source;
        if (as_warnings) d.severity = Severity::warning;
        diagnostics.push_back(std::move(d));
    }
}

// The GPU part of a choice that runs some emitter on the GPU. False when it does not start: the
// caller fails, or (may_fall_back) gives its emitters to the CPU.
bool createGpuPart(EffectInstance& instance, const InstanceConfig& config, bool may_fall_back,
                   std::vector<Diagnostic>& diagnostics) {
    gpu::GpuConfig gpu_config;
    gpu_config.device = config.device;
    gpu_config.validation = config.validation;
    gpu_config.driver = config.driver;
    gpu_config.async_statistics = config.async_gpu;
    // On a shared device (the renderer's) every emitter is drawn from the device: billboards from
    // their records, ribbons and beams from strips the GPU writes (gpu::deviceStripSource).
    std::vector<Diagnostic> gpu_diagnostics;
    if (config.shared_device) {
        gpu_config.shared_device = config.shared_device;
        gpu_config.async_statistics = true;
        gpu_config.device_strips = true;
    } else if (config.device_slot != nullptr) {
        if (!*config.device_slot) {
            *config.device_slot =
                vk::createContext(config.device, config.validation, gpu_diagnostics);
        }
        gpu_config.shared_device = *config.device_slot;
    }
    std::shared_ptr<const CompiledEffect> part =
        runOnly(instance.effect, instance.backend, Backend::gpu);
    // A slot's device that could not be made has said why; nothing else is tried.
    const bool slot_failed = config.device_slot != nullptr && !gpu_config.shared_device;
    if (!slot_failed) {
        instance.gpu =
            gpu::createGpuEffect(part ? part : instance.effect, gpu_config, gpu_diagnostics);
    }
    // auto only picks a device it found; one that then cannot start the backend (it lacks a
    // Vulkan 1.3 feature) hands the instance to the CPU and says so.
    appendWithSource(gpu_diagnostics, instance.source, !instance.gpu && may_fall_back, diagnostics);
    if (!instance.gpu) return false;
    instance.gpu->world = config.world;
    instance.draws_from_device = config.shared_device != nullptr;
    instance.gpu_records.resize(instance.gpu->layout.draw_records);
    instance.gpu_counts.assign(instance.effect->emitters.size(), 0);
    return true;
}

bool createCpuPart(EffectInstance& instance, const InstanceConfig& config,
                   std::vector<Diagnostic>& diagnostics) {
    cpu::CpuConfig cpu_config;
    cpu_config.threads = config.threads;
    cpu_config.driver = config.driver;
    std::shared_ptr<const CompiledEffect> part =
        runOnly(instance.effect, instance.backend, Backend::cpu);
    // The CPU backend's own limits (ribbon trail storage) are checked here, not thrown.
    std::vector<Diagnostic> limits;
    instance.cpu = cpu::createCpuEffect(part ? part : instance.effect, cpu_config, limits);
    appendWithSource(limits, instance.source, false, diagnostics);
    if (!instance.cpu) return false;
    instance.cpu->world = config.world;
    // cpu_records grows with the live count when written (writeHostDrawRecords): an instance
    // holds room for what it draws, not for its effect's whole capacity.
    instance.cpu_counts.assign(instance.effect->emitters.size(), 0);
    return true;
}

// The GPU part's steps of a run: one host frame per fixed step when the placement follows a
// motion, so each step gets exactly the transforms at its start and end (advanceFrame blends one
// frame's transforms linearly, which is not the path); frames of up to the driver's cap of steps
// otherwise (the driver's snap makes k x dt exactly k steps). A Vulkan failure stops it.
void runGpuSteps(EffectInstance& instance, uint64_t from, uint64_t count, const StepRun& run) {
    gpu::GpuEffect& fx = *instance.gpu;
    const double dt = instance.effect->effect.fixed_timestep_s;
    uint64_t done = 0;
    if (run.motion != nullptr) {
        for (; done < count && fx.errors.empty(); ++done) {
            if (gpu::finished(fx)) break;
            const double t1 = static_cast<double>(from + done + 1) * dt;
            gpu::setTransform(fx, run.motion->worldFromEffectAt(t1));
            gpu::advanceFrame(fx, dt);
            if (run.listener != nullptr) run.listener->stepsDone(done + 1);
        }
        return;
    }
    const uint64_t per_frame = std::max<uint32_t>(1, fx.config.driver.max_steps_per_frame);
    while (done < count && fx.errors.empty() && !gpu::finished(fx)) {
        const uint64_t k = std::min(per_frame, count - done);
        const FrameReport frame = gpu::advanceFrame(fx, static_cast<double>(k) * dt);
        if (frame.steps == 0) break;
        done += frame.steps;
        if (run.listener != nullptr) run.listener->stepsDone(done);
    }
}

// The CPU part's steps of a run, each from the placement at its start to that at its end.
void runCpuSteps(EffectInstance& instance, uint64_t from, uint64_t count, const StepRun& run) {
    cpu::CpuEffect& fx = *instance.cpu;
    const double dt = instance.effect->effect.fixed_timestep_s;
    for (uint64_t done = 0; done < count; ++done) {
        // A finished effect has no particles and plans no births: the remaining steps would
        // change nothing but the clock's step counter.
        if (run.stop_when_finished && cpu::finished(fx)) break;
        if (run.motion != nullptr) {
            const double t0 = static_cast<double>(from + done) * dt;
            fx.step_start = run.motion->worldFromEffectAt(t0);
            fx.step_end = run.motion->worldFromEffectAt(t0 + dt);
        }
        cpu::stepOnce(fx);
        if (run.listener != nullptr) run.listener->stepsDone(done + 1);
    }
}

EmitterStatistics statisticsOf(const cpu::EmitterStats& s, uint64_t live) {
    return {
        live,      s.births, s.deaths, s.overflow_dropped, s.overflow_replaced, s.events_dropped,
        s.contacts};
}

EmitterStatistics statisticsOf(const gpu::GpuEmitterStats& s) {
    return {s.live,           s.births,  s.deaths, s.overflow_dropped, s.overflow_replaced,
            s.events_dropped, s.contacts};
}

} // namespace

std::unique_ptr<EffectInstance> createEffectInstance(std::shared_ptr<const CompiledEffect> effect,
                                                     const InstanceConfig& config,
                                                     const SimulationDevice& device,
                                                     const std::string& source,
                                                     std::vector<Diagnostic>& diagnostics) {
    auto instance = std::make_unique<EffectInstance>();
    instance->effect = std::move(effect);
    instance->source = source;
    instance->uses_scene_depth = usesSceneDepth(*instance->effect);
    for (const ParameterRecord& p : instance->effect->parameters) {
        instance->parameter_values.push_back(p.default_value);
    }
    const size_t emitters = instance->effect->emitters.size();
    instance->backend = chooseBackend(*instance->effect, config.backend, device);
    if (!instance->backend.ok) {
        diagnostics.push_back({Severity::error, source, 0, 0, 0, "", instance->backend.reason});
        return nullptr;
    }
    if (!config.allow_split && splitsEffect(instance->backend)) {
        instance->backend = {true, Backend::cpu,
                             instance->backend.reason + "; simulate runs it all on the CPU",
                             std::vector<Backend>(emitters, Backend::cpu)};
    }
    if (instance->backend.backend == Backend::gpu) {
        const bool may_fall_back = config.backend == BackendRequest::automatic;
        if (!createGpuPart(*instance, config, may_fall_back, diagnostics)) {
            if (!may_fall_back) return nullptr;
            instance->backend = {true, Backend::cpu,
                                 "auto: the GPU backend could not start on device '" + device.name +
                                     "'",
                                 std::vector<Backend>(emitters, Backend::cpu)};
        }
    }
    if (std::count(instance->backend.emitters.begin(), instance->backend.emitters.end(),
                   Backend::cpu) != 0 &&
        !createCpuPart(*instance, config, diagnostics)) {
        return nullptr;
    }
    instance->record_first.assign(emitters, 0);
    placeInstance(*instance, Rows3x4{});
    return instance;
}

void setTransform(EffectInstance& instance, const Rows3x4& world_from_effect) {
    if (instance.cpu) cpu::setTransform(*instance.cpu, world_from_effect);
    if (instance.gpu) gpu::setTransform(*instance.gpu, world_from_effect);
}

void placeInstance(EffectInstance& instance, const Rows3x4& world_from_effect) {
    instance.state_serial += 1;
    instance.world_from_effect = world_from_effect;
    if (instance.gpu) {
        instance.gpu->world_from_effect = world_from_effect;
        instance.gpu->next_world_from_effect = world_from_effect;
    }
    if (instance.cpu) {
        cpu::CpuEffect& fx = *instance.cpu;
        fx.world_from_effect = world_from_effect;
        fx.next_world_from_effect = world_from_effect;
        fx.step_start = world_from_effect;
        fx.step_end = world_from_effect;
    }
}

FrameReport step(EffectInstance& instance, double frame_dt_s) {
    instance.state_serial += 1;
    FrameReport report;
    if (instance.gpu) {
        report = gpu::advanceFrame(*instance.gpu, frame_dt_s);
        instance.world_from_effect = instance.gpu->world_from_effect;
    }
    // Both parts run the same clock on the same frame times: their reports are equal.
    if (instance.cpu) {
        report = cpu::advanceFrame(*instance.cpu, frame_dt_s);
        instance.world_from_effect = instance.cpu->world_from_effect;
    }
    instance.steps_run += report.steps;
    return report;
}

uint64_t accrueSteps(EffectInstance& instance, double frame_dt_s) {
    auto accrue = [&](DriverState& driver, DriverConfig config) {
        config.max_steps_per_frame = UINT32_MAX;
        FrameReport report;
        return uint64_t{beginFrame(driver, *instance.effect, frame_dt_s, config, report)};
    };
    uint64_t steps = 0;
    // Both parts run the same clock on the same frame times: their counts are equal.
    if (instance.gpu) steps = accrue(instance.gpu->driver, instance.gpu->config.driver);
    if (instance.cpu) steps = accrue(instance.cpu->driver, instance.cpu->config.driver);
    return steps;
}

uint64_t runSteps(EffectInstance& instance, uint64_t count, const StepRun& run) {
    instance.state_serial += 1;
    const uint64_t from = instance.steps_run;
    if (instance.gpu) runGpuSteps(instance, from, count, run);
    if (instance.cpu) runCpuSteps(instance, from, count, run);
    instance.steps_run = from + count;
    if (run.motion != nullptr) {
        const double t = static_cast<double>(instance.steps_run) *
                         static_cast<double>(instance.effect->effect.fixed_timestep_s);
        placeInstance(instance, run.motion->worldFromEffectAt(t));
    }
    return instance.steps_run;
}

void restart(EffectInstance& instance, const Rows3x4& world_from_effect) {
    instance.steps_run = 0;
    if (instance.gpu) gpu::restart(*instance.gpu);
    if (instance.cpu) cpu::restart(*instance.cpu);
    placeInstance(instance, world_from_effect);
}

Backend emitterBackend(const EffectInstance& instance, uint32_t emitter) {
    return instance.backend.emitters[emitter];
}

void emitterStatistics(const EffectInstance& instance, std::vector<EmitterStatistics>& out) {
    out.resize(instance.effect->emitters.size());
    for (uint32_t e = 0; e < out.size(); ++e) {
        out[e] = emitterBackend(instance, e) == Backend::gpu
                     ? statisticsOf(instance.gpu->stats[e])
                     : statisticsOf(instance.cpu->stats[e], instance.cpu->pools[e].count);
    }
}

uint64_t emitterLive(const EffectInstance& instance, uint32_t emitter) {
    if (emitterBackend(instance, emitter) == Backend::gpu) return instance.gpu->stats[emitter].live;
    return instance.cpu->pools[emitter].count;
}

uint64_t liveCount(const EffectInstance& instance) {
    uint64_t live = 0;
    if (instance.gpu) live += gpu::liveCount(*instance.gpu);
    if (instance.cpu) live += cpu::liveCount(*instance.cpu);
    return live;
}

const DriverStats& driverStatistics(const EffectInstance& instance) {
    return instance.gpu ? instance.gpu->driver.stats : instance.cpu->driver.stats;
}

bool finished(const EffectInstance& instance) {
    if (instance.gpu && !gpu::finished(*instance.gpu)) return false;
    if (instance.cpu && !cpu::finished(*instance.cpu)) return false;
    return true;
}

uint64_t nextStepIndex(const EffectInstance& instance) {
    return instance.gpu ? instance.gpu->driver.step_index : instance.cpu->driver.step_index;
}

double simulationTime(const EffectInstance& instance) {
    return static_cast<double>(instance.steps_run) *
           static_cast<double>(instance.effect->effect.fixed_timestep_s);
}

void setInstanceStepTiming(EffectInstance& instance, bool on) {
    if (instance.cpu) {
        instance.cpu->timing = {};
        instance.cpu->timing.on = on;
    }
    if (instance.gpu) {
        std::vector<Diagnostic> ignored; // no timestamps: the part stays untimed, StepTimes says so
        gpu::setGpuStageTiming(*instance.gpu, on, ignored);
    }
}

bool instanceStepTiming(const EffectInstance& instance) {
    return (instance.cpu && instance.cpu->timing.on) ||
           (instance.gpu && gpu::gpuStageTiming(*instance.gpu));
}

bool writeHostDrawRecords(EffectInstance& instance, std::vector<Diagnostic>& diagnostics,
                          bool read_device) {
    if (instance.failed) return false;
    if (instance.cpu && instance.records_serial != instance.state_serial) {
        const uint64_t live = cpu::liveCount(*instance.cpu);
        if (instance.cpu_records.size() < live) instance.cpu_records.resize(live);
        StageClock clock(instance.cpu->timing.on);
        cpu::writeDrawRecords(*instance.cpu, instance.cpu_records.data());
        clock.lap(instance.cpu->timing.draw_records_ns);
        for (uint32_t e = 0; e < instance.cpu_counts.size(); ++e)
            instance.cpu_counts[e] = instance.cpu->pools[e].count;
        instance.records_serial = instance.state_serial;
    }
    instance.gpu_records_read = instance.gpu && (!instance.draws_from_device || read_device);
    // Read back once per state: every view (and readParticles) of the same state reads these.
    if (instance.gpu_records_read && instance.gpu_records_serial != instance.state_serial) {
        const size_t before = diagnostics.size();
        if (!gpu::readBackDrawRecords(*instance.gpu, instance.gpu_records, instance.gpu_counts,
                                      diagnostics)) {
            markFailed(instance, diagnostics, before);
            return false;
        }
        instance.gpu_records_serial = instance.state_serial;
    }
    // Each part packs its emitters in compiled order; an emitter it does not run counts 0.
    uint32_t cpu_first = 0;
    uint32_t gpu_first = 0;
    for (uint32_t e = 0; e < instance.record_first.size(); ++e) {
        const bool on_gpu = emitterBackend(instance, e) == Backend::gpu;
        uint32_t& first = on_gpu ? gpu_first : cpu_first;
        instance.record_first[e] = first;
        if (on_gpu && !instance.gpu_records_read) continue;
        first += on_gpu ? instance.gpu_counts[e] : instance.cpu_counts[e];
    }
    return true;
}

std::span<DrawRecord> hostDrawRecords(EffectInstance& instance, uint32_t emitter) {
    if (emitterBackend(instance, emitter) != Backend::gpu) {
        return std::span<DrawRecord>(instance.cpu_records)
            .subspan(instance.record_first[emitter], instance.cpu_counts[emitter]);
    }
    if (!instance.gpu_records_read) return {};
    return std::span<DrawRecord>(instance.gpu_records)
        .subspan(instance.record_first[emitter], instance.gpu_counts[emitter]);
}

uint64_t writeRibbonStrips(EffectInstance& instance, uint32_t emitter,
                           std::vector<StripPoint>& points, std::vector<uint32_t>& segments,
                           std::vector<vec4>* velocities) {
    if (emitterBackend(instance, emitter) != Backend::gpu) {
        return cpu::writeRibbonStrips(*instance.cpu, emitter, points, segments, velocities);
    }
    // A GPU part's trails were gathered with its records (gpu/ribbon_strips.h).
    return gpu::writeRibbonStrips(*instance.gpu, emitter, hostDrawRecords(instance, emitter),
                                  points, segments, velocities);
}

uint64_t maxRibbonPoints(const EffectInstance& instance, uint32_t emitter) {
    if (emitterBackend(instance, emitter) != Backend::gpu) {
        return cpu::maxRibbonPoints(*instance.cpu, emitter);
    }
    return gpu::maxRibbonPoints(*instance.gpu, emitter);
}

bool submitDeviceDraw(EffectInstance& instance, const gpu::GpuDrawRequest& request,
                      std::vector<Diagnostic>& diagnostics) {
    if (instance.failed) return false;
    const size_t before = diagnostics.size();
    if (gpu::submitDrawOutput(*instance.gpu, request, diagnostics)) return true;
    markFailed(instance, diagnostics, before);
    return false;
}

void appendValidationMessages(const EffectInstance& instance, std::vector<std::string>& out) {
    // On a shared device the messages are the device owner's (the renderer's, the world's).
    if (!instance.gpu || instance.gpu->config.shared_device) return;
    const std::vector<std::string>& messages = gpu::validationMessages(*instance.gpu);
    out.insert(out.end(), messages.begin(), messages.end());
}

} // namespace spindrift
