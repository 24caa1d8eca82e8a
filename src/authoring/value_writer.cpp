#include "authoring/value_writer.h"

#include <array>

namespace spindrift {

void putValue(json::DocumentWriter& out, const Float3& v) {
    out.inlineArray({v.x, v.y, v.z});
}

void putValue(json::DocumentWriter& out, const Float4& v) {
    out.inlineArray({v.x, v.y, v.z, v.w});
}

void putValue(json::DocumentWriter& out, const FloatRange& r) {
    if (r.min == r.max) {
        out.put(r.min);
    } else {
        out.inlineArray({r.min, r.max});
    }
}

void putValue(json::DocumentWriter& out, const Float3Range& r) {
    if (r.min == r.max) {
        out.put(r.min);
        return;
    }
    out.beginArray();
    out.put(r.min);
    out.put(r.max);
    out.endArray();
}

void putValue(json::DocumentWriter& out, const CountRange& r) {
    if (r.min == r.max) {
        out.put(r.min);
    } else {
        out.integerPair(r.min, r.max);
    }
}

void putValue(json::DocumentWriter& out, const Curve& c) {
    if (c.interpolation == Interpolation::linear && c.keys.size() == 1 && c.keys[0].t == 0) {
        out.put(c.keys[0].value);
        return;
    }
    const Curve d;
    out.beginObject();
    out.opt("interpolation", c.interpolation, d.interpolation);
    if (!(c.keys == d.keys)) {
        out.rows("keys", c.keys, [](const CurveKey& k) { return std::array{k.t, k.value}; });
    }
    out.endObject();
}

void putValue(json::DocumentWriter& out, const Gradient& g) {
    const Gradient d;
    out.beginObject();
    out.opt("interpolation", g.interpolation, d.interpolation);
    if (!(g.color_keys == d.color_keys)) {
        out.rows("color_keys", g.color_keys, [](const ColorKey& k) {
            return std::array{k.t, k.color.x, k.color.y, k.color.z};
        });
    }
    if (!(g.alpha_keys == d.alpha_keys)) {
        out.rows("alpha_keys", g.alpha_keys, [](const AlphaKey& k) {
            return std::array{k.t, k.alpha};
        });
    }
    out.endObject();
}

} // namespace spindrift
