// saveScene: the canonical text. Keys in scene_desc.h field order (the tables of
// scene_fields.h); a key whose value equals the documented default is left out (required keys
// never are). The camera writes the keys of its mode only, and a primitive those of its type,
// which is why validateScene requires the other mode's or type's fields to keep their defaults.
#include <array>

#include "authoring/field_writer.h"
#include "scene/scene_enum_names.h"
#include "scene/scene_fields.h"

namespace spindrift {

// The scene format's codecs (scene_fields.h), writing half.

template <typename F>
void writeCodec(json::DocumentWriter& out, const F& f, const Float3& value, const Float3&,
                const CameraDesc& camera, LookAtCodec) {
    if (camera.mode != CameraMode::orbit) out.req(f.key, value);
}

template <typename F>
void writeCodec(json::DocumentWriter& out, const F& f, const CameraOrbit& orbit,
                const CameraOrbit& default_orbit, const CameraDesc& camera, OrbitCodec) {
    // The key's presence is the mode, so it is written even when every setting is default.
    if (camera.mode == CameraMode::orbit) {
        out.objectMember(f.key, [&] { writeFields(out, orbit, default_orbit); });
    }
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const Resolution& r, const Resolution& d,
                const O&, ResolutionCodec) {
    if (r == d) return;
    out.key(f.key);
    out.integerPair(r.width, r.height);
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const std::optional<MotionPath>& path,
                const std::optional<MotionPath>&, const O&, MotionPathCodec) {
    if (path) out.objectMember(f.key, [&] { writeFields(out, *path, MotionPath{}); });
}

template <typename F, typename O>
void writeCodec(json::DocumentWriter& out, const F& f, const std::vector<MotionKey>& keys,
                const std::vector<MotionKey>&, const O&, MotionKeysCodec) {
    out.rows(f.key, keys, [](const MotionKey& k) {
        return std::array{k.t, k.offset.x, k.offset.y, k.offset.z};
    });
}

// A primitive writes the keys of its type only.
void writeFields(json::DocumentWriter& out, const PrimitiveDesc& p, const PrimitiveDesc& d) {
    forEachField(fieldsOf(FieldsOf<PrimitiveDesc>{}), [&](const auto& f) {
        if (f.appliesTo(p.type)) writeOneField(out, f, p, d);
    });
}

// A light writes the keys of its type only.
void writeFields(json::DocumentWriter& out, const LightDesc& light, const LightDesc& d) {
    forEachField(fieldsOf(FieldsOf<LightDesc>{}), [&](const auto& f) {
        if (f.appliesTo(light.type)) writeOneField(out, f, light, d);
    });
}

std::string saveScene(const SceneDesc& scene) {
    return saveDocument(scene);
}

} // namespace spindrift
