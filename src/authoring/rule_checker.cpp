#include "authoring/rule_checker.h"

#include <cmath>
#include <cstdio>

#include "authoring/direction.h"
#include "io/json_value.h"
#include "io/json_writer.h"
#include "io/utf8.h"

namespace spindrift {

namespace {

std::string boundsText(float lo, bool lo_open, float hi, bool hi_open) {
    const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
    if (has_lo && has_hi) {
        return std::string("in ") + (lo_open ? "(" : "[") + formatNumber(lo) + ", " +
               formatNumber(hi) + (hi_open ? ")" : "]");
    }
    if (has_lo) return std::string(lo_open ? "> " : ">= ") + formatNumber(lo);
    if (has_hi) return std::string(hi_open ? "< " : "<= ") + formatNumber(hi);
    return "finite";
}

} // namespace

std::string formatNumber(float value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return json::formatFloat(value);
}

std::string formatFloat3(const Float3& v) {
    return "[" + formatNumber(v.x) + ", " + formatNumber(v.y) + ", " + formatNumber(v.z) + "]";
}

bool isUtf8(const std::string& s) {
    return utf8::isValid(s);
}

std::string findControlCharacter(const std::string& s) {
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c != 0x7F) continue;
        char code[8];
        std::snprintf(code, sizeof code, "U+%04X", unsigned{c});
        return std::string(code) + " at byte " + std::to_string(i);
    }
    return {};
}

bool isPlainName(const std::string& name) {
    if (name.empty() || name.size() > kMaxNameBytes) return false;
    for (char ch : name) {
        const bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                        (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (!ok) return false;
    }
    return true;
}

void RuleChecker::error(const std::string& path, std::string message) const {
    Diagnostic d;
    d.path = path;
    d.message = std::move(message);
    out.push_back(std::move(d));
}

bool RuleChecker::finite(const std::string& path, float value) const {
    if (std::isfinite(value)) return true;
    error(path, "expected a finite number, found " + formatNumber(value));
    return false;
}

bool RuleChecker::number(const std::string& path, float value, float lo, bool lo_open, float hi,
                         bool hi_open) const {
    if (!finite(path, value)) return false;
    const bool ok = (lo_open ? value > lo : value >= lo) && (hi_open ? value < hi : value <= hi);
    if (!ok) {
        error(path, "expected a number " + boundsText(lo, lo_open, hi, hi_open) + ", found " +
                        formatNumber(value));
    }
    return ok;
}

bool RuleChecker::integer(const std::string& path, uint64_t value, uint64_t lo, uint64_t hi) const {
    if (value >= lo && value <= hi) return true;
    error(path, "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                    "], found " + std::to_string(value));
    return false;
}

std::string versionMessage(std::string_view format, uint32_t found, uint32_t expected) {
    return "unsupported " + std::string(format) + " version " + std::to_string(found) +
           "; expected " + std::to_string(expected);
}

std::string countMessage(size_t size, size_t lo, size_t hi, const char* what) {
    const std::string expected = lo == 0 ? "at most " + std::to_string(hi)
                                         : std::to_string(lo) + " to " + std::to_string(hi);
    return "expected " + expected + " " + what + ", found " + std::to_string(size);
}

bool RuleChecker::count(const std::string& path, size_t size, size_t lo, size_t hi,
                        const char* what) const {
    if (size >= lo && size <= hi) return true;
    error(path, countMessage(size, lo, hi, what));
    return false;
}

bool RuleChecker::finite3(const std::string& path, const Float3& v) const {
    const bool x = finite(json::pathIndex(path, 0), v.x);
    const bool y = finite(json::pathIndex(path, 1), v.y);
    const bool z = finite(json::pathIndex(path, 2), v.z);
    return x && y && z;
}

bool RuleChecker::atLeast3(const std::string& path, const Float3& v, float lo) const {
    const bool x = atLeast(json::pathIndex(path, 0), v.x, lo);
    const bool y = atLeast(json::pathIndex(path, 1), v.y, lo);
    const bool z = atLeast(json::pathIndex(path, 2), v.z, lo);
    return x && y && z;
}

bool RuleChecker::above3(const std::string& path, const Float3& v, float lo) const {
    const bool x = above(json::pathIndex(path, 0), v.x, lo);
    const bool y = above(json::pathIndex(path, 1), v.y, lo);
    const bool z = above(json::pathIndex(path, 2), v.z, lo);
    return x && y && z;
}

bool RuleChecker::within3(const std::string& path, const Float3& v, float lo, float hi) const {
    const bool x = number(json::pathIndex(path, 0), v.x, lo, false, hi, false);
    const bool y = number(json::pathIndex(path, 1), v.y, lo, false, hi, false);
    const bool z = number(json::pathIndex(path, 2), v.z, lo, false, hi, false);
    return x && y && z;
}

bool RuleChecker::nonZero(const std::string& path, const Float3& v) const {
    if (!finite3(path, v)) return false;
    if (vectorLength(v) >= 1e-20) return true;
    error(path, "expected a non-zero direction, found " + formatFloat3(v));
    return false;
}

bool RuleChecker::unitDirection(const std::string& path, const Float3& v) const {
    if (!nonZero(path, v)) return false;
    if (isUnitLength(v)) return true;
    error(path, "expected a unit-length direction (the reader normalises; in code, normalise "
                "it), found " +
                    formatFloat3(v) + " of length " + formatNumber(float(vectorLength(v))));
    return false;
}

bool RuleChecker::range(const std::string& path, const FloatRange& r, float lo,
                        bool lo_open) const {
    if (r.min == r.max) return number(path, r.min, lo, lo_open, kInf, false);
    const bool ok_min = number(json::pathIndex(path, 0), r.min, lo, lo_open, kInf, false);
    const bool ok_max = number(json::pathIndex(path, 1), r.max, lo, lo_open, kInf, false);
    if (!ok_min || !ok_max) return false;
    if (r.min > r.max) {
        error(path, "expected [min, max] with min <= max, found [" + formatNumber(r.min) + ", " +
                        formatNumber(r.max) + "]");
        return false;
    }
    return true;
}

bool RuleChecker::range3(const std::string& path, const Float3Range& r) const {
    if (r.min == r.max) return finite3(path, r.min);
    const bool ok_min = finite3(json::pathIndex(path, 0), r.min);
    const bool ok_max = finite3(json::pathIndex(path, 1), r.max);
    if (!ok_min || !ok_max) return false;
    if (r.min.x > r.max.x || r.min.y > r.max.y || r.min.z > r.max.z) {
        error(path, "expected [min, max] with min <= max in every component, found [" +
                        formatFloat3(r.min) + ", " + formatFloat3(r.max) + "]");
        return false;
    }
    return true;
}

bool RuleChecker::countRange(const std::string& path, const CountRange& r, uint32_t lo,
                             uint32_t hi) const {
    if (r.min == r.max) return integer(path, r.min, lo, hi);
    const bool ok_min = integer(json::pathIndex(path, 0), r.min, lo, hi);
    const bool ok_max = integer(json::pathIndex(path, 1), r.max, lo, hi);
    if (!ok_min || !ok_max) return false;
    if (r.min > r.max) {
        error(path, "expected [min, max] with min <= max, found [" + std::to_string(r.min) + ", " +
                        std::to_string(r.max) + "]");
        return false;
    }
    return true;
}

namespace {

// Key times: each in [0, 1] and strictly after the previous key.
template <typename Key>
bool keyTimes(const RuleChecker& c, const std::string& keys_path, const std::vector<Key>& keys) {
    bool ok = true;
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::string key_path = json::pathIndex(keys_path, i);
        if (!c.unit(json::pathIndex(key_path, 0), keys[i].t)) {
            ok = false;
        } else if (i > 0 && std::isfinite(keys[i - 1].t) && !(keys[i].t > keys[i - 1].t)) {
            c.error(key_path,
                    "key times must increase strictly, found t = " + formatNumber(keys[i].t) +
                        " after t = " + formatNumber(keys[i - 1].t));
            ok = false;
        }
    }
    return ok;
}

} // namespace

