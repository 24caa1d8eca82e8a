// The renderer's draw-argument pass: a billboard, strip or mesh batch whose records stay on the
// device (a GPU simulation's) is drawn with vkCmdDrawIndirect; this writes its arguments from the
// live count the simulation left on the device, so the host never reads the count back.
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require

#include "billboard.h"

layout(local_size_x = 1) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer CountRef {
    uint count;
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer ArgsRef {
    uint vertex_count;
    uint instance_count;
    uint first_vertex;
    uint first_instance;
};
layout(push_constant, std430) uniform Push { DrawArgsPush pc; };

void main() {
    uint live = CountRef(pc.count).count;
    uint records = min(live, pc.max_records);
    ArgsRef args = ArgsRef(pc.args);
    bool instanced = pc.instanced != 0u;
    args.vertex_count = instanced ? pc.vertices_per_record : records * pc.vertices_per_record;
    args.instance_count = instanced ? records : 1u;
    args.first_vertex = 0u;
    args.first_instance = 0u;
}
