// Small helpers shared by the scene tests.
#pragma once

#include <string>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift {

inline std::string dump(const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (const auto& d : diagnostics) all += formatDiagnostic(d) + "\n";
    return all;
}

inline const std::string kSourceDir = SPINDRIFT_SOURCE_DIR;

} // namespace spindrift
