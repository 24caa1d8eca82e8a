// Before the alive list of an emitter is sorted by slot (src/gpu/alive_list_order.h): the entries
// past its live count, up to the dispatch's bound (push.params.z), get the largest key, so the
// sort of `bound` entries leaves every live slot first, in ascending order.
#version 460
#extension GL_GOOGLE_include_directive : require

#include "gpu_sim.glsl"

void main() {
    GpuEmitterPool pool = emitterPool();
    uint list = push.params.y;
    uint e = emitterIndex();
    uint alive = list == 0u ? countersRef().counters[e].alive0 : countersRef().counters[e].alive1;
    UintColumn entries = uintColumn(pool, kGpuColumnAlive0 + list);
    for (uint i = alive + gl_GlobalInvocationID.x; i < push.params.z; i += gridStride()) {
        entries.v[i] = 0xffffffffu;
    }
}
