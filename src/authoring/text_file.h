// Reading a whole document file with a size limit, for the effect and scene loaders: a missing
// file, a directory, an unreadable or oversized file is one diagnostic naming the file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift {

// kind names the document in messages ("effect" -> "effect files are limited to ...").
// Returns false (and appends one diagnostic) when the text could not be read whole.
bool readTextFile(const std::string& path, uint64_t max_bytes, const char* kind, std::string& text,
                  std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
