#include "gpu/gpu_effect.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string_view>

#include "compiler/capabilities.h"
#include "driver/stage_clock.h"
#include "gpu/alive_list_order.h"
#include "gpu/gpu_buffers.h"
#include "gpu/gpu_stage_timing.h"
#include "gpu/gpu_timing.h"
#include "gpu/ordered_list.h"
#include "gpu/ribbon_strips.h"
#include "gpu/sub_emitters.h"
#include "vulkan/vk_error.h"

namespace spindrift::gpu {

namespace {

const std::vector<std::string> kNoMessages;

GpuPushConstants pushFor(const GpuEffect& fx, uint32_t slot, uint32_t emitter, uint32_t count,
                         uint32_t mode) {
    GpuPushConstants push{};
    const VkDeviceAddress tables = fx.buffers.tables_address;
    const VkDeviceAddress header = stepSlotAddress(fx.buffers, slot);
    push.addresses = uvec4(static_cast<uint32_t>(tables), static_cast<uint32_t>(tables >> 32),
                           static_cast<uint32_t>(header), static_cast<uint32_t>(header >> 32));
    push.params = uvec4(emitter, fx.list_in, count, mode);
    return push;
}

// How far each emitter's origin moved this step, for rate_per_m (as the CPU backend measures
// it: in world space).
void measureTravel(GpuEffect& fx) {
    const CompiledEffect& effect = *fx.effect;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const vec3 a = transformPoint(
            simFromEmitter(fx.step_start, effect.emitters[e], kSpaceWorld), vec3(0.0f));
        const vec3 b = transformPoint(simFromEmitter(fx.step_end, effect.emitters[e], kSpaceWorld),
                                      vec3(0.0f));
        fx.travel_m[e] = length(b - a);
    }
}

// Plans one step on the CPU and records its passes into cmd, uniforms in step slot `slot`.
void recordStep(GpuEffect& fx, VkCommandBuffer cmd, uint32_t slot) {
    const CompiledEffect& effect = *fx.effect;
    const auto emitters = static_cast<uint32_t>(effect.emitters.size());
    // The host's share of the step, when a host times its stages (gpu_stage_timing.h).
    StageClock clock(fx.stage_timing != nullptr);
    uint64_t plan_ns = 0;
    measureTravel(fx);
    planStep(fx.driver, effect, fx.config.driver, fx.travel_m, fx.plan);
    resolveStep(effect, fx.step_start, fx.step_end, fx.plan.time_s, fx.scratch, fx.world);

    uint64_t work = 0;
    for (uint32_t e = 0; e < emitters; ++e) {
        beginLiveWindowStep(fx.live_windows[e]);
        work += liveBound(fx.live_windows[e]) + fx.plan.emitters[e].count;
    }
    boundStepEvents(fx);
    // Nothing alive and nothing born: an idle effect dispatches nothing (the lists stay as they
    // are; the one read next holds no particle).
    if (work == 0) {
        for (uint32_t e = 0; e < emitters; ++e) addLiveWindowBirths(fx.live_windows[e], 0);
        clock.lap(plan_ns);
        addStagePlan(fx, plan_ns, false);
        return;
    }
    writeStepSlot(fx, slot, fx.step_end);
    clock.lap(plan_ns);
    addStagePlan(fx, plan_ns, true);
    const GpuContext& gpu = *fx.gpu;
    dispatchPass(gpu, cmd, Pass::counters, pushFor(fx, slot, 0, emitters, kGpuCountersBegin),
                 emitters);
    computeBarrier(cmd);
    fx.dispatches_last_frame += 1;
    stampUpdateBegin(fx.step_timer, cmd);
    for (uint32_t e = 0; e < emitters; ++e) {
        const uint32_t bound = liveBound(fx.live_windows[e]);
        if (bound == 0) continue;
        dispatchUpdate(gpu, cmd, pushFor(fx, slot, e, bound, 0), bound, updatesLight(*fx.effect, e),
                       updateWorkgroupCap(fx.config.update_max_workgroups, bound));
        fx.dispatches_last_frame += 1;
    }
    computeBarrier(cmd);
    // The birth-order emitters' compaction, timed with the update: it is theirs.
    const uint32_t ordered = recordOrderedCompaction(fx, cmd, pushFor(fx, slot, 0, 0, 0));
    if (ordered != 0) computeBarrier(cmd);
    fx.dispatches_last_frame += ordered;
    stampUpdateEnd(fx.step_timer, cmd);
    // Death and collision events, before the planned births reuse dead slots (sub_emitters.h).
    const uint32_t gathered = recordEventGather(fx, cmd, pushFor(fx, slot, 0, 0, 0));
    if (gathered != 0) computeBarrier(cmd);
    fx.dispatches_last_frame += gathered;
    for (uint32_t e = 0; e < emitters; ++e) {
        const uint32_t births = fx.plan.emitters[e].count;
        if (births == 0) continue;
        dispatchPass(gpu, cmd, Pass::spawn, pushFor(fx, slot, e, births, 0), births);
        fx.dispatches_last_frame += 1;
    }
    computeBarrier(cmd);
    dispatchPass(gpu, cmd, Pass::counters, pushFor(fx, slot, 0, emitters, kGpuCountersFinish),
                 emitters);
    computeBarrier(cmd);
    fx.dispatches_last_frame += 1;
    const uint32_t event_passes = recordEventBirths(fx, cmd, pushFor(fx, slot, 0, 0, 0));
    if (event_passes != 0) computeBarrier(cmd);
    fx.dispatches_last_frame += event_passes;
    for (uint32_t e = 0; e < emitters; ++e) {
        addLiveWindowBirths(fx.live_windows[e], fx.plan.emitters[e].count + eventBirthBound(fx, e));
    }
    fx.list_in ^= 1u;
    stampOrderBegin(fx.step_timer, cmd);
    fx.dispatches_last_frame += recordAliveListSorts(fx, cmd, pushFor(fx, slot, 0, 0, 0));
    stampOrderEnd(fx.step_timer, cmd);
}

// Copies the counters into the ring entry's host-visible copy.
void copyCounters(const GpuEffect& fx, VkCommandBuffer cmd, uint32_t entry) {
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    const VkDeviceSize bytes = fx.buffers.counters.size;
    VkBufferCopy region{0, bytes * entry, bytes};
    vkCmdCopyBuffer(cmd, fx.buffers.counters.get(), fx.buffers.counters_readback.get(), 1, &region);
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

uint64_t join(uint32_t lo, uint32_t hi) {
    return (uint64_t{hi} << 32) | lo;
}

// Takes the statistics from the entry's finished submission when it is newer than what
// fx.stats hold.
void takeStatistics(GpuEffect& fx, uint32_t entry) {
    takeGameplayEntry(fx, entry); // its events to gameplay, once (gameplay_capture.h)
    takeStageEntry(fx, entry);    // its stage times, once (gpu_stage_timing.h)
    const GpuSubmission& sub = fx.submissions[entry];
    if (sub.sequence <= fx.stats_sequence) return;
    fx.stats_sequence = sub.sequence;
    const auto* copy = static_cast<const unsigned char*>(fx.buffers.counters_readback.mapped) +
                       fx.buffers.counters.size * entry;
    const auto* counters = reinterpret_cast<const GpuEmitterCounters*>(copy);
    for (size_t e = 0; e < fx.stats.size(); ++e) {
        const GpuEmitterCounters& c = counters[e];
        GpuEmitterStats& s = fx.stats[e];
        s.live = sub.list_in == 0 ? c.alive0 : c.alive1;
        s.births = join(c.births_lo, c.births_hi);
        s.deaths = join(c.deaths_lo, c.deaths_hi);
        s.overflow_dropped = join(c.overflow_dropped_lo, c.overflow_dropped_hi);
        s.contacts = join(c.contacts_lo, c.contacts_hi);
        s.overflow_replaced = join(c.overflow_replaced_lo, c.overflow_replaced_hi);
    }
    takeEventStatistics(*fx.effect, copy, fx.stats);
}

// The first of a submission's step slots (each ring entry has its own set).
uint32_t slotBase(const GpuEffect& fx) {
    return fx.gpu->runner->current() * fx.buffers.step_slots;
}

// The draw pass's slot of the current submission.
uint32_t drawSlot(const GpuEffect& fx) {
    return slotBase(fx) + fx.buffers.step_slots - 1;
}

// Begins a submission on the next entry of the command ring. The host is about to overwrite
// that entry's step slots and counter copy, so its previous submission is waited for (when
// still running) and its statistics taken first. A leading barrier orders this submission's
// work after everything earlier on the queue: earlier steps, and the renderer reading the draw
// records this submission rewrites.
VkCommandBuffer beginSubmission(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    vk::CommandRunner& runner = *fx.gpu->runner;
    const uint32_t entry = runner.next();
    if (!runner.wait(entry, diagnostics)) return VK_NULL_HANDLE;
    takeStatistics(fx, entry);
    VkCommandBuffer cmd = runner.begin(diagnostics);
    if (cmd == VK_NULL_HANDLE) return cmd;
    beginStageEntry(fx, entry);
    vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                          VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    return cmd;
}

// Takes the statistics (and events) of every submission that has finished, waiting for none.
// The older entry first, so the newest finished one ends in fx.stats.
bool takeFinished(GpuEffect& fx, std::vector<Diagnostic>& diagnostics) {
    vk::CommandRunner& runner = *fx.gpu->runner;
    const uint32_t newest = runner.current();
    for (uint32_t k = 1; k <= runner.entries(); ++k) {
        const uint32_t e = (newest + k) % runner.entries();
        if (fx.submissions[e].sequence == 0) continue;
        if (runner.pending(e) && !runner.poll(e, diagnostics)) {
            if (!diagnostics.empty() && diagnostics.back().severity == Severity::error) {
                return false;
            }
            continue;
        }
        takeStatistics(fx, e);
    }
    return true;
}

// Copies the counters, submits, and either waits and takes the statistics (wait) or takes those
// of any submission that has finished meanwhile.
bool endSubmission(GpuEffect& fx, VkCommandBuffer cmd, std::string_view what, bool wait,
                   std::vector<Diagnostic>& diagnostics) {
    vk::CommandRunner& runner = *fx.gpu->runner;
    const uint32_t entry = runner.current();
    copyCounters(fx, cmd, entry);
    copyGameplayEvents(fx, cmd, entry);
    fx.submissions[entry] = {++fx.last_sequence, fx.list_in};
    if (!runner.submit(what, diagnostics)) return false;
    // A pass that could not be compiled was left out of this submission: the instance fails
    // rather than run on without it.
    if (!fx.gpu->dispatch_errors.empty()) {
        diagnostics.insert(diagnostics.end(), fx.gpu->dispatch_errors.begin(),
                           fx.gpu->dispatch_errors.end());
        fx.gpu->dispatch_errors.clear();
        return false;
    }
    submittedStageEntry(fx, entry);
    if (wait) {
        if (!runner.wait(entry, diagnostics)) return false;
        takeStatistics(fx, entry);
        return true;
    }
    return takeFinished(fx, diagnostics);
}

} // namespace

bool runAndWait(GpuEffect& fx, std::string_view what,
                const std::function<void(VkCommandBuffer)>& record,
                std::vector<Diagnostic>& diagnostics) {
    VkCommandBuffer cmd = beginSubmission(fx, diagnostics);
    if (cmd == VK_NULL_HANDLE) return false;
    record(cmd);
    return endSubmission(fx, cmd, what, true, diagnostics);
}

namespace {

// Empties every emitter's region; fill_counters also zeroes the statistics (creation).
bool resetPool(GpuEffect& fx, bool fill_counters, std::vector<Diagnostic>& diagnostics) {
    fx.list_in = 0;
    return runAndWait(
        fx, "GPU pool reset",
        [&](VkCommandBuffer cmd) {
            const uint32_t slot = drawSlot(fx);
            writeStepSlot(fx, slot, fx.world_from_effect);
            if (fill_counters) {
                vkCmdFillBuffer(cmd, fx.buffers.counters.get(), 0, VK_WHOLE_SIZE, 0);
                // The gameplay capture starts empty (gameplay_capture.h).
                if (fx.buffers.gameplay) {
                    vkCmdFillBuffer(cmd, fx.buffers.gameplay.get(), 0, sizeof(GpuGameplayHeader),
                                    0);
                }
                vk::memoryBarrier(
                    cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                        VK_ACCESS_2_TRANSFER_READ_BIT);
            }
            for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
                const uint32_t capacity = fx.layout.regions[e].capacity;
                dispatchPass(*fx.gpu, cmd, Pass::pool_reset, pushFor(fx, slot, e, capacity, 0),
                             capacity);
            }
        },
        diagnostics);
}

// The passes every step of this effect records whatever happens: the pool reset (creation,
// restarts), the counters, births, draw records and the update variants its emitters use.
std::vector<Pass> passesEveryStepRecords(const CompiledEffect& effect) {
    std::vector<Pass> passes = {Pass::pool_reset, Pass::counters, Pass::spawn, Pass::draw_records};
    bool light = false;
    bool heavy = false;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        if (effect.emitters[e].capacity == 0) continue;
        if (updatesLight(effect, e)) {
            light = true;
        } else {
            heavy = true;
        }
    }
    if (light) passes.push_back(Pass::update_light);
    if (heavy) passes.push_back(Pass::update);
    return passes;
}

