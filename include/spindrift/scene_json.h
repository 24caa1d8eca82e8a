// Reading and writing scene documents (JSON, format version 1; docs/scene-format.md). The same
// contracts as effect_json.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spindrift/export.h"

#include "spindrift/diagnostic.h"
#include "spindrift/scene_desc.h"

namespace spindrift {

inline constexpr uint32_t kSceneFormatVersion = 1;

// Limits of a scene document as text (docs/scene-format.md, "Limits"), as for effects
// (effect_json.h): every list of the format fits at its limit within them.
inline constexpr uint64_t kMaxSceneFileBytes = 16u << 20;
inline constexpr uint64_t kMaxSceneJsonValues = 1u << 19;

// Parses and validates one scene document. Every problem is reported (not just the first),
// each with file, line:column, JSON path and what was expected; past kMaxDiagnosticsPerFile, the
// first ones in document order and one that counts the rest. A list longer than its limit
// (scene_desc.h) is one diagnostic and is not read further. Effect files are not looked at
// (there is no directory to resolve them against): loadSceneFile does that. Returns true when
// no error was found; out is then fully valid (validateScene finds nothing).
SPINDRIFT_API bool loadScene(std::string_view text, std::string_view file, SceneDesc& out,
                             std::vector<Diagnostic>& diagnostics);

// Reads the file and calls loadScene; an unreadable file is one diagnostic. Then checks that
// every instance's effect file exists (resolveEffectPath): a missing one is an error at the
// instance's "effect" value ("$.effects[2].effect"), naming the path looked for.
SPINDRIFT_API bool loadSceneFile(const std::string& path, SceneDesc& out,
                                 std::vector<Diagnostic>& diagnostics);

// The semantic rules of the format (ranges, limits, camera form, unique names, path key order)
// for a scene built in code. Diagnostics carry JSON paths but no positions. Returns true when
// there is no error. Does not touch the file system.
SPINDRIFT_API bool validateScene(const SceneDesc& scene, std::vector<Diagnostic>& diagnostics);

// The canonical JSON text of a scene: keys in scene_desc.h order, keys whose value equals the
// documented default left out. loadScene(saveScene(s)) == s for every valid s, and the text of
// a document already in canonical form is reproduced byte for byte.
SPINDRIFT_API std::string saveScene(const SceneDesc& scene);

// Where an instance's effect file is: effect_path as is when absolute, else relative to the
// directory of scene_file. The one function every host uses to find instance effects.
SPINDRIFT_API std::string resolveEffectPath(const std::string& scene_file,
                                            const std::string& effect_path);

} // namespace spindrift
