// The vocabulary of validateEffect: each check reports one diagnostic at a JSON path, saying
// what was expected and what was found ("expected a number in [0, 1], found 1.5").
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

std::string formatNumber(float value); // shortest round-trip text; "nan", "inf", "-inf"
std::string formatFloat3(const Float3& v);

// JSON text is UTF-8, so a string that is not would not survive save -> load.
bool isUtf8(const std::string& s);
// Where the first control character (U+0000..U+001F, U+007F) is, for messages: "U+0000 at
// byte 3"; empty when there is none.
std::string findControlCharacter(const std::string& s);
// 1..kMaxNameBytes characters from A-Z a-z 0-9 _ - (emitter and scene instance names).
bool isPlainName(const std::string& name);

// "unsupported scene format version 2; expected 1": the one wording, for readers and rules.
std::string versionMessage(std::string_view format, uint32_t found, uint32_t expected);

// "expected 1 to 64 emitters, found 65" ("at most 64" when lo is 0): the one wording of a list
// length, for the rules and for the reader that stops at a list's limit.
std::string countMessage(size_t size, size_t lo, size_t hi, const char* what);

struct RuleChecker {
    std::vector<Diagnostic>& out;

    void error(const std::string& path, std::string message) const;

    // Each returns true when the value passes. Bounds: [lo, hi], with lo_open / hi_open making
    // that end exclusive; an infinite bound is not printed ("a number >= 0").
    bool number(const std::string& path, float value, float lo, bool lo_open, float hi,
                bool hi_open) const;
    bool finite(const std::string& path, float value) const;
    bool atLeast(const std::string& path, float value, float lo) const {
        return number(path, value, lo, false, kInf, false);
    }
    bool above(const std::string& path, float value, float lo) const {
        return number(path, value, lo, true, kInf, false);
    }
    bool unit(const std::string& path, float value) const {
        return number(path, value, 0, false, 1, false);
    }
    bool integer(const std::string& path, uint64_t value, uint64_t lo, uint64_t hi) const;
    // A list's length: "expected 1 to 64 emitters, found 0".
    bool count(const std::string& path, size_t size, size_t lo, size_t hi, const char* what) const;

    bool finite3(const std::string& path, const Float3& v) const;
    bool atLeast3(const std::string& path, const Float3& v, float lo) const;
    bool above3(const std::string& path, const Float3& v, float lo) const;
    bool within3(const std::string& path, const Float3& v, float lo, float hi) const;
    bool nonZero(const std::string& path, const Float3& v) const;
    bool unitDirection(const std::string& path, const Float3& v) const;

    // Ranges: each end within [lo, hi] (open as above) and min <= max. When min == max the
    // value is checked once, at the range's path (the document wrote one number).
    bool range(const std::string& path, const FloatRange& r, float lo, bool lo_open) const;
    bool range3(const std::string& path, const Float3Range& r) const;
    bool countRange(const std::string& path, const CountRange& r, uint32_t lo, uint32_t hi) const;

    // Every key value in [min_value, max_value].
    bool curve(const std::string& path, const Curve& curve, float min_value,
               float max_value = std::numeric_limits<float>::infinity()) const;
    // Colour keys in [0, max_value] (HDR above 1), alpha keys in [0, 1].
    bool gradient(const std::string& path, const Gradient& gradient,
                  float max_value = kMaxColorValue) const;
    bool color(const std::string& path, const Float4& color) const;
    // A file path in a document (texture, mesh, scene instance effect): UTF-8, at most
    // kMaxPathBytes, no control characters, and non-empty when required.
    bool filePath(const std::string& path, const std::string& value, bool required) const;

    static constexpr float kInf = std::numeric_limits<float>::infinity();
};

} // namespace spindrift
