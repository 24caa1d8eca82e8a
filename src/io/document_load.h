// Loading a strict JSON document: the part every document type (effect, scene) shares. The text
// is parsed, read structurally (strict values, every position recorded), then checked by the
// format's semantic rules, whose path-only diagnostics are placed at their paths; one mistake
// gives one diagnostic, and the result is in document order, at most kMaxDiagnosticsPerFile of
// them and then one that counts the rest. The document type supplies its parse limits, its read
// and its rules as steps.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "io/json_value.h"
#include "io/read_context.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

struct DocumentSteps {
    // Limits of the JSON text (bytes, nesting, values): the format's own, so that what a hostile
    // document can cost is set by what the largest valid one needs.
    json::ParseOptions parse;
    // The structural read. False: reading stopped early (the root is not an object, an
    // unsupported format version), and no rule runs.
    std::function<bool(ReadContext& ctx, const json::Value& root)> read;
    // The format's semantic rules on what was read; their diagnostics carry JSON paths only.
    std::function<void(std::vector<Diagnostic>& out)> validate;
    // Optional. True when a rule's diagnostic compares its value with another one the reader
    // rejected: that one kept its default, so the comparison says nothing about the document.
    std::function<bool(const ReadContext& ctx, const Diagnostic& d)> compares_rejected_value;
    // true: a rule's diagnostic also hides the later ones at or below its path (a list over its
    // limit hides its items' mistakes); false: only the reader's diagnostics hide anything.
    bool rules_hide_nested = false;
    // Optional. Checks that run after the rules (ctx.reported then holds the rules' paths too
    // when rules_hide_nested); they append diagnostics already placed (ctx.place).
    std::function<void(const ReadContext& ctx, std::vector<Diagnostic>& out)> check_after;
};

// Appends the diagnostics of the document, in document order (byte offset), to diagnostics: every
// one when there are at most kMaxDiagnosticsPerFile, else the first kMaxDiagnosticsPerFile and a
// last one saying how many more there were. Returns true when none of them is an error.
bool loadDocument(std::string_view text, std::string_view file, const DocumentSteps& steps,
                  std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
