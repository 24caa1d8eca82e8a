#include "cpu/draw_records.h"

#include "kernels/integrate.h"
#include "kernels/lut.h"

namespace spindrift::cpu {

namespace {

vec4 lutTexel(const CompiledEffect& effect, uint32_t row, float t) {
    const LutTap tap = sdLutAtlasTap(row, t);
    return sdLutMix(effect.lut[tap.index], effect.lut[tap.index + 1], tap.weight);
}

// Colour and size after every appearance op, in compiled order: each multiplies.
void applyAppearance(const CompiledEffect& effect, const EmitterRecord& emitter, float age_n,
                     float speed, vec4& color, float& size) {
    for (uint32_t k = 0; k < emitter.op_count; ++k) {
        const OpRecord& op = effect.ops[emitter.op_first + k];
        switch (op.op) {
        case kOpColorOverLife:
            color *= lutTexel(effect, op.lut_row, age_n);
            break;
        case kOpSizeOverLife:
            size *= lutTexel(effect, op.lut_row, age_n).x;
            break;
        case kOpColorBySpeed:
            color *=
                lutTexel(effect, op.lut_row, sdSpeedParameter(speed, op.params0.x, op.params0.y));
            break;
        case kOpSizeBySpeed:
            size *=
                lutTexel(effect, op.lut_row, sdSpeedParameter(speed, op.params0.x, op.params0.y)).x;
            break;
        default:
            break;
        }
    }
}

} // namespace

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
            const float age_n = sdNormalizedAge(pool.age_s[i], pool.lifetime_s[i]);
            vec4 color(pool.color_r[i], pool.color_g[i], pool.color_b[i], pool.color_a[i]);
            float size = pool.size[i];
            applyAppearance(effect, emitter, age_n, length(velocity), color, size);
            out[written++] =
                sdDrawRecord(transformPoint(world_from_sim, position), size, color,
                             transformVector(world_from_sim, velocity), pool.rotation_rad[i], age_n,
                             sdFlipbookFrame(emitter, age_n, pool.key[i]), e);
        }
    }
    return written;
}

} // namespace spindrift::cpu
