#include "io/document_load.h"

namespace spindrift {

bool loadDocument(std::string_view text, std::string_view file, const DocumentSteps& steps,
                  std::vector<Diagnostic>& diagnostics) {
    const size_t first = diagnostics.size();
    json::Value root;
    if (!json::parse(text, file, root, diagnostics, steps.parse)) return false;

    ReadContext ctx;
    ctx.file = std::string(file);
    ctx.diagnostics = &diagnostics;
    ctx.first = first;
    // One place for the cap, whichever way the load ends.
    auto finish = [&] {
        keepEarliestDiagnostics(diagnostics, first, kMaxDiagnosticsPerFile, ctx.dropped);
        appendDroppedSummary(diagnostics, file, ctx.dropped);
    };
    if (!steps.read(ctx, root)) {
        finish();
        return false;
    }

    std::vector<Diagnostic> semantic;
    steps.validate(semantic);
    for (Diagnostic& d : semantic) {
        // One mistake, one diagnostic: a value the reader already rejected kept its default,
        // so whatever the rules say about it (or below it) is a consequence, not a mistake.
        if (ctx.isSuppressed(d.path)) continue;
        if (steps.compares_rejected_value && steps.compares_rejected_value(ctx, d)) continue;
        ctx.place(d);
        if (steps.rules_hide_nested) ctx.reported.insert(d.path);
        diagnostics.push_back(std::move(d));
    }
    if (steps.check_after) steps.check_after(ctx, diagnostics);

    // Document order reads best; the reader and the rules each found theirs in a different one.
    finish();
    for (size_t i = first; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    return true;
}

} // namespace spindrift
