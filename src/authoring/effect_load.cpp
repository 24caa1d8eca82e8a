// loadEffect = strict structural read (effect_reader) + the one set of semantic rules
// (validateEffect), whose path-only diagnostics get their positions from the read.
#include <algorithm>

#include "authoring/effect_reader.h"
#include "authoring/text_file.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

inline constexpr uint64_t kMaxEffectFileBytes = 64u * 1024 * 1024;

bool endsWith(const std::string& text, std::string_view suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Some rules compare a value with another one: a sibling (frames with columns * rows) or other
// emitters (the capacity sum, sub-emitter names). When the reader rejected that other value it
// kept its default, so the comparison says nothing about the document: the rejected value is
// the one mistake.
bool comparesRejectedValue(const ReadContext& ctx, const Diagnostic& d) {
    const std::string& path = d.path;
    auto sibling = [&](std::string_view leaf, std::initializer_list<std::string_view> others) {
        if (!endsWith(path, "." + std::string(leaf))) return false;
        const std::string parent = path.substr(0, path.size() - leaf.size());
        for (std::string_view other : others) {
            if (ctx.reported.count(parent + std::string(other)) != 0) return true;
        }
        return false;
    };
    if (sibling("frames", {"columns", "rows"}) || sibling("max_speed", {"min_speed"}) ||
        sibling("interval_s", {"cycles"})) {
        return true;
    }
    // field "" means the emitter itself was rejected (not an object).
    auto anyEmitterRejected = [&](std::string_view field) {
        for (const std::string& reported : ctx.reported) {
            if (reported.rfind("$.emitters[", 0) != 0) continue;
            const size_t close = reported.find(']');
            if (close == std::string::npos) continue;
            const std::string_view rest = std::string_view(reported).substr(close + 1);
            if (rest.empty() || rest == field) return true;
        }
        return false;
    };
    if (path == "$.capacity" && d.message.find("add up to") != std::string::npos) {
        return anyEmitterRejected(".capacity");
    }
    if (endsWith(path, ".emitter") && path.find(".sub_emitters[") != std::string::npos) {
        return anyEmitterRejected(".name");
    }
    return false;
}

} // namespace

bool loadEffect(std::string_view text, std::string_view file, EffectDesc& out,
                std::vector<Diagnostic>& diagnostics) {
    out = EffectDesc{};
    const size_t first = diagnostics.size();
    json::Value root;
    if (!json::parse(text, file, root, diagnostics)) return false;

    ReadContext ctx;
    ctx.file = std::string(file);
    ctx.diagnostics = &diagnostics;
    if (!readEffect(ctx, root, out)) return false;

    std::vector<Diagnostic> semantic;
    validateEffect(out, semantic);
    for (Diagnostic& d : semantic) {
        // One mistake, one diagnostic: a value the reader already rejected kept its default,
        // so whatever the rules say about it (or below it) is a consequence, not a mistake.
        if (ctx.isSuppressed(d.path) || comparesRejectedValue(ctx, d)) continue;
        const json::SourcePos pos = ctx.positionOf(d.path);
        d.file = ctx.file;
        d.line = pos.line;
        d.column = pos.column;
        d.byte_offset = pos.offset;
        diagnostics.push_back(std::move(d));
    }
    // Document order reads best; the reader and the rules each found theirs in a different one.
    std::stable_sort(
        diagnostics.begin() + std::ptrdiff_t(first), diagnostics.end(),
        [](const Diagnostic& a, const Diagnostic& b) { return a.byte_offset < b.byte_offset; });
    for (size_t i = first; i < diagnostics.size(); ++i) {
        if (diagnostics[i].severity == Severity::error) return false;
    }
    return true;
}

bool loadEffectFile(const std::string& path, EffectDesc& out,
                    std::vector<Diagnostic>& diagnostics) {
    out = EffectDesc{};
    std::string text;
    if (!readTextFile(path, kMaxEffectFileBytes, "effect", text, diagnostics)) return false;
    return loadEffect(text, path, out, diagnostics);
}

} // namespace spindrift
