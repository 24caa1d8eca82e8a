#include "scene/scene_reader.h"

#include "authoring/direction.h"
#include "authoring/field_reader.h"
#include "authoring/rule_checker.h"
#include "scene/scene_enum_names.h"
#include "scene/scene_fields.h"

namespace spindrift {

// The scene format's codecs (scene_fields.h), reading half, and the objects whose reading is more
// than their table's walk. Not in an unnamed namespace: the field walker (field_reader.h) finds
// them by argument-dependent lookup.

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, Float3& out, O&, RgbCodec) {
    float c[3];
    if (readFloats(in.ctx, v, in.childPath(f.key), c, 3, "[r, g, b]")) out = {c[0], c[1], c[2]};
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, Float3& out, O&,
               SunDirectionCodec) {
    const std::string path = in.childPath(f.key);
    Float3 direction;
    if (!readFloat3(in.ctx, v, path, direction)) return;
    if (normalizeDirection(direction)) {
        out = direction;
    } else {
        in.ctx.error(path, v.pos,
                     "expected a non-zero direction, found " + formatFloat3(direction));
    }
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, Resolution& out, O&,
               ResolutionCodec) {
    const std::string path = in.childPath(f.key);
    in.ctx.record(path, v.pos);
    if (v.kind != json::Kind::array || v.items.size() != 2) {
        in.ctx.error(path, v.pos, "expected [width, height], found " + describe(v));
        return;
    }
    Resolution r;
    const bool ok_w = readUint(in.ctx, v.items[0], json::pathIndex(path, 0), r.width);
    const bool ok_h = readUint(in.ctx, v.items[1], json::pathIndex(path, 1), r.height);
    if (ok_w && ok_h) out = r;
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, std::string& out, O&,
               InstanceNameCodec) {
    // An empty name would read back as "no name": absent is the one spelling of that.
    if (readString(in.ctx, v, in.childPath(f.key), out) && out.empty()) {
        in.ctx.error(in.childPath(f.key), v.pos,
                     "expected a name of 1 to " + std::to_string(kMaxNameBytes) +
                         " characters from A-Z a-z 0-9 _ -, found '' (leave the key out for "
                         "no name)");
    }
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, std::vector<MotionKey>& out,
               O&, MotionKeysCodec) {
    readList(in.ctx, v, in.childPath(f.key), f.rule.list, out,
             [&](const json::Value& item, const std::string& p, MotionKey& key) {
                 float k[4];
                 if (readFloats(in.ctx, item, p, k, 4, "[t, x, y, z]")) {
                     key = MotionKey{k[0], {k[1], k[2], k[3]}};
                 }
             });
}

template <typename F, typename O>
void readCodec(const ObjectIn& in, const F& f, const json::Value& v, std::optional<MotionPath>& out,
               O&, MotionPathCodec) {
    out.emplace();
    readValue(in.ctx, v, in.childPath(f.key), *out);
}

// The keys present choose the mode; both forms at once, or neither, is the one mistake.
bool readValue(ReadContext& ctx, const json::Value& v, const std::string& path, CameraDesc& out) {
    if (!expectObject(ctx, v, path)) return false;
    const ObjectIn in{ctx, v, path};
    static constexpr auto kKeys = fieldKeys<CameraDesc>();
    checkKeys(in, std::span<const std::string_view>(kKeys));
    const bool has_look = v.find("position") != nullptr || v.find("target") != nullptr;
    const json::Value* orbit = in.member("orbit");
    if (orbit != nullptr && has_look) {
        ctx.error(in.childPath("orbit"), orbit->pos,
                  "a camera takes either 'position' and 'target' or 'orbit', not both");
    } else if (orbit != nullptr) {
        out.mode = CameraMode::orbit;
        readValue(ctx, *orbit, in.childPath("orbit"), out.orbit);
    } else if (!has_look) {
        ctx.error(path, v.pos, "expected a camera placement: 'position' and 'target', or 'orbit'");
    }
    forEachField(fieldsOf(FieldsOf<CameraDesc>{}), [&](const auto& f) {
        using Codec = typename std::decay_t<decltype(f)>::CodecType;
        if constexpr (std::is_same_v<Codec, LookAtCodec>) {
            // Both are required of a look-at camera.
            if (orbit == nullptr && has_look && requireKey(in, f.key)) {
                readField(in, f.key, out.*f.member);
            }
        } else if constexpr (!std::is_same_v<Codec, OrbitCodec>) {
            readOneField(in, f, out);
        }
    });
    return true;
}

// A type-tagged object (a primitive, a light): the type chooses the keys, and a key of another
// type is an error naming the type ("primitive type 'sphere'").
template <typename T>
bool readTypedObject(ReadContext& ctx, const json::Value& v, const std::string& path, T& out,
                     const char* what) {
    if (!expectObject(ctx, v, path)) return false;
    const ObjectIn in{ctx, v, path};
    static constexpr auto kKeys = fieldKeys<T>();
    checkKeys(in, std::span<const std::string_view>(kKeys));
    if (!requireKey(in, "type") || !readField(in, "type", out.type)) {
        // Without a type nothing can be said about the type's keys: one mistake.
        ctx.reported.insert(path);
        return false;
    }
    const std::string type_text = std::string(what) + " type '" + enumName(out.type) + "'";
    auto applies = [&](std::string_view key) {
        bool known = false, applies_to_type = true;
        forEachField(fieldsOf(FieldsOf<T>{}), [&](const auto& f) {
            if (f.key != key) return;
            known = true;
            applies_to_type = f.appliesTo(out.type);
        });
        return !known || applies_to_type;
    };
    for (size_t i = 0; i < v.keys.size(); ++i) {
        if (applies(v.keys[i])) continue;
        ctx.error(in.childPath(v.keys[i]), v.key_positions[i],
                  "'" + v.keys[i] + "' does not apply to " + type_text);
    }
    forEachField(fieldsOf(FieldsOf<T>{}), [&](const auto& f) {
        if (f.key != "type" && f.appliesTo(out.type)) readOneField(in, f, out);
    });
    return true;
}

// The type chooses the keys: size for a box, radius for a sphere.
bool readValue(ReadContext& ctx, const json::Value& v, const std::string& path,
               PrimitiveDesc& out) {
    return readTypedObject(ctx, v, path, out, "primitive");
}

// The type chooses the keys: direction and the cone angles for a spot.
bool readValue(ReadContext& ctx, const json::Value& v, const std::string& path, LightDesc& out) {
    return readTypedObject(ctx, v, path, out, "light");
}

bool readScene(ReadContext& ctx, const json::Value& root, SceneDesc& out) {
    return readDocument(ctx, root, out);
}

} // namespace spindrift
