#include "cook/effect_file.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "compiler/compile_effect.h"
#include "compiler/trail_limits.h"
#include "cook/sfx_reader.h"
#include "spindrift/effect_json.h"

namespace spindrift {

namespace {

bool readCookedBytes(const std::string& path, std::vector<uint8_t>& bytes,
                     std::vector<Diagnostic>& diagnostics) {
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(path, error);
    if (error) {
        diagnostics.push_back(
            {Severity::error, path, 0, 0, 0, "", "cannot read file: " + error.message()});
        return false;
    }
    if (size > kMaxCookedEffectBytes) {
        diagnostics.push_back({Severity::error, path, 0, 0, 0, "",
                               "file is " + std::to_string(size) +
                                   " bytes; cooked effects are limited to " +
                                   std::to_string(kMaxCookedEffectBytes)});
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        diagnostics.push_back({Severity::error, path, 0, 0, 0, "", "cannot read file"});
        return false;
    }
    return true;
}

// Compiles a loaded description; the compiler knows JSON paths but not positions, so its
// diagnostics name the file at least.
bool compileDesc(const EffectDesc& desc, const std::string& file, CompiledEffect& out,
                 std::vector<Diagnostic>& diagnostics) {
    std::vector<Diagnostic> compile_diagnostics;
    const bool compiled = compileEffect(desc, out, compile_diagnostics);
    for (Diagnostic& d : compile_diagnostics) {
        if (d.file.empty()) d.file = file;
        diagnostics.push_back(std::move(d));
    }
    return compiled;
}

} // namespace

EffectFileKind effectFileKindOf(const std::string& path) {
    return std::filesystem::path(path).extension() == ".sfx" ? EffectFileKind::cooked
                                                             : EffectFileKind::json;
}

bool loadCompiledEffect(const std::string& path, CompiledEffect& out,
                        std::vector<Diagnostic>& diagnostics) {
    if (effectFileKindOf(path) == EffectFileKind::cooked) {
        std::vector<uint8_t> bytes;
        if (!readCookedBytes(path, bytes, diagnostics)) return false;
        if (!loadCookedEffect(bytes, path, out, diagnostics)) return false;
        // The compiler's effect-wide limits, for a file that may not have come from it.
        const size_t first = diagnostics.size();
        const bool trails_ok = checkTrailLimits(out, diagnostics, "the effect format's");
        for (size_t i = first; i < diagnostics.size(); ++i) diagnostics[i].file = path;
        return trails_ok;
    }
    EffectDesc desc;
    if (!loadEffectFile(path, desc, diagnostics)) return false;
    return compileDesc(desc, path, out, diagnostics);
}

bool compileEffectText(std::string_view text, const std::string& file, CompiledEffect& out,
                       std::vector<Diagnostic>& diagnostics) {
    EffectDesc desc;
    if (!loadEffect(text, file, desc, diagnostics)) return false;
    return compileDesc(desc, file, out, diagnostics);
}

} // namespace spindrift
