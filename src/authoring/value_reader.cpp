#include "authoring/value_reader.h"

#include <algorithm>

#include "authoring/rule_checker.h"

namespace spindrift {

namespace {

bool expectKind(ReadContext& ctx, const json::Value& v, const std::string& path, json::Kind kind,
                const char* expected) {
    if (v.kind == kind) return true;
    ctx.error(path, v.pos, std::string("expected ") + expected + ", found " + describe(v));
    return false;
}

// Reads an array of [t, ...] rows; each row's path is recorded for semantic diagnostics.
template <typename Key, typename Convert>
bool readKeyRows(ReadContext& ctx, const json::Value& v, const std::string& path,
                 const ListLimit& limit, std::vector<Key>& out, size_t width, const char* form,
                 Convert convert) {
    ctx.record(path, v.pos);
    if (!expectKind(ctx, v, path, json::Kind::array, "an array of keys")) return false;
    if (!checkListLength(ctx, v, path, limit)) return false;
    std::vector<Key> keys;
    bool ok = true;
    float row[4] = {};
    for (size_t i = 0; i < v.items.size(); ++i) {
        if (readFloats(ctx, v.items[i], json::pathIndex(path, i), row, width, form)) {
            keys.push_back(convert(row));
        } else {
            ok = false;
        }
    }
    if (ok) out = std::move(keys);
    return ok;
}

} // namespace

bool checkListLength(ReadContext& ctx, const json::Value& v, const std::string& path,
                     const ListLimit& limit) {
    if (v.items.size() <= limit.max) return true;
    ctx.error(path, v.pos, countMessage(v.items.size(), limit.min, limit.max, limit.what));
    return false;
}

std::string shownText(std::string_view text) {
    constexpr size_t kShown = 40;
    std::string shown(text.substr(0, kShown));
    std::replace_if(
        shown.begin(), shown.end(),
        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; }, '?');
    return text.size() > kShown ? shown + "..." : shown;
}

std::string describe(const json::Value& value) {
    switch (value.kind) {
    case json::Kind::null:
        return "null";
    case json::Kind::boolean:
        return value.boolean ? "true" : "false";
    case json::Kind::number:
        return value.text;
    case json::Kind::string:
        return "the string \"" + shownText(value.text) + "\"";
    case json::Kind::array:
        return "an array of " + std::to_string(value.items.size()) +
               (value.items.size() == 1 ? " element" : " elements");
    case json::Kind::object:
        return "an object";
    }
    return "?";
}

const json::Value* ObjectIn::member(std::string_view key) const {
    const json::Value* v = value.find(key);
    if (v != nullptr) ctx.record(childPath(key), v->pos);
    return v;
}

bool expectObject(ReadContext& ctx, const json::Value& value, const std::string& path) {
    ctx.record(path, value.pos);
    return expectKind(ctx, value, path, json::Kind::object, "an object");
}

void checkKeys(const ObjectIn& in, std::span<const std::string_view> allowed) {
    for (size_t i = 0; i < in.value.keys.size(); ++i) {
        const std::string& key = in.value.keys[i];
        if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
        std::string list;
        for (std::string_view name : allowed) {
            if (!list.empty()) list += ", ";
            list += name;
        }
        const json::SourcePos pos =
            i < in.value.key_positions.size() ? in.value.key_positions[i] : in.value.pos;
        in.ctx.error(in.childPath(key), pos,
                     "unknown key '" + shownText(key) + "'; expected one of: " + list);
    }
}

void checkKeys(const ObjectIn& in, std::initializer_list<std::string_view> allowed) {
    checkKeys(in, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

bool requireKey(const ObjectIn& in, std::string_view key) {
    if (in.value.find(key) != nullptr) return true;
    in.ctx.error(in.childPath(key), in.value.pos,
                 "missing required key '" + std::string(key) + "'");
    return false;
}

namespace {

bool convertFloat(ReadContext& ctx, const json::Value& v, const std::string& path, float& out) {
    if (!expectKind(ctx, v, path, json::Kind::number, "a number")) return false;
    if (!json::toFloat(v, out)) {
        ctx.error(path, v.pos, "expected a number that fits in a 32-bit float, found " + v.text);
        return false;
    }
    return true;
}

} // namespace

bool readFloat(ReadContext& ctx, const json::Value& v, const std::string& path, float& out) {
    ctx.record(path, v.pos);
    return convertFloat(ctx, v, path, out);
}

bool readUint(ReadContext& ctx, const json::Value& v, const std::string& path, uint32_t& out) {
    ctx.record(path, v.pos);
    if (!expectKind(ctx, v, path, json::Kind::number, "an integer")) return false;
    if (!json::toUint32(v, out)) {
        ctx.error(path, v.pos, "expected an integer in [0, 4294967295], found " + v.text);
        return false;
    }
    return true;
}

bool readBool(ReadContext& ctx, const json::Value& v, const std::string& path, bool& out) {
    ctx.record(path, v.pos);
    if (!expectKind(ctx, v, path, json::Kind::boolean, "true or false")) return false;
    out = v.boolean;
    return true;
}

bool readString(ReadContext& ctx, const json::Value& v, const std::string& path, std::string& out) {
    ctx.record(path, v.pos);
    if (!expectKind(ctx, v, path, json::Kind::string, "a string")) return false;
    // Every string of the formats is a name, a path or an enum spelling. JSON lets a document
    // escape any control character ("\u0000"); kept, a NUL would silently cut a path where the
    // operating system reads it, and the others name nothing either.
    if (const std::string found = findControlCharacter(v.text); !found.empty()) {
        ctx.error(path, v.pos,
                  "expected a string without control characters, found " + found + " of " +
                      describe(v));
        return false;
    }
    out = v.text;
    return true;
}

bool readFloats(ReadContext& ctx, const json::Value& v, const std::string& path, float* out,
                size_t count, const char* form, bool record_elements) {
    ctx.record(path, v.pos);
    if (v.kind != json::Kind::array || v.items.size() != count) {
        ctx.error(path, v.pos, std::string("expected ") + form + ", found " + describe(v));
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < count; ++i) {
        float f = 0;
        const std::string element = json::pathIndex(path, i);
        if (record_elements) ctx.record(element, v.items[i].pos);
        if (convertFloat(ctx, v.items[i], element, f)) {
            out[i] = f;
        } else {
            ok = false;
        }
    }
    return ok;
}

bool readFloat3(ReadContext& ctx, const json::Value& v, const std::string& path, Float3& out) {
    float f[3];
    if (!readFloats(ctx, v, path, f, 3, "[x, y, z]")) return false;
    out = {f[0], f[1], f[2]};
    return true;
}

bool readFloat4(ReadContext& ctx, const json::Value& v, const std::string& path, Float4& out) {
    float f[4];
    if (!readFloats(ctx, v, path, f, 4, "[r, g, b, a]")) return false;
    out = {f[0], f[1], f[2], f[3]};
    return true;
}

bool readRange(ReadContext& ctx, const json::Value& v, const std::string& path, FloatRange& out) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::number) {
        float f = 0;
        if (!readFloat(ctx, v, path, f)) return false;
        out = {f, f};
        return true;
    }
    if (v.kind == json::Kind::array && v.items.size() == 2) {
        float f[2];
        if (!readFloats(ctx, v, path, f, 2, "[min, max]")) return false;
        out = {f[0], f[1]};
        return true;
    }
    ctx.error(path, v.pos, "expected a number or [min, max], found " + describe(v));
    return false;
}

