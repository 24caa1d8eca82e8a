#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "compiler/capabilities.h"
#include "cook/effect_assets.h"
#include "cook/effect_file.h"
#include "effect_source.h"

namespace spindrift::cli {

namespace {

bool isEffectInput(const std::filesystem::path& path) {
    return path.extension() == ".json" || path.extension() == ".sfx";
}

// Files named directly are always checked; directories contribute their .json and .sfx files,
// in sorted order so output is stable.
std::vector<std::string> expandInputs(const std::vector<std::string>& inputs,
                                      std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> files;
    for (const std::string& input : inputs) {
        std::error_code error;
        if (!std::filesystem::is_directory(input, error)) {
            files.push_back(input);
            continue;
        }
        std::vector<std::string> found;
        std::filesystem::recursive_directory_iterator it(input, error), end;
        for (; !error && it != end; it.increment(error)) {
            if (it->is_regular_file(error) && isEffectInput(it->path())) {
                found.push_back(it->path().string());
            }
        }
        if (error) {
            diagnostics.push_back(
                {Severity::error, input, 0, 0, 0, "", "cannot list directory: " + error.message()});
        }
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    return files;
}

} // namespace

int runValidate(const std::vector<std::string>& inputs, bool quiet) {
    std::vector<Diagnostic> listing;
    const std::vector<std::string> files = expandInputs(inputs, listing);
    printDiagnostics(listing);
    size_t failed = listing.empty() ? 0 : 1;
    size_t warnings = 0;
    for (const std::string& file : files) {
        std::vector<Diagnostic> diagnostics;
        CompiledEffect effect;
        // The textures and meshes it names must decode too: render would refuse them.
        const bool ok = loadCompiledEffect(file, effect, diagnostics) &&
                        checkEffectAssets(effect, file, diagnostics) && !hasErrors(diagnostics);
        printDiagnostics(diagnostics);
        if (!ok) ++failed;
        // How a backend runs what the effect asks differently (not a warning: nothing is wrong).
        if (ok && !quiet) {
            for (const EmitterBackends& emitter : checkBackends(effect)) {
                for (const BackendVerdict& verdict : emitter.backends) {
                    for (const std::string& note : verdict.notes) {
                        std::printf("%s: note: emitter '%s': %s\n", file.c_str(),
                                    emitter.name.c_str(), note.c_str());
                    }
                }
            }
        }
        for (const Diagnostic& d : diagnostics) warnings += d.severity == Severity::warning;
    }
    if (!quiet) {
        std::printf("validated %zu file%s: %zu ok, %zu with errors, %zu warning%s\n", files.size(),
                    files.size() == 1 ? "" : "s", files.size() - std::min(failed, files.size()),
                    failed, warnings, warnings == 1 ? "" : "s");
    }
    return failed == 0 && !files.empty() ? 0 : 1;
}

} // namespace spindrift::cli
