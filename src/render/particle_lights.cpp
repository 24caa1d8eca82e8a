#include "render/particle_lights.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace spindrift::render {

namespace {

vec3 lightColor(const DrawRecord& r) {
    return vec3(r.color) * r.color.w;
}

// Usable as a light: some light, every number finite.
bool emits(const DrawRecord& r) {
    const vec3 c = lightColor(r);
    const bool finite = std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z) &&
                        std::isfinite(r.position_size.x) && std::isfinite(r.position_size.y) &&
                        std::isfinite(r.position_size.z);
    return finite && c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x + c.y + c.z > 0;
}

float selectKey(const DrawRecord& r, uint32_t select) {
    if (select == kParticleLightOldest) return r.normalized_age;
    const vec3 c = lightColor(r);
    return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

LightDesc lightOf(const DrawRecord& r, const ParticleLightRecord& settings) {
    LightDesc l;
    l.type = LightKind::point;
    l.position = {r.position_size.x, r.position_size.y, r.position_size.z};
    const vec3 c = lightColor(r);
    l.color = {c.x, c.y, c.z};
    l.intensity = settings.intensity;
    l.range = settings.range_m;
    return l;
}

struct Candidate {
    float key;
    uint32_t index;
};

// Better: a larger key, or the same key and an earlier record.
bool better(const Candidate& a, const Candidate& b) {
    return a.key > b.key || (a.key == b.key && a.index < b.index);
}

} // namespace

void appendParticleLights(const ParticleLightRecord& settings, std::span<const DrawRecord> records,
                          std::vector<LightDesc>& out) {
    const uint32_t count = std::min(settings.count, kMaxParticleLights);
    if (count == 0 || records.empty()) return;
    if (settings.select == kParticleLightEveryKth) {
        const size_t k = std::max<uint32_t>(settings.every_k, 1u);
        uint32_t made = 0;
        for (size_t i = 0; i < records.size() && made < count; i += k) {
            if (!emits(records[i])) continue;
            out.push_back(lightOf(records[i], settings));
            ++made;
        }
        return;
    }
    // A min-heap (by `better`) of the best `count` so far: its top is the worst kept, replaced
    // when a better record comes.
    std::array<Candidate, kMaxParticleLights> heap{};
    size_t size = 0;
    for (size_t i = 0; i < records.size(); ++i) {
        if (!emits(records[i])) continue;
        const Candidate c{selectKey(records[i], settings.select), static_cast<uint32_t>(i)};
        if (!std::isfinite(c.key)) continue;
        if (size < count) {
            heap[size++] = c;
            std::push_heap(heap.begin(), heap.begin() + size, better);
        } else if (better(c, heap[0])) {
            std::pop_heap(heap.begin(), heap.begin() + size, better);
            heap[size - 1] = c;
            std::push_heap(heap.begin(), heap.begin() + size, better);
        }
    }
    std::sort(heap.begin(), heap.begin() + size, better);
    for (size_t i = 0; i < size; ++i) out.push_back(lightOf(records[heap[i].index], settings));
}

} // namespace spindrift::render
