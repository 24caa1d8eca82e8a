// What the editor knows of a document the page sent: whether it loads (the strict reader and
// validateEffect, include/spindrift/effect_json.h), every error and warning with its JSON path and
// line:column, the capability warnings of each emitter (what a backend cannot run, at the JSON
// path of the module that needs it: compiler/capabilities.h), and the canonical text a save
// writes (saveEffect).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift::editor {

struct DocumentCheck {
    bool valid = false;
    EffectDesc effect;                   // valid only when valid
    std::vector<Diagnostic> diagnostics; // reader, rules and compiler; then capability warnings
};

// file: the name diagnostics carry (the document's path relative to the folder).
DocumentCheck checkDocument(std::string_view text, std::string_view file);

// [{severity, path, line, column, message}] in the order given.
nlohmann::json diagnosticsJson(const std::vector<Diagnostic>& diagnostics);

} // namespace spindrift::editor
