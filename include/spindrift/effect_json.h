// Reading and writing effect documents (JSON, format version 1; docs/effect-format.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spindrift/export.h"

#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

inline constexpr uint32_t kEffectFormatVersion = 1;

// Limits of an effect document as text (docs/effect-format.md, "Limits"). A file larger than
// kMaxEffectFileBytes is refused before it is read, and a document of more than
// kMaxEffectJsonValues JSON values (every array element and object member counts) while it is
// parsed, so that refusing any input costs at most about 200 MB and a second. Every list of the
// format fits at its limit within them, mesh points aside: those of all emitters together are
// bounded by the values (7 per point), about 140,000 points in an otherwise small effect.
inline constexpr uint64_t kMaxEffectFileBytes = 32u << 20;
inline constexpr uint64_t kMaxEffectJsonValues = 1u << 20;

// Parses and validates one effect document. Every problem in the document is reported (not
// just the first), each with file, line:column, JSON path and what was expected; past
// kMaxDiagnosticsPerFile, the first ones in document order and one that counts the rest. A list
// longer than its limit (effect_desc.h) is one diagnostic and is not read further. Returns true
// when no error was found; out is then fully valid (validateEffect finds nothing).
SPINDRIFT_API bool loadEffect(std::string_view text, std::string_view file, EffectDesc& out,
                              std::vector<Diagnostic>& diagnostics);

// Reads the file and calls loadEffect; an unreadable file is one diagnostic.
SPINDRIFT_API bool loadEffectFile(const std::string& path, EffectDesc& out,
                                  std::vector<Diagnostic>& diagnostics);

// The semantic rules of the format (ranges, limits, unique names, sub-emitter references,
// cycles, shape/emit_from combinations) for a description built in code. Diagnostics carry
// JSON paths but no positions. Returns true when there is no error.
SPINDRIFT_API bool validateEffect(const EffectDesc& effect, std::vector<Diagnostic>& diagnostics);

// The canonical JSON text of an effect: every key in documented order, keys whose value equals
// the documented default left out. loadEffect(saveEffect(e)) == e for every valid e, and the
// text of a document already in canonical form is reproduced byte for byte.
SPINDRIFT_API std::string saveEffect(const EffectDesc& effect);

} // namespace spindrift
