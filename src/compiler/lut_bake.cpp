#include "compiler/lut_bake.h"

#include <cstring>

namespace spindrift {
namespace {

// The weight of the right key for a fraction f in [0, 1] between two keys.
float segmentWeight(Interpolation interpolation, float f) {
    switch (interpolation) {
    case Interpolation::smooth:
        return f * f * (3.0f - 2.0f * f);
    case Interpolation::step:
        return 0.0f;
    case Interpolation::linear:
        break;
    }
    return f;
}

// Finds the segment around t in a key list with strictly increasing key_t(i) and returns the
// left key index and the interpolation weight of the key after it (0 when t is outside).
template <typename KeyTime>
void locate(uint32_t key_count, KeyTime key_t, Interpolation interpolation, float t, uint32_t& left,
            float& weight) {
    left = 0;
    weight = 0.0f;
    if (key_count == 0 || t <= key_t(0)) return;
    if (t >= key_t(key_count - 1)) {
        left = key_count - 1;
        return;
    }
    while (left + 1 < key_count && key_t(left + 1) <= t) ++left;
    const float t0 = key_t(left);
    const float t1 = key_t(left + 1);
    weight = segmentWeight(interpolation, (t - t0) / (t1 - t0));
}

// a * (1 - w) + b * w rather than a + (b - a) * w: b - a can overflow for finite keys of
// opposite sign near the float limit.
float mix(float a, float b, float w) {
    return a * (1.0f - w) + b * w;
}

} // namespace

float lutTexelTime(uint32_t texel) {
    return static_cast<float>(texel) / static_cast<float>(kLutWidth - 1);
}

float evaluateCurve(const Curve& curve, float t) {
    const auto& keys = curve.keys;
    if (keys.empty()) return 0.0f;
    uint32_t left = 0;
    float weight = 0.0f;
    locate(
        static_cast<uint32_t>(keys.size()), [&](uint32_t i) { return keys[i].t; },
        curve.interpolation, t, left, weight);
    if (weight == 0.0f) return keys[left].value;
    return mix(keys[left].value, keys[left + 1].value, weight);
}

vec4 evaluateGradient(const Gradient& gradient, float t) {
    vec4 out(1.0f, 1.0f, 1.0f, 1.0f);
    const auto& ck = gradient.color_keys;
    if (!ck.empty()) {
        uint32_t left = 0;
        float w = 0.0f;
        locate(
            static_cast<uint32_t>(ck.size()), [&](uint32_t i) { return ck[i].t; },
            gradient.interpolation, t, left, w);
        const Float3& a = ck[left].color;
        const Float3& b = w == 0.0f ? a : ck[left + 1].color;
        out.x = mix(a.x, b.x, w);
        out.y = mix(a.y, b.y, w);
        out.z = mix(a.z, b.z, w);
    }
    const auto& ak = gradient.alpha_keys;
    if (!ak.empty()) {
        uint32_t left = 0;
        float w = 0.0f;
        locate(
            static_cast<uint32_t>(ak.size()), [&](uint32_t i) { return ak[i].t; },
            gradient.interpolation, t, left, w);
        const float a = ak[left].alpha;
        out.w = w == 0.0f ? a : mix(a, ak[left + 1].alpha, w);
    }
    return out;
}

LutRow bakeCurve(const Curve& curve, float scale) {
    LutRow row{};
    for (uint32_t i = 0; i < kLutWidth; ++i) {
        row[i] = vec4(evaluateCurve(curve, lutTexelTime(i)) * scale, 0.0f, 0.0f, 0.0f);
    }
    return row;
}

LutRow bakeGradient(const Gradient& gradient) {
    LutRow row{};
    for (uint32_t i = 0; i < kLutWidth; ++i) row[i] = evaluateGradient(gradient, lutTexelTime(i));
    return row;
}

uint32_t addLutRow(std::vector<vec4>& atlas, const LutRow& row) {
    const size_t rows = atlas.size() / kLutWidth;
    for (size_t r = 0; r < rows; ++r) {
        if (std::memcmp(atlas.data() + r * kLutWidth, row.data(), sizeof(LutRow)) == 0) {
            return static_cast<uint32_t>(r);
        }
    }
    atlas.insert(atlas.end(), row.begin(), row.end());
    return static_cast<uint32_t>(rows);
}

} // namespace spindrift
