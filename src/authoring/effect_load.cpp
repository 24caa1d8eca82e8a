// loadEffect = strict structural read (effect_reader) + the one set of semantic rules
// (validateEffect), whose path-only diagnostics get their positions from the read.
#include "authoring/effect_reader.h"
#include "authoring/text_file.h"
#include "io/document_load.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

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
    DocumentSteps steps;
    steps.parse.max_bytes = kMaxEffectFileBytes;
    steps.parse.max_values = kMaxEffectJsonValues;
    steps.parse.document = "an effect document";
    steps.read = [&](ReadContext& ctx, const json::Value& root) {
        return readEffect(ctx, root, out);
    };
    steps.validate = [&](std::vector<Diagnostic>& semantic) { validateEffect(out, semantic); };
    steps.compares_rejected_value = comparesRejectedValue;
    return loadDocument(text, file, steps, diagnostics);
}

bool loadEffectFile(const std::string& path, EffectDesc& out,
                    std::vector<Diagnostic>& diagnostics) {
    out = EffectDesc{};
    std::string text;
    if (!readTextFile(path, kMaxEffectFileBytes, "effect", text, diagnostics)) return false;
    return loadEffect(text, path, out, diagnostics);
}

} // namespace spindrift
