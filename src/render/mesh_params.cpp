#include "render/mesh_params.h"

namespace spindrift::render {

MeshParams meshParams(const EmitterRecord& emitter) {
    MeshParams p{};
    p.blend = emitter.blend;
    p.render_flags = emitter.render_flags;
    p.scale = emitter.mesh_scale;
    p.tumble_rad_per_s = emitter.mesh_tumble_rad_per_s;
    p.lifetime_min_s = emitter.lifetime_min_s;
    p.lifetime_max_s = emitter.lifetime_max_s;
    p.vertex_count = 0;
    p.emissive = emitter.emission.x;
    p.emissive_share = emitter.emission.y;
    return p;
}

} // namespace spindrift::render
