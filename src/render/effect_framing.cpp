// Measures the box an effect is drawn in by playing it through the public runtime (DESIGN rule
// 9), on the CPU backend: deterministic, so `spindrift render EFFECT` frames it the same on every
// machine, and cheap (one instance, stepped once up to the last sample time).
#include "render/effect_framing.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "render/scene_player.h"
#include "runtime/effect_library_impl.h"
#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"

namespace spindrift::render {

namespace {

// The per-axis lower and upper edges of what one sample time draws.
struct Edges {
    std::vector<float> lo[3], hi[3];
    void clear() {
        for (int a = 0; a < 3; ++a) {
            lo[a].clear();
            hi[a].clear();
        }
    }
    float ground_y = 0;
    void add(const Vec3& p, const float radius[3]) {
        if (p.y + radius[1] < ground_y) return; // hidden below the ground
        const float v[3] = {p.x, p.y, p.z};
        for (int a = 0; a < 3; ++a) {
            lo[a].push_back(v[a] - radius[a]);
            hi[a].push_back(v[a] + radius[a]);
        }
    }
    void add(const Vec3& p, float radius) {
        const float r[3] = {radius, radius, radius};
        add(p, r);
    }
};

float quantile(std::vector<float>& values, float q) {
    const size_t k = std::min(values.size() - 1,
                              size_t(std::floor(double(q) * double(values.size() - 1) + 0.5)));
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(k), values.end());
    return values[k];
}

float visibility(DrawBlend blend, const Color& c) {
    if (blend != DrawBlend::additive) return c.a;
    return c.a * std::max({c.r, c.g, c.b});
}

void gatherEdges(const DrawList& list, float min_visibility, Edges& edges) {
    for (const spindrift::DrawBatch& batch : list.batches()) {
        for (const DrawParticle& p : batch.particles) {
            if (!(visibility(batch.blend, p.color) >= min_visibility)) continue;
            float radius = 0.5f * p.size_m;
            if (batch.kind == DrawKind::meshes) {
                radius = p.size_m * batch.mesh_scale;
            } else if (batch.alignment == DrawAlignment::velocity_stretch) {
                const Vec3& v = p.velocity_m_per_s;
                const float speed = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
                radius = 0.5f * (p.size_m + speed * batch.stretch_s);
            }
            if (!std::isfinite(radius)) continue;
            if (batch.kind == DrawKind::billboards && batch.alignment == DrawAlignment::fixed) {
                // A decal lies in the plane across its axis: along world axis k it reaches
                // radius x sqrt(1 - axis_k^2) (0 along the axis itself: a decal on the ground
                // adds no height).
                const float n[3] = {batch.axis.x, batch.axis.y, batch.axis.z};
                float r[3];
                for (int k = 0; k < 3; ++k)
                    r[k] = radius * std::sqrt(std::max(0.0f, 1.0f - n[k] * n[k]));
                edges.add(p.position, r);
            } else {
                edges.add(p.position, radius);
            }
        }
        for (const DrawStripPoint& point : batch.vertices) {
            if (!(visibility(batch.blend, point.color) >= min_visibility)) continue;
            edges.add(point.position, 0.5f * point.width_m);
        }
    }
}

} // namespace

bool measureDrawnBounds(const std::string& path, Bounds& out, std::vector<Diagnostic>& diagnostics,
                        const FramingConfig& config) {
    EffectLibrary library;
    const EffectId id = library.add(path);
    const bool compiled = library.compile(id) == RuntimeError::none;
    if (!compiled) {
        EffectInfo info;
        library.info(id, info);
        diagnostics.insert(diagnostics.end(), info.diagnostics.begin(), info.diagnostics.end());
        return false;
    }
    const CompiledEffect& effect = *library.impl().entry(id)->effect;

    WorldConfig world_config;
    world_config.backend = SimulationBackend::cpu;
    world_config.threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    World world(library, world_config);
    InstanceDesc desc;
    desc.effect = id;
    desc.flags = 0; // driven by advanceTo
    InstanceHandle handle;
    if (world.create(desc, handle) != RuntimeError::none) {
        diagnostics.push_back({Severity::error, path, 0, 0, 0, "", world.lastErrorMessage()});
        return false;
    }

    // The scene's length (defaultSceneForEffect) cut to where the effect has shown everything.
    const double duration = std::clamp(double(effect.effect.duration_s), 0.1, 3600.0);
    const double shown = std::max(double(developedTime(effect)), double(longestChainTime(effect)));
    const double span = std::min({duration, std::max(shown, 0.1), double(config.max_span_s)});

    DrawView view;
    view.eye = {0, 0, 1000}; // only the order of the list depends on it
    DrawList list;
    Edges edges;
    edges.ground_y = config.ground_y;
    bool any = false;
    float lo[3] = {}, hi[3] = {};
    const uint32_t samples = std::max(config.samples, 1u);
    for (uint32_t i = 0; i < samples; ++i) {
        const double t = span * (i + 0.5) / samples;
        if (world.advanceTo(handle, t) != RuntimeError::none ||
            world.drawList(view, list) != RuntimeError::none) {
            diagnostics.push_back({Severity::error, path, 0, 0, 0, "", world.lastErrorMessage()});
            return false;
        }
        edges.clear();
        gatherEdges(list, config.min_visibility, edges);
        if (edges.lo[0].empty()) continue;
        for (int a = 0; a < 3; ++a) {
            const float l = quantile(edges.lo[a], config.low_quantile);
            const float h = quantile(edges.hi[a], config.high_quantile);
            lo[a] = any ? std::min(lo[a], l) : l;
            hi[a] = any ? std::max(hi[a], h) : h;
        }
        any = true;
    }
    if (!any) return false;
    out.center = {0.5f * (lo[0] + hi[0]), 0.5f * (lo[1] + hi[1]), 0.5f * (lo[2] + hi[2])};
    out.half_extents = {0.5f * (hi[0] - lo[0]), 0.5f * (hi[1] - lo[1]), 0.5f * (hi[2] - lo[2])};
    return true;
}

} // namespace spindrift::render