std::string emitterName(const CompiledEffect& effect, uint32_t e) {
    const EmitterRecord& r = effect.emitters[e];
    return std::string(stringAt(effect, r.name_offset, r.name_length));
}

} // namespace

bool checkGpuSupport(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics) {
    bool ok = true;
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        // An emitter switched off (capacity 0: runOnly, runtime/backend_choice.h) runs nothing.
        if (effect.emitters[e].capacity == 0) continue;
        for (const FeatureUse& use : emitterFeatureUses(effect, e)) {
            if ((kGpuFeatures & static_cast<FeatureSet>(use.feature)) != 0) continue;
            diagnostics.push_back({Severity::error, "", 0, 0, 0, use.path,
                                   "emitter '" + emitterName(effect, e) + "' uses " +
                                       std::string(featureName(use.feature)) +
                                       ": not supported by the GPU backend yet"});
            ok = false;
        }
    }
    return checkSubEmitterSupport(effect, diagnostics) && ok;
}

GpuEffect::~GpuEffect() {
    if (gpu == nullptr || gpu->runner == nullptr) return;
    // A failure here (device lost, timeout) leaves nothing better to do than go on destroying.
    std::vector<Diagnostic> ignored;
    (void)gpu->runner->waitAll(ignored);
}

std::unique_ptr<GpuEffect> createGpuEffect(std::shared_ptr<const CompiledEffect> effect,
                                           const GpuConfig& config,
                                           std::vector<Diagnostic>& diagnostics) {
    if (!checkGpuSupport(*effect, diagnostics)) return nullptr;
    auto fx = std::make_unique<GpuEffect>();
    fx->effect = std::move(effect);
    fx->config = config;
    const CompiledEffect& compiled = *fx->effect;
    fx->driver = makeDriverState(compiled);
    fx->stats.resize(compiled.emitters.size());
    fx->travel_m.resize(compiled.emitters.size());
    fx->event_births.resize(compiled.emitters.size());
    allocateStepScratch(compiled, fx->scratch);
    fx->scratch.device_addresses = true; // a scene depth is read on the device
    for (const EmitterRecord& e : compiled.emitters) {
        fx->live_windows.push_back(makeLiveWindow(e, compiled.effect.fixed_timestep_s));
    }
    fx->gpu = createGpuContext(config.shared_device, config.device, config.validation, diagnostics,
                               {config.force_portable_append, config.force_portable_strips});
    if (!fx->gpu) return nullptr;
    if (!preparePasses(*fx->gpu, passesEveryStepRecords(compiled), diagnostics)) return nullptr;
    const PoolLimits limits =
        devicePoolLimits(*fx->gpu->device, config.max_buffer_bytes, config.max_pool_bytes);
    if (!layoutPool(compiled, limits, config.relocate_birth_order, fx->layout, diagnostics)) {
        return nullptr;
    }
    if (!layoutTrails(compiled, limits, fx->layout.total_bytes, config.device_strips,
                      fx->trail_layout, diagnostics)) {
        return nullptr;
    }
    fx->submissions.resize(fx->gpu->runner->entries());
    fx->sorting.order.resize(compiled.emitters.size());
    if (!createGpuBuffers(*fx, diagnostics)) return nullptr;
    if (!prepareAliveListSort(*fx, diagnostics)) return nullptr;
    if (!resetPool(*fx, true, diagnostics)) return nullptr;
    return fx;
}

