// The runtime's own access to a World beyond the public API, for the parts of the runtime that
// work on every instance at once (benchmarks use it too). Not a public header.
#pragma once

#include <cstdint>

#include "spindrift/runtime.h"

namespace spindrift {

// Writes the host draw records of every live instance (writeHostDrawRecords: the CPU draw-record
// write the renderer uses) and returns how many records were written in all.
uint64_t writeWorldDrawRecords(World& world);

} // namespace spindrift
