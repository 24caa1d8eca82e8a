#include "editor/document_check.h"

#include "compiler/capabilities.h"
#include "compiler/compile_effect.h"
#include "compiler/compiled_effect.h"
#include "spindrift/effect_json.h"

namespace spindrift::editor {

namespace {

// A warning for each feature an emitter uses that one backend lacks, at the feature's path: the
// page shows it on the control that asked for it.
void appendCapabilityWarnings(const CompiledEffect& compiled, std::string_view file,
                              std::vector<Diagnostic>& out) {
    for (uint32_t e = 0; e < compiled.emitters.size(); ++e) {
        for (const FeatureUse& use : emitterFeatureUses(compiled, e)) {
            for (Backend backend : {Backend::cpu, Backend::gpu}) {
                if ((backendFeatures(backend) & static_cast<FeatureSet>(use.feature)) != 0)
                    continue;
                out.push_back({Severity::warning, std::string(file), 0, 0, 0, use.path,
                               "the " + std::string(backendName(backend)) + " backend cannot run " +
                                   std::string(featureName(use.feature)) +
                                   ": this emitter runs on the other backend"});
            }
        }
    }
}

} // namespace

DocumentCheck checkDocument(std::string_view text, std::string_view file) {
    DocumentCheck check;
    check.valid = loadEffect(text, file, check.effect, check.diagnostics);
    if (!check.valid) return check;
    CompiledEffect compiled;
    std::vector<Diagnostic> compile_diagnostics;
    if (!compileEffect(check.effect, compiled, compile_diagnostics)) check.valid = false;
    for (Diagnostic& d : compile_diagnostics) {
        if (d.file.empty()) d.file = std::string(file);
        check.diagnostics.push_back(std::move(d));
    }
    if (check.valid) appendCapabilityWarnings(compiled, file, check.diagnostics);
    return check;
}

nlohmann::json diagnosticsJson(const std::vector<Diagnostic>& diagnostics) {
    nlohmann::json out = nlohmann::json::array();
    for (const Diagnostic& d : diagnostics) {
        out.push_back({{"severity", d.severity == Severity::error ? "error" : "warning"},
                       {"path", d.path},
                       {"line", d.line},
                       {"column", d.column},
                       {"message", d.message},
                       {"text", formatDiagnostic(d)}});
    }
    return out;
}

} // namespace spindrift::editor
