#include "render/strip_params.h"

#include <algorithm>

#include "kernels/transform.h"

namespace spindrift::render {

StripParams stripParams(const EmitterRecord& emitter) {
    StripParams p{};
    p.blend = emitter.blend;
    p.render_flags = emitter.render_flags;
    p.soft_fade_distance = emitter.soft_fade_distance;
    p.textured = 0;
    p.emissive = emitter.emission.x;
    p.emissive_share = emitter.emission.y;
    return p;
}

BeamCurve beamCurve(const EmitterRecord& emitter, const Rows3x4& world_from_effect) {
    Rows3x4 parent_from_emitter;
    parent_from_emitter.rows[0] = emitter.transform_row0;
    parent_from_emitter.rows[1] = emitter.transform_row1;
    parent_from_emitter.rows[2] = emitter.transform_row2;
    const Rows3x4 world_from_emitter = composeTransforms(world_from_effect, parent_from_emitter);
    const vec3 start(emitter.beam_start);
    const vec3 end(emitter.beam_end);
    const vec4* m = world_from_emitter.rows;
    auto world = [&](vec3 p) { return sdTransformPoint(m[0], m[1], m[2], p); };

    BeamCurve c{};
    c.start_width = vec4(world(start), emitter.beam_start.w);
    c.control1_sag = vec4(world(start + vec3(emitter.beam_start_tangent)), emitter.beam_end.w);
    c.control2_jitter =
        vec4(world(end + vec3(emitter.beam_end_tangent)), emitter.beam_start_tangent.w);
    c.end_frequency = vec4(world(end), emitter.beam_end_tangent.w);
    c.segments = std::max(emitter.beam_segments, 1u);
    return c;
}

} // namespace spindrift::render
