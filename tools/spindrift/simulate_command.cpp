#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>

#include "commands.h"
#include "cook/effect_file.h"
#include "cpu/cpu_effect.h"
#include "cpu/draw_records.h"
#include "effect_source.h"

namespace spindrift::cli {

namespace {

void dumpCsv(const cpu::CpuEffect& fx, const std::vector<DrawRecord>& records) {
    std::printf("emitter,position_x,position_y,position_z,size,color_r,color_g,color_b,color_a,"
                "velocity_x,velocity_y,velocity_z,rotation_rad,age_normalized,flipbook_frame\n");
    (void)fx;
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

void dumpJson(const std::vector<DrawRecord>& records) {
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

} // namespace

int runSimulate(const SimulateOptions& options) {
    std::vector<Diagnostic> diagnostics;
    auto compiled = std::make_shared<CompiledEffect>();
    const bool ok = loadCompiledEffect(options.input, *compiled, diagnostics);
    printDiagnostics(diagnostics);
    if (!ok) return 1;
    if (options.seed_set) compiled->effect.seed = options.seed;

    cpu::CpuConfig config;
    config.threads = options.threads;
    std::vector<Diagnostic> limits; // the CPU backend's own limits (ribbon trail storage)
    std::unique_ptr<cpu::CpuEffect> fx = cpu::createCpuEffect(compiled, config, limits);
    if (fx == nullptr) {
        printDiagnostics(limits);
        return 1;
    }

    // Whole fixed steps up to the requested time: the state at time T is the state after
    // round(T / dt) steps, the same however a host would have paced its frames.
    const double dt = static_cast<double>(compiled->effect.fixed_timestep_s);
    const uint64_t steps = static_cast<uint64_t>(std::llround(options.time_s / dt));
    for (uint64_t i = 0; i < steps; ++i) cpu::stepOnce(*fx);

    const bool dump = options.dump == "csv" || options.dump == "json";
    FILE* report = dump ? stderr : stdout;
    std::fprintf(report, "simulated %s: %" PRIu64 " steps of %g s = %g s, %u thread%s, seed %u\n",
                 options.input.c_str(), steps, dt, static_cast<double>(steps) * dt, config.threads,
                 config.threads == 1 ? "" : "s", compiled->effect.seed);
    std::fprintf(report, "%-20s %10s %12s %12s %12s\n", "emitter", "live", "births", "deaths",
                 "overflows");
    for (uint32_t e = 0; e < fx->pools.size(); ++e) {
        const EmitterRecord& record = compiled->emitters[e];
        const cpu::EmitterStats& s = fx->stats[e];
        std::fprintf(
            report, "%-20s %10u %12" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n",
            std::string(stringAt(*compiled, record.name_offset, record.name_length)).c_str(),
            fx->pools[e].count, s.births, s.deaths, s.overflow_dropped + s.overflow_replaced);
    }
    std::fprintf(report, "finished: %s\n", cpu::finished(*fx) ? "yes" : "no");
    std::fprintf(report, "state hash: %016" PRIx64 "\n", cpu::stateHash(*fx));

    if (dump) {
        std::vector<DrawRecord> records(cpu::liveCount(*fx));
        cpu::writeDrawRecords(*fx, records.data());
        if (options.dump == "csv")
            dumpCsv(*fx, records);
        else
            dumpJson(records);
    }
    return 0;
}

} // namespace spindrift::cli
