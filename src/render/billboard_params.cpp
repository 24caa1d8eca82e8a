#include "render/billboard_params.h"

#include <algorithm>

#include "kernels/transform.h"

namespace spindrift::render {

BillboardParams billboardParams(const EmitterRecord& emitter, const Rows3x4& world_from_effect) {
    Rows3x4 parent_from_emitter;
    parent_from_emitter.rows[0] = emitter.transform_row0;
    parent_from_emitter.rows[1] = emitter.transform_row1;
    parent_from_emitter.rows[2] = emitter.transform_row2;
    Rows3x4 world_from_emitter = composeTransforms(world_from_effect, parent_from_emitter);
    const vec4* m = world_from_emitter.rows;
    vec3 axis = sdTransformVector(m[0], m[1], m[2], vec3(emitter.axis));
    float axis_length = length(axis);
    axis = axis_length > 1.0e-12f ? axis / axis_length : vec3(0.0f, 1.0f, 0.0f);

    BillboardParams p{};
    p.axis_stretch = vec4(axis, emitter.axis.w);
    p.alignment = emitter.alignment;
    p.blend = emitter.blend;
    p.render_flags = emitter.render_flags;
    p.flipbook_frames = std::max(emitter.flipbook_frames, 1u);
    p.flipbook_columns = std::max(emitter.flipbook_columns, 1u);
    p.flipbook_rows = std::max(emitter.flipbook_rows, 1u);
    p.soft_fade_distance = emitter.soft_fade_distance;
    p.textured = 0;
    p.emissive = emitter.emission.x;
    p.emissive_share = emitter.emission.y;
    p.distortion = emitter.emission.z;
    return p;
}

} // namespace spindrift::render
