#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

#include "authoring/enum_names.h"
#include "authoring/parameter_slots.h"
#include "commands.h"
#include "compiler/capabilities.h"
#include "compiler/parameter_bindings.h"
#include "cook/effect_file.h"
#include "effect_source.h"

namespace spindrift::cli {

namespace {

// The JSON word for each op code (docs/compiled-records.md), in kOp* order.
const char* opName(uint32_t op) {
    static const char* const kNames[] = {
        "acceleration",   "buoyancy",           "drag",
        "wind",           "speed_limit",        "curl_noise",
        "force_fields",   "attractor",          "color_over_life",
        "size_over_life", "rotation_over_life", "color_by_speed",
        "size_by_speed",  "collision",          "blackbody",
    };
    static_assert(sizeof(kNames) / sizeof(kNames[0]) == kOpCount);
    return op < kOpCount ? kNames[op] : "?";
}

// Record enums are numbered as the authoring enums (effect_records.h), so the authoring names
// serve both; a loaded file has had every enum range-checked already.
template <typename E> const char* nameOf(uint32_t value) {
    return enumName(static_cast<E>(value));
}

std::string rangeText(float min, float max, const char* unit) {
    char text[96];
    if (min == max) {
        std::snprintf(text, sizeof(text), "%g%s", static_cast<double>(min), unit);
    } else {
        std::snprintf(text, sizeof(text), "%g..%g%s", static_cast<double>(min),
                      static_cast<double>(max), unit);
    }
    return text;
}

std::string str(const CompiledEffect& effect, uint32_t offset, uint32_t length) {
    return std::string(stringAt(effect, offset, length));
}

void printOps(const CompiledEffect& effect, const EmitterRecord& emitter) {
    std::printf("    update ops: %u", emitter.op_count);
    if (emitter.op_count == 0) std::printf(" (none)");
    std::printf("\n");
    for (uint32_t i = 0; i < emitter.op_count; ++i) {
        const OpRecord& op = effect.ops[emitter.op_first + i];
        std::printf("      %u. %s", i + 1, opName(op.op));
        if (op.source_count > 1) {
            std::printf(" (fused from %u modules, first update[%u])", op.source_count,
                        op.source_module);
        } else {
            std::printf(" (update[%u])", op.source_module);
        }
        if (op.lut_row != kNone) std::printf(", LUT row %u", op.lut_row);
        if (op.op == kOpForceFields && (op.flags & kOpFlagWorldAttractors) != 0) {
            std::printf(", the host's attractors (groups 0x%06x, strength x %g)",
                        static_cast<uint32_t>(op.params0.x), static_cast<double>(op.params0.y));
        } else if (op.op == kOpForceFields) {
            std::printf(", %u field%s", op.count, op.count == 1 ? "" : "s");
        }
        if (op.op == kOpCollision) {
            std::printf(", %u collider%s, %s%s", op.count, op.count == 1 ? "" : "s",
                        nameOf<CollisionResponse>(op.mode),
                        (op.flags & kOpFlagDepthBuffer) != 0 ? ", depth buffer" : "");
            if ((op.flags & (kOpFlagWorldColliders | kOpFlagDepthBuffer)) != 0) {
                std::printf(", the host's colliders (groups 0x%06x)",
                            static_cast<uint32_t>(op.params1.x));
            }
        }
        if (op.op == kOpCurlNoise) std::printf(", %u octave%s", op.mode, op.mode == 1 ? "" : "s");
        std::printf("\n");
    }
}

void printRender(const CompiledEffect& effect, const EmitterRecord& e) {
    std::printf("    render: %s, blend %s, sort %s", nameOf<RenderType>(e.render_type),
                nameOf<BlendMode>(e.blend), nameOf<SortMode>(e.sort));
    if (e.render_type == kRenderBillboard) {
        std::printf(", alignment %s", nameOf<Alignment>(e.alignment));
        if (e.flipbook_columns * e.flipbook_rows > 1) {
            std::printf(", flipbook %ux%u (%u frames)", e.flipbook_columns, e.flipbook_rows,
                        e.flipbook_frames);
        }
    }
    if (e.render_type == kRenderRibbon) std::printf(", up to %u points", e.ribbon_max_points);
    if (e.render_type == kRenderBeam) std::printf(", %u segments", e.beam_segments);
    if (e.render_type == kRenderMesh)
        std::printf(", mesh %s", str(effect, e.mesh_offset, e.mesh_length).c_str());
    const std::string texture = str(effect, e.texture_offset, e.texture_length);
    std::printf(", texture %s", texture.empty() ? "(soft disc)" : texture.c_str());
    if ((e.render_flags & kRenderFlagLit) != 0) std::printf(", lit");
    if ((e.render_flags & kRenderFlagStableOrder) != 0) std::printf(", stable order");
    if (e.soft_fade_distance > 0)
        std::printf(", soft fade %g m", static_cast<double>(e.soft_fade_distance));
    std::printf("\n");
}

// "x" / "(x, y, z)" / "(r, g, b, a)": the components of a parameter value its type holds.
std::string parameterValueText(const vec4& v, uint32_t type) {
    char text[128];
    if (type == static_cast<uint32_t>(ParameterType::float_)) {
        std::snprintf(text, sizeof text, "%g", static_cast<double>(v.x));
    } else if (type == static_cast<uint32_t>(ParameterType::float3)) {
        std::snprintf(text, sizeof text, "(%g, %g, %g)", static_cast<double>(v.x),
                      static_cast<double>(v.y), static_cast<double>(v.z));
    } else {
        std::snprintf(text, sizeof text, "(%g, %g, %g, %g)", static_cast<double>(v.x),
                      static_cast<double>(v.y), static_cast<double>(v.z), static_cast<double>(v.w));
    }
    return text;
}

// The user parameters a host may set (World::setParameter) and how many record words each one
// writes when set.
void printParameters(const CompiledEffect& effect) {
    if (effect.parameters.empty()) return;
    std::printf("parameters: %zu (%zu bound record words)\n", effect.parameters.size(),
                effect.parameter_bindings.size());
    for (uint32_t p = 0; p < effect.parameters.size(); ++p) {
        const ParameterRecord& r = effect.parameters[p];
        uint32_t words = 0;
        for (const ParameterBindingRecord& b : effect.parameter_bindings) words += b.parameter == p;
        const char* type = parameter_slots::typeName(static_cast<ParameterType>(r.type));
        std::printf("  %s: %s, default %s, range %s .. %s, %u record word%s\n",
                    str(effect, r.name_offset, r.name_length).c_str(), type,
                    parameterValueText(r.default_value, r.type).c_str(),
                    parameterValueText(r.min, r.type).c_str(),
                    parameterValueText(r.max, r.type).c_str(), words, words == 1 ? "" : "s");
    }
}

void printEmitter(const CompiledEffect& effect, uint32_t index, const EmitterBackends& backends) {
    const EmitterRecord& e = effect.emitters[index];
    std::printf("  [%u] %s\n", index, str(effect, e.name_offset, e.name_length).c_str());
    std::printf("    capacity %u, overflow %s, backend preference %s\n", e.capacity,
                nameOf<OverflowPolicy>(e.overflow), nameOf<BackendPreference>(e.backend));
    if (!effect.scalability.empty()) {
        const ScalabilityRecord& sc = effect.scalability[0];
        const uint32_t bits = index < 32 ? sc.cosmetic_lo : sc.cosmetic_hi;
        if (((bits >> (index % 32)) & 1u) != 0)
            std::printf("    cosmetic: does not spawn at the low quality tier\n");
    }
    std::printf("    spawn: %g/s, %g/m, delay %g s, %u burst%s\n",
                static_cast<double>(e.rate_per_s), static_cast<double>(e.rate_per_m),
                static_cast<double>(e.delay_s), e.burst_count, e.burst_count == 1 ? "" : "s");
    std::printf("    shape: %s (%s)", nameOf<ShapeKind>(e.shape_kind),
                nameOf<EmitFrom>(e.emit_from));
    if (e.shape_kind == kShapeMesh) std::printf(", %u points", e.mesh_point_count);
    std::printf("\n    init: lifetime %s, size %s, speed %s, colour %s\n",
                rangeText(e.lifetime_min_s, e.lifetime_max_s, " s").c_str(),
                rangeText(e.size_min, e.size_max, " m").c_str(),
                rangeText(e.speed_min, e.speed_max, " m/s").c_str(),
                nameOf<ColorMode>(e.color_mode));
    printOps(effect, e);
    printRender(effect, e);
    for (uint32_t i = 0; i < e.sub_emitter_count; ++i) {
        const SubEmitterRecord& s = effect.sub_emitters[e.sub_emitter_first + i];
        const EmitterRecord& child = effect.emitters[s.emitter];
        std::printf("    sub-emitter: on %s -> [%u] %s, probability %g, count %s\n",
                    nameOf<SubEmitterEvent>(s.event), s.emitter,
                    str(effect, child.name_offset, child.name_length).c_str(),
                    static_cast<double>(s.probability),
                    rangeText(static_cast<float>(s.count_min), static_cast<float>(s.count_max), "")
                        .c_str());
    }
    std::printf("    backends:");
    for (const BackendVerdict& verdict : backends.backends) {
        std::printf(" %s %s", std::string(backendName(verdict.backend)).c_str(),
                    verdict.can_run ? "yes" : "no");
        if (&verdict != &backends.backends.back()) std::printf(",");
    }
    std::printf("\n");
    for (const BackendVerdict& verdict : backends.backends) {
        for (const std::string& reason : verdict.reasons) std::printf("      %s\n", reason.c_str());
        for (const std::string& note : verdict.notes) std::printf("      %s\n", note.c_str());
    }
}

} // namespace

int runInspect(const std::string& input) {
    std::vector<Diagnostic> diagnostics;
    CompiledEffect effect;
    const bool ok = loadCompiledEffect(input, effect, diagnostics);
    printDiagnostics(diagnostics);
    if (!ok) return 1;

    const EffectRecord& fx = effect.effect;
    uint64_t capacity_sum = 0;
    for (const EmitterRecord& e : effect.emitters) capacity_sum += e.capacity;
    const uint32_t lut_rows = effect.lutRowCount();

    std::printf("effect: %s (%s)\n", str(effect, fx.name_offset, fx.name_length).c_str(),
                input.c_str());
    std::printf("  structural hash: %016" PRIx64 "\n", effect.structural_hash);
    std::printf("  seed %u, duration %g s, %s, space %s, fixed timestep %g s (%.4g Hz)\n", fx.seed,
                static_cast<double>(fx.duration_s),
                (fx.flags & kEffectFlagLooping) != 0 ? "looping" : "one-shot",
                nameOf<SimulationSpace>(fx.space), static_cast<double>(fx.fixed_timestep_s),
                1.0 / static_cast<double>(fx.fixed_timestep_s));
    std::printf("  bounds: centre (%g, %g, %g), half extents (%g, %g, %g)\n",
                static_cast<double>(fx.bounds_center.x), static_cast<double>(fx.bounds_center.y),
                static_cast<double>(fx.bounds_center.z),
                static_cast<double>(fx.bounds_half_extents.x),
                static_cast<double>(fx.bounds_half_extents.y),
                static_cast<double>(fx.bounds_half_extents.z));
    std::printf("  capacity: %" PRIu64 " in emitters of %u for the effect\n", capacity_sum,
                fx.capacity);
    if (!effect.scalability.empty()) {
        const ScalabilityRecord& sc = effect.scalability[0];
        if (sc.sleep_distance_m > 0) {
            std::printf(
                "  scalability: sleeps past %g m from the camera (births fade over the last "
                "%g m)",
                static_cast<double>(sc.sleep_distance_m), static_cast<double>(sc.fade_band_m));
        } else {
            std::printf("  scalability: never sleeps by distance");
        }
        std::printf(", wakes by %s, when culled %s\n",
                    (sc.flags & kScalabilityWakeRestart) != 0 ? "restarting" : "fast-forwarding",
                    (sc.flags & kScalabilityCulledSleeps) != 0 ? "sleeps" : "keeps simulating");
        if ((sc.flags & kScalabilityWakeRestart) == 0) {
            std::printf("    fast-forward at most %g s (a longer sleep restarts)\n",
                        static_cast<double>(sc.max_fast_forward_s));
        }
    }
    std::printf("  LUT: %u row%s x %u texels = %zu bytes\n", lut_rows, lut_rows == 1 ? "" : "s",
                kLutWidth, effect.lut.size() * sizeof(vec4));
    std::printf("  records: %zu ops, %zu bursts, %zu colliders, %zu force fields, %zu mesh points, "
                "%zu sub-emitter links, %zu string bytes\n",
                effect.ops.size(), effect.bursts.size(), effect.colliders.size(),
                effect.force_fields.size(), effect.mesh_points.size(), effect.sub_emitters.size(),
                effect.strings.size());

    printParameters(effect);
    const std::vector<EmitterBackends> backends = checkBackends(effect);
    std::printf("emitters: %zu\n", effect.emitters.size());
    for (uint32_t i = 0; i < effect.emitters.size(); ++i) printEmitter(effect, i, backends[i]);
    return 0;
}

} // namespace spindrift::cli