bool readRange(ReadContext& ctx, const json::Value& v, const std::string& path, Float3Range& out) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::array && v.items.size() == 3) {
        Float3 f;
        if (!readFloat3(ctx, v, path, f)) return false;
        out = {f, f};
        return true;
    }
    if (v.kind == json::Kind::array && v.items.size() == 2) {
        Float3 lo, hi;
        const bool ok_lo = readFloat3(ctx, v.items[0], json::pathIndex(path, 0), lo);
        const bool ok_hi = readFloat3(ctx, v.items[1], json::pathIndex(path, 1), hi);
        if (!ok_lo || !ok_hi) return false;
        out = {lo, hi};
        return true;
    }
    ctx.error(path, v.pos, "expected [x, y, z] or [[x, y, z], [x, y, z]], found " + describe(v));
    return false;
}

bool readRange(ReadContext& ctx, const json::Value& v, const std::string& path, CountRange& out) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::number) {
        uint32_t u = 0;
        if (!readUint(ctx, v, path, u)) return false;
        out = {u, u};
        return true;
    }
    if (v.kind == json::Kind::array && v.items.size() == 2) {
        uint32_t lo = 0, hi = 0;
        const bool ok_lo = readUint(ctx, v.items[0], json::pathIndex(path, 0), lo);
        const bool ok_hi = readUint(ctx, v.items[1], json::pathIndex(path, 1), hi);
        if (!ok_lo || !ok_hi) return false;
        out = {lo, hi};
        return true;
    }
    ctx.error(path, v.pos, "expected an integer or [min, max], found " + describe(v));
    return false;
}

bool readCurve(ReadContext& ctx, const json::Value& v, const std::string& path, Curve& out) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::number) {
        float f = 0;
        if (!readFloat(ctx, v, path, f)) return false;
        out = Curve{Interpolation::linear, {{0, f}}};
        return true;
    }
    if (v.kind != json::Kind::object) {
        ctx.error(path, v.pos,
                  "expected a number or a curve {\"interpolation\", \"keys\"}, found " +
                      describe(v));
        return false;
    }
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"interpolation", "keys"});
    Curve curve;
    readField(in, "interpolation", curve.interpolation);
    if (const json::Value* keys = in.member("keys")) {
        readKeyRows(ctx, *keys, in.childPath("keys"), {1, kMaxCurveKeys, "curve keys"}, curve.keys,
                    2, "[t, value]", [](const float* row) {
                        return CurveKey{row[0], row[1]};
                    });
    }
    out = std::move(curve);
    return true;
}

bool readGradient(ReadContext& ctx, const json::Value& v, const std::string& path, Gradient& out) {
    if (!expectObject(ctx, v, path)) return false;
    const ObjectIn in{ctx, v, path};
    checkKeys(in, {"interpolation", "color_keys", "alpha_keys"});
    Gradient gradient;
    readField(in, "interpolation", gradient.interpolation);
    if (const json::Value* keys = in.member("color_keys")) {
        readKeyRows(ctx, *keys, in.childPath("color_keys"), {1, kMaxGradientKeys, "colour keys"},
                    gradient.color_keys, 4, "[t, r, g, b]", [](const float* row) {
                        return ColorKey{row[0], {row[1], row[2], row[3]}};
                    });
    }
    if (const json::Value* keys = in.member("alpha_keys")) {
        readKeyRows(ctx, *keys, in.childPath("alpha_keys"), {1, kMaxGradientKeys, "alpha keys"},
                    gradient.alpha_keys, 2, "[t, alpha]", [](const float* row) {
                        return AlphaKey{row[0], row[1]};
                    });
    }
    out = std::move(gradient);
    return true;
}

} // namespace spindrift
