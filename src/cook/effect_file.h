// Reading an effect from a file, whatever its form: a JSON effect is loaded, validated and
// compiled; a cooked .sfx file is loaded and validated. One function, so every host (the CLI's
// validate, cook, inspect, simulate and render, the scene player, the editor) agrees about what a
// file means.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

enum class EffectFileKind { json, cooked };

// By extension: ".sfx" is cooked, anything else is read as JSON.
EffectFileKind effectFileKindOf(const std::string& path);

// Cooked effects are small; a larger file is refused before it is read.
inline constexpr uintmax_t kMaxCookedEffectBytes = 256u * 1024 * 1024;

// Loads path into out. Returns false when any error was found; every diagnostic (warnings too)
// is appended, each naming the file (compiler diagnostics, which know only JSON paths, get the
// file filled in). On failure out is unspecified.
bool loadCompiledEffect(const std::string& path, CompiledEffect& out,
                        std::vector<Diagnostic>& diagnostics);

// The same for JSON effect text held in memory; file is what the diagnostics call it.
bool compileEffectText(std::string_view text, const std::string& file, CompiledEffect& out,
                       std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