void setTransform(GpuEffect& fx, const Rows3x4& world_from_effect) {
    fx.next_world_from_effect = world_from_effect;
}

FrameReport advanceFrame(GpuEffect& fx, double frame_dt_s) {
    FrameReport report;
    if (!fx.errors.empty()) return report;
    const uint32_t steps = beginFrame(fx.driver, *fx.effect, frame_dt_s, fx.config.driver, report);
    const Rows3x4 from = fx.world_from_effect;
    const Rows3x4 to = fx.next_world_from_effect;
    fx.dispatches_last_frame = 0;
    // The latency of events to gameplay is counted in host frames (gameplay_capture.h).
    if (!fx.gameplay.host_clock) fx.gameplay.frames += 1;
    // One submission holds as many steps as there are step slots (less the draw pass's).
    const uint32_t per_submission = fx.buffers.step_slots - 1;
    const uint32_t submissions = (steps + per_submission - 1) / per_submission;
    for (uint32_t s = 0; s < submissions; ++s) {
        const uint32_t first = s * per_submission;
        const uint32_t last = std::min(steps, first + per_submission);
        VkCommandBuffer cmd = beginSubmission(fx, fx.errors);
        if (cmd == VK_NULL_HANDLE) return report;
        const uint32_t base = slotBase(fx);
        for (uint32_t i = first; i < last; ++i) {
            fx.step_start =
                blendTransforms(from, to, static_cast<float>(i) / static_cast<float>(steps));
            fx.step_end =
                blendTransforms(from, to, static_cast<float>(i + 1) / static_cast<float>(steps));
            recordStep(fx, cmd, base + i - first);
        }
        if (!endSubmission(fx, cmd, "GPU simulation steps", !fx.config.async_statistics,
                           fx.errors)) {
            return report;
        }
    }
    fx.world_from_effect = to;
    fx.step_start = to;
    fx.step_end = to;
    updateFinished(fx.driver, *fx.effect, liveCount(fx));
    return report;
}

