// A parsed JSON document that remembers where every value and key came from, so that every
// later check (the effect reader, the scene reader) can report file:line:column and a JSON path.
//
// Why not nlohmann::json here: it keeps no source positions and silently keeps the last of
// duplicate keys; both are required by the strict-input rule (DESIGN rule 6).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift::json {

struct SourcePos {
    uint32_t line = 1;   // 1-based
    uint32_t column = 1; // 1-based, in bytes
    uint64_t offset = 0; // 0-based byte offset
};

enum class Kind : uint8_t { null, boolean, number, string, array, object };

const char* kindName(Kind kind); // "null", "a boolean", "a number", "a string", ...

struct Value {
    Kind kind = Kind::null;
    SourcePos pos;                 // first byte of the value
    bool boolean = false;          // kind == boolean
    std::string text;              // string: the decoded UTF-8; number: the literal as written
    std::vector<Value> items;      // array: elements; object: member values, in document order
    std::vector<std::string> keys; // object: member keys, parallel to items
    std::vector<SourcePos> key_positions; // object: where each key starts

    // object: the member called key, or nullptr.
    const Value* find(std::string_view key) const;
};

// Numbers are kept as their literal text so each reader converts with the exact rounding it
// needs. These return false (and leave out untouched) when the literal does not fit.
bool toFloat(const Value& number, float& out);     // finite float32 only
bool toDouble(const Value& number, double& out);   // finite double only
bool toUint32(const Value& number, uint32_t& out); // an integer literal (no fraction/exponent)
                                                   // in [0, 2^32)
bool toInt64(const Value& number, int64_t& out);   // an integer literal in int64 range

// Destroying a Value recurses once per level, so depth is capped whatever the caller asks.
inline constexpr uint32_t kMaxJsonDepth = 1024;

// Each document format passes its own limits, derived from what its largest valid document needs
// (effect_json.h, scene_json.h). The defaults are the largest of those (an effect's), so that a
// caller that only looks into a document (is it a scene?) costs no more than loading it.
struct ParseOptions {
    uint32_t max_depth = 64;        // nesting of arrays + objects, <= kMaxJsonDepth
    uint64_t max_bytes = 32u << 20; // larger inputs are refused before parsing
    // Values in the document (each array element and object member counts). A Value is ~136
    // bytes, so "[0,0,0,...]" would cost ~70x its text; past this the input is refused, having
    // held at most max_values of them (~140 MB at the default).
    uint64_t max_values = 1u << 20;
    // Names the document in the messages about these limits ("an effect document").
    std::string_view document = "the document";
};

// Parses strict RFC 8259 JSON (UTF-8; an optional UTF-8 byte-order mark is skipped). Rejects:
// empty input, trailing content, duplicate keys in one object, comments, trailing commas,
// NaN/Infinity literals, numbers that overflow a double, invalid UTF-8 and escapes, control
// characters in strings, nesting deeper than max_depth. On failure returns false and appends
// one Diagnostic (file, line, column, offset, message naming what was found and expected);
// it never throws, crashes or recurses without bound.
bool parse(std::string_view text, std::string_view file, Value& out,
           std::vector<Diagnostic>& diagnostics, const ParseOptions& options = {});

// The keys of the top-level object, read without building the document: for telling one kind of
// document from another (a scene from an effect) before the right loader, with its own limits,
// reads it. Strings are skipped with their escapes, nesting is only counted, and keys are kept
// as written (escapes not decoded). False when the text does not start with an object or ends
// inside one; it validates nothing else, so the loader still reports every mistake. Linear in
// the text's size, allocation only for the keys.
bool topLevelKeys(std::string_view text, std::vector<std::string>& keys);

// JSON path helpers: "$", "$.emitters", "$.emitters[3]".
std::string pathKey(const std::string& parent, std::string_view key);
std::string pathIndex(const std::string& parent, size_t index);

} // namespace spindrift::json
