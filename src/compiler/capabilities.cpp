#include "compiler/capabilities.h"

namespace spindrift {
namespace {

std::string emitterPath(uint32_t source_index) {
    return "$.emitters[" + std::to_string(source_index) + "]";
}

std::string modulePath(uint32_t source_index, uint32_t module) {
    return emitterPath(source_index) + ".update[" + std::to_string(module) + "]";
}

void addOpUses(const OpRecord& op, uint32_t source_index, std::vector<FeatureUse>& uses) {
    const std::string path = modulePath(source_index, op.source_module);
    switch (op.op) {
    case kOpCurlNoise:
        uses.push_back({Feature::curl_noise, path});
        break;
    case kOpForceFields:
        uses.push_back({Feature::force_fields, path});
        break;
    case kOpAttractor:
        uses.push_back({Feature::attractors, path});
        break;
    case kOpCollision:
        if (op.count > 0) uses.push_back({Feature::collider_collision, path});
        if ((op.flags & kOpFlagDepthBuffer) != 0) {
            uses.push_back({Feature::depth_buffer_collision, path + ".depth_buffer"});
        }
        break;
    default:
        break;
    }
}

} // namespace

FeatureSet backendFeatures(Backend backend) {
    return backend == Backend::cpu ? kCpuFeatures : kGpuFeatures;
}

FeatureSet preferableFeatures(Backend backend) {
    return backend == Backend::cpu ? kCpuPreferableFeatures : kGpuPreferableFeatures;
}

std::string_view backendName(Backend backend) {
    return backend == Backend::cpu ? "cpu" : "gpu";
}

std::string_view featureName(Feature feature) {
    switch (feature) {
    case Feature::curl_noise:
        return "curl_noise";
    case Feature::force_fields:
        return "force_fields";
    case Feature::attractors:
        return "attractors";
    case Feature::collider_collision:
        return "collider_collision";
    case Feature::depth_buffer_collision:
        return "depth_buffer_collision";
    case Feature::sub_emitters:
        return "sub_emitters";
    case Feature::ribbon_render:
        return "ribbon_render";
    case Feature::beam_render:
        return "beam_render";
    case Feature::mesh_render:
        return "mesh_render";
    case Feature::mesh_shape:
        return "mesh_shape";
    case Feature::sorting:
        return "sorting";
    case Feature::stable_order:
        return "stable_order";
    case Feature::lit:
        return "lit";
    case Feature::soft_fade:
        return "soft_fade";
    case Feature::frame_blend:
        return "frame_blend";
    case Feature::overflow_replace_oldest:
        return "overflow_replace_oldest";
    case Feature::gameplay_events:
        return "gameplay_events";
    case Feature::threshold_sub_emitters:
        return "threshold_sub_emitters";
    }
    return "unknown";
}

std::vector<FeatureUse> emitterFeatureUses(const CompiledEffect& effect, uint32_t emitter_index) {
    std::vector<FeatureUse> uses;
    if (emitter_index >= effect.emitters.size()) return uses;
    const EmitterRecord& e = effect.emitters[emitter_index];
    const std::string path = emitterPath(e.source_index);
    if (e.shape_kind == kShapeMesh) uses.push_back({Feature::mesh_shape, path + ".shape.type"});
    for (uint64_t i = e.op_first; i < uint64_t{e.op_first} + e.op_count && i < effect.ops.size();
         ++i) {
        addOpUses(effect.ops[i], e.source_index, uses);
    }
    if (e.render_type == kRenderRibbon)
        uses.push_back({Feature::ribbon_render, path + ".render.type"});
    if (e.render_type == kRenderBeam) uses.push_back({Feature::beam_render, path + ".render.type"});
    if (e.render_type == kRenderMesh) uses.push_back({Feature::mesh_render, path + ".render.type"});
    if (e.sort != kSortNone) uses.push_back({Feature::sorting, path + ".render.sort"});
    if ((e.render_flags & kRenderFlagStableOrder) != 0) {
        uses.push_back({Feature::stable_order, path + ".render.stable_order"});
    }
    if ((e.render_flags & kRenderFlagLit) != 0)
        uses.push_back({Feature::lit, path + ".render.lit"});
    if (e.soft_fade_distance > 0.0f) {
        uses.push_back({Feature::soft_fade, path + ".render.soft_fade_distance"});
    }
    if ((e.render_flags & kRenderFlagFrameBlend) != 0) {
        uses.push_back({Feature::frame_blend, path + ".render.flipbook.frame_blend"});
    }
    if (e.sub_emitter_count > 0) uses.push_back({Feature::sub_emitters, path + ".sub_emitters"});
    if (e.overflow == kOverflowReplaceOldest) {
        uses.push_back({Feature::overflow_replace_oldest, path + ".overflow"});
    }
    if (emitterEvents(effect, emitter_index).kinds != 0)
        uses.push_back({Feature::gameplay_events, path + ".events"});
    for (uint64_t l = e.sub_emitter_first;
         l < uint64_t{e.sub_emitter_first} + e.sub_emitter_count && l < effect.sub_emitters.size();
         ++l) {
        if (effect.sub_emitters[l].event != kEventThreshold) continue;
        uses.push_back({Feature::threshold_sub_emitters,
                        path + ".sub_emitters[" + std::to_string(l - e.sub_emitter_first) + "]"});
        break;
    }
    return uses;
}

std::vector<EmitterBackends> checkBackends(const CompiledEffect& effect) {
    std::vector<EmitterBackends> out;
    for (uint32_t i = 0; i < effect.emitters.size(); ++i) {
        const EmitterRecord& e = effect.emitters[i];
        EmitterBackends entry;
        entry.emitter_index = i;
        entry.source_index = e.source_index;
        entry.name = std::string(stringAt(effect, e.name_offset, e.name_length));
        const std::vector<FeatureUse> uses = emitterFeatureUses(effect, i);
        for (uint32_t b = 0; b < kBackendKinds; ++b) {
            BackendVerdict& verdict = entry.backends[b];
            verdict.backend = static_cast<Backend>(b);
            const FeatureSet have = backendFeatures(verdict.backend);
            for (const FeatureUse& use : uses) {
                if (use.feature == Feature::depth_buffer_collision) {
                    verdict.notes.push_back(
                        verdict.backend == Backend::cpu
                            ? "cpu collides depth_buffer with the scene depth the host gives the "
                              "world (World::setSceneDepth; spindrift render: the previous "
                              "frame's) and with its colliders and distance field; without one, "
                              "with those only: " +
                                  use.path
                            : "gpu collides depth_buffer with the scene depth on its device (the "
                              "renderer's previous frame, or World::setSceneDepth's copy) and "
                              "with the world's colliders; without one, with the colliders "
                              "only: " +
                                  use.path);
                }
                if ((have & static_cast<FeatureSet>(use.feature)) != 0) continue;
                verdict.can_run = false;
                verdict.reasons.push_back(std::string(backendName(verdict.backend)) + " lacks " +
                                          std::string(featureName(use.feature)) + ": " + use.path);
            }
            // Particle lights are chosen from the host's draw records (render/particle_lights.h);
            // a GPU emitter's records stay on the device, so it runs but lights nothing yet.
            if (verdict.backend == Backend::gpu && particleLights(effect, i).count > 0) {
                verdict.notes.push_back(
                    "gpu keeps its particles on the device: render.lights makes no lights there "
                    "yet (a cpu-simulated instance of the emitter does): " +
                    emitterPath(e.source_index) + ".render.lights");
            }
        }
        out.push_back(std::move(entry));
    }
    return out;
}

} // namespace spindrift