void restart(GpuEffect& fx) {
    restartDriver(fx.driver);
    for (LiveWindow& w : fx.live_windows) clearLiveWindow(w);
    if (fx.errors.empty()) resetPool(fx, false, fx.errors);
    discardGameplayEvents(fx); // those of the steps before the restart are not delivered
}

bool submitDrawOutput(GpuEffect& fx, const GpuDrawRequest& request,
                      std::vector<Diagnostic>& diagnostics) {
    if (!fx.errors.empty()) {
        diagnostics.insert(diagnostics.end(), fx.errors.begin(), fx.errors.end());
        return false;
    }
    std::vector<Diagnostic> failure;
    if (checkBeamFrames(fx, request.beams, failure) && prepareDrawSorting(fx, request, failure)) {
        fx.draw = request;
        VkCommandBuffer cmd = beginSubmission(fx, failure);
        if (cmd != VK_NULL_HANDLE) {
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::draw_begin);
            recordDrawRecordsPass(fx, cmd);
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::draw_end);
            recordDrawSorts(fx, cmd, failure);
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::strips_begin);
            // Ribbon and beam strips from the records (device_strips; ribbon_strips.h).
            fx.dispatches_last_frame +=
                recordDeviceStrips(fx, cmd, pushFor(fx, drawSlot(fx), 0, 0, 0));
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::strips_end);
            if (endSubmission(fx, cmd, "GPU draw records", !fx.config.async_statistics, failure) &&
                failure.empty()) {
                return true;
            }
        }
    }
    // A failure here stops the instance, as one while stepping does.
    fx.errors.insert(fx.errors.end(), failure.begin(), failure.end());
    diagnostics.insert(diagnostics.end(), failure.begin(), failure.end());
    return false;
}

