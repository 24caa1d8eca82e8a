// Reading and writing effect documents (JSON, format version 1; docs/effect-format.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

inline constexpr uint32_t kEffectFormatVersion = 1;

// Parses and validates one effect document. Every problem in the document is reported (not
// just the first), each with file, line:column, JSON path and what was expected. Returns true
// when no error was found; out is then fully valid (validateEffect finds nothing).
bool loadEffect(std::string_view text, std::string_view file, EffectDesc& out,
                std::vector<Diagnostic>& diagnostics);

// Reads the file and calls loadEffect; an unreadable file is one diagnostic.
bool loadEffectFile(const std::string& path, EffectDesc& out, std::vector<Diagnostic>& diagnostics);

// The semantic rules of the format (ranges, limits, unique names, sub-emitter references,
// cycles, shape/emit_from combinations) for a description built in code. Diagnostics carry
// JSON paths but no positions. Returns true when there is no error.
bool validateEffect(const EffectDesc& effect, std::vector<Diagnostic>& diagnostics);

// The canonical JSON text of an effect: every key in documented order, keys whose value equals
// the documented default left out. loadEffect(saveEffect(e)) == e for every valid e, and the
// text of a document already in canonical form is reproduced byte for byte.
std::string saveEffect(const EffectDesc& effect);

} // namespace spindrift