bool RuleChecker::curve(const std::string& path, const Curve& curve, float min_value,
                        float max_value) const {
    const std::string keys_path = json::pathKey(path, "keys");
    if (!count(keys_path, curve.keys.size(), 1, kMaxCurveKeys, "curve keys")) return false;
    bool ok = keyTimes(*this, keys_path, curve.keys);
    for (size_t i = 0; i < curve.keys.size(); ++i) {
        const std::string value_path = json::pathIndex(json::pathIndex(keys_path, i), 1);
        ok = number(value_path, curve.keys[i].value, min_value, false, max_value, false) && ok;
    }
    return ok;
}

bool RuleChecker::gradient(const std::string& path, const Gradient& gradient,
                           float max_value) const {
    const std::string color_path = json::pathKey(path, "color_keys");
    const std::string alpha_path = json::pathKey(path, "alpha_keys");
    bool ok = true;
    if (count(color_path, gradient.color_keys.size(), 1, kMaxGradientKeys, "colour keys")) {
        ok = keyTimes(*this, color_path, gradient.color_keys) && ok;
        for (size_t i = 0; i < gradient.color_keys.size(); ++i) {
            const std::string key_path = json::pathIndex(color_path, i);
            const Float3& rgb = gradient.color_keys[i].color;
            ok = number(json::pathIndex(key_path, 1), rgb.x, 0, false, max_value, false) && ok;
            ok = number(json::pathIndex(key_path, 2), rgb.y, 0, false, max_value, false) && ok;
            ok = number(json::pathIndex(key_path, 3), rgb.z, 0, false, max_value, false) && ok;
        }
    } else {
        ok = false;
    }
    if (count(alpha_path, gradient.alpha_keys.size(), 1, kMaxGradientKeys, "alpha keys")) {
        ok = keyTimes(*this, alpha_path, gradient.alpha_keys) && ok;
        for (size_t i = 0; i < gradient.alpha_keys.size(); ++i) {
            const std::string key_path = json::pathIndex(alpha_path, i);
            ok = unit(json::pathIndex(key_path, 1), gradient.alpha_keys[i].alpha) && ok;
        }
    } else {
        ok = false;
    }
    return ok;
}

bool RuleChecker::color(const std::string& path, const Float4& c) const {
    const bool r = number(json::pathIndex(path, 0), c.x, 0, false, kMaxColorValue, false);
    const bool g = number(json::pathIndex(path, 1), c.y, 0, false, kMaxColorValue, false);
    const bool b = number(json::pathIndex(path, 2), c.z, 0, false, kMaxColorValue, false);
    const bool a = unit(json::pathIndex(path, 3), c.w);
    return r && g && b && a;
}

bool RuleChecker::filePath(const std::string& path, const std::string& value, bool required) const {
    if (!isUtf8(value)) {
        error(path, "expected UTF-8 text, found invalid bytes");
    } else if (value.size() > kMaxPathBytes) {
        error(path, "expected a path of at most " + std::to_string(kMaxPathBytes) +
                        " bytes, found " + std::to_string(value.size()) + " bytes");
    } else if (const std::string found = findControlCharacter(value); !found.empty()) {
        // The operating system would read a path with a NUL only up to it.
        error(path, "expected a path without control characters, found " + found);
    } else if (required && value.empty()) {
        error(path, "expected a non-empty path");
    } else {
        return true;
    }
    return false;
}

} // namespace spindrift