bool waitForStatistics(GpuEffect& fx) {
    if (!fx.errors.empty()) return false;
    vk::CommandRunner& runner = *fx.gpu->runner;
    // The older entry first, so the newest ends in fx.stats.
    for (uint32_t k = 1; k <= runner.entries(); ++k) {
        const uint32_t e = (runner.current() + k) % runner.entries();
        if (!runner.wait(e, fx.errors)) return false;
        takeStatistics(fx, e);
    }
    return true;
}

bool pollStatistics(GpuEffect& fx) {
    if (!fx.errors.empty()) return false;
    return takeFinished(fx, fx.errors);
}

uint64_t liveCount(const GpuEffect& fx) {
    uint64_t live = 0;
    for (const GpuEmitterStats& s : fx.stats) live += s.live;
    return live;
}

bool finished(const GpuEffect& fx) {
    return fx.driver.finished != 0;
}

double simulationTime(const GpuEffect& fx) {
    return stepTime(fx.driver, *fx.effect);
}

uint32_t liveBoundOf(const GpuEffect& fx, uint32_t emitter) {
    return emitter < fx.live_windows.size() ? liveBound(fx.live_windows[emitter]) : 0;
}

bool readBackDrawRecords(GpuEffect& fx, std::span<DrawRecord> out,
                         std::span<uint32_t> emitter_counts, std::vector<Diagnostic>& diagnostics) {
    if (!fx.errors.empty()) {
        diagnostics.insert(diagnostics.end(), fx.errors.begin(), fx.errors.end());
        return false;
    }
    GpuBuffers& b = fx.buffers;
    const uint64_t room = fx.layout.draw_records;
    if (out.size() < room || emitter_counts.size() < fx.layout.regions.size()) {
        diagnostics.push_back({Severity::error, "", 0, 0, 0, "",
                               "readBackDrawRecords: room for " + std::to_string(out.size()) +
                                   " records and " + std::to_string(emitter_counts.size()) +
                                   " counts, the effect needs " + std::to_string(room) + " and " +
                                   std::to_string(fx.layout.regions.size())});
        return false;
    }
    if (b.draw_readback.empty()) {
        for (const vk::Buffer& chunk : b.draw_record_chunks) {
            b.draw_readback.push_back(vk::createBuffer(
                *fx.gpu->device, chunk.size, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                vk::MemoryUse::readback, "GPU draw records readback", diagnostics));
            if (!b.draw_readback.back()) {
                b.draw_readback.clear();
                return false;
            }
        }
    }
    const bool ok = runAndWait(
        fx, "GPU draw records",
        [&](VkCommandBuffer cmd) {
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::draw_begin);
            recordDrawRecordsPass(fx, cmd);
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::draw_end);
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::strips_begin);
            // Ribbon emitters' trails, gathered in draw-record order (ribbon_strips.h).
            recordTrailGather(fx, cmd, pushFor(fx, drawSlot(fx), 0, 0, 0));
            stampOutput(fx.step_timer, cmd, GpuOutputStamp::strips_end);
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                              VK_ACCESS_2_TRANSFER_READ_BIT);
            for (size_t c = 0; c < b.draw_record_chunks.size(); ++c) {
                VkBufferCopy region{0, 0, b.draw_record_chunks[c].size};
                vkCmdCopyBuffer(cmd, b.draw_record_chunks[c].get(), b.draw_readback[c].get(), 1,
                                &region);
            }
            vk::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        },
        diagnostics);
    if (!ok) return false;
    size_t packed = 0;
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        const uint64_t live = std::min<uint64_t>(fx.stats[e].live, liveBound(fx.live_windows[e]));
        for (uint32_t done = 0; done < live;) {
            const DrawRecordRange range = drawRecordRangeAt(fx.layout, e, done);
            const auto* chunk = static_cast<const DrawRecord*>(b.draw_readback[range.chunk].mapped);
            const uint32_t n = std::min<uint32_t>(range.count, static_cast<uint32_t>(live) - done);
            std::copy(chunk + range.first_in_chunk, chunk + range.first_in_chunk + n,
                      out.begin() + static_cast<ptrdiff_t>(packed));
            packed += n;
            done += n;
        }
        emitter_counts[e] = static_cast<uint32_t>(live);
    }
    return true;
}

bool readBackDrawRecordsForTest(GpuEffect& fx, std::vector<DrawRecord>& out,
                                std::vector<Diagnostic>& diagnostics) {
    out.resize(fx.layout.draw_records);
    std::vector<uint32_t> counts(fx.layout.regions.size());
    const bool ok = readBackDrawRecords(fx, out, counts, diagnostics);
    size_t total = 0;
    for (const uint32_t c : counts) total += c;
    out.resize(ok ? total : 0);
    return ok;
}

void recordDrawRecordsPass(GpuEffect& fx, VkCommandBuffer cmd) {
    const uint32_t slot = drawSlot(fx);
    writeStepSlot(fx, slot, fx.world_from_effect);
    for (uint32_t e = 0; e < fx.layout.regions.size(); ++e) {
        const uint32_t bound = liveBound(fx.live_windows[e]);
        dispatchPass(*fx.gpu, cmd, Pass::draw_records, pushFor(fx, slot, e, bound, 0), bound);
    }
}

const std::vector<std::string>& validationMessages(const GpuEffect& fx) {
    return fx.gpu && fx.gpu->vulkan ? fx.gpu->vulkan->instance->messages().messages() : kNoMessages;
}

} // namespace spindrift::gpu
