// Loading a cooked .sfx file (docs/sfx-format.md).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

// Validates every byte of a cooked file before anything uses it: header (size, magic, version,
// endianness, file size, checksum over every other byte), section table (unknown, duplicate,
// missing or misplaced sections, record sizes, overflow-safe offsets and sizes, counts against the
// format's limits, zero padding), and every record (enum values, flag bits, finite floats and their
// ranges, every index and range into another array, string references, LUT rows, capacities and
// their sum, op codes, sub-emitter cycles), and last the header's structural hash against the one
// recomputed from the records. Never reads outside bytes.
//
// On success out holds the effect and true is returned. On the first problem one error is
// appended to diagnostics (file = file, byte_offset = where, message naming the section, record,
// field, the value found and what was expected), out is left empty, and false is returned.
bool loadCookedEffect(std::span<const uint8_t> bytes, std::string_view file, CompiledEffect& out,
                      std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
