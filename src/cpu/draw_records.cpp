#include "cpu/draw_records.h"

#include "cpu/particle_appearance.h"

namespace spindrift::cpu {

uint64_t writeDrawRecords(const CpuEffect& fx, DrawRecord* out) {
    const CompiledEffect& effect = *fx.effect;
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, effect.effect.space);
    uint64_t written = 0;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        const ParticlePool& pool = fx.pools[e];
        for (uint32_t i = 0; i < pool.count; ++i) {
            const vec3 position(pool.position_x[i], pool.position_y[i], pool.position_z[i]);
            const vec3 velocity(pool.velocity_x[i], pool.velocity_y[i], pool.velocity_z[i]);
            const ParticleAppearance look = particleAppearance(effect, emitter, pool, i);
            const float age_n = look.normalized_age;
            const vec4 color = look.color;
            const float size = look.size;
            out[written++] =
                sdDrawRecord(transformPoint(world_from_sim, position), size, color,
                             transformVector(world_from_sim, velocity), pool.rotation_rad[i], age_n,
                             sdFlipbookFrame(emitter, age_n, pool.key[i]), e, pool.key[i]);
        }
    }
    return written;
}

} // namespace spindrift::cpu
