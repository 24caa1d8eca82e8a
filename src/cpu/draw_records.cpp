#include "cpu/draw_records.h"

#include "cpu/particle_appearance.h"

namespace spindrift::cpu {

uint64_t writeDrawRecords(const CpuEffect& fx, DrawRecord* out) {
    const CompiledEffect& effect = *fx.effect;
    const Rows3x4 world_from_sim = worldFromSim(fx.world_from_effect, effect.effect.space);
    const vec4* rows = world_from_sim.rows;
    const LutRef lut = lutRef(effect);
    const OpRecordsRef ops = opRecordsRef(effect);
    uint64_t written = 0;
    for (uint32_t e = 0; e < fx.pools.size(); ++e) {
        const EmitterRecord& emitter = effect.emitters[e];
        const ParticlePool& pool = fx.pools[e];
        for (uint32_t i = 0; i < pool.count; ++i) {
            out[written++] = sdParticleDrawRecord(lut, ops, emitter, e, rows[0], rows[1], rows[2],
                                                  storedParticle(pool, i));
        }
    }
    return written;
}

} // namespace spindrift::cpu
