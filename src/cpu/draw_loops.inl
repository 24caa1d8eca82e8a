// The draw-record loops, compiled once per instruction set like the update loops
// (update_loops.inl): draw_loops_baseline.cpp and draw_loops_avx2.cpp include this file with
// SPINDRIFT_DRAW_ISA set to their namespace, and draw_records.cpp picks one at run time. Both give
// the same bits as the generic loop: no contraction, no libm.
//
// The loops only fetch, call and store: a record is sdParticleDrawRecord (src/kernels/
// appearance.h), the function the GPU's draw-record pass calls too. What a loop is specialised
// on is the emitter's feature set, so that the inlined kernel is that emitter's code alone:
//   - its appearance ops (colour and size over life or by speed), as compile-time kinds: the
//     kernel's op loop runs over a copy of just those ops with each kind a constant, so it
//     unrolls, the kind tests fold, and an emitter without ops samples no table and an emitter
//     without a by-speed op computes no speed;
//   - whether it has a flipbook: without one, the emitter record the kernel reads says one frame
//     and no blend, constants for which sdFlipbookFrame returns 0 at once (the value it would
//     compute for that emitter anyway).
// Emitters with more appearance ops than the tables cover take the generic loop
// (draw_records.cpp), the same kernel with nothing specialised.
#include "cpu/draw_loops.h"

#if defined(__clang__)
#define SPINDRIFT_DRAW_IVDEP
#else
#define SPINDRIFT_DRAW_IVDEP _Pragma("GCC ivdep")
#endif

#include <array>
#include <bit>
#include <utility>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "cpu/particle_appearance.h"

namespace spindrift::cpu::SPINDRIFT_DRAW_ISA {

namespace {

// The columns a draw record reads, restrict-qualified: they never alias each other or out.
struct DrawColumns {
    const float* __restrict px;
    const float* __restrict py;
    const float* __restrict pz;
    const float* __restrict vx;
    const float* __restrict vy;
    const float* __restrict vz;
    const float* __restrict r;
    const float* __restrict g;
    const float* __restrict b;
    const float* __restrict a;
    const float* __restrict size;
    const float* __restrict rotation;
    const float* __restrict age;
    const float* __restrict lifetime;
    const uint32_t* __restrict key;
};

[[gnu::always_inline]] inline DrawColumns drawColumnsOf(const ParticlePool& pool) {
    return DrawColumns{pool.position_x.get(), pool.position_y.get(), pool.position_z.get(),
                       pool.velocity_x.get(), pool.velocity_y.get(), pool.velocity_z.get(),
                       pool.color_r.get(),    pool.color_g.get(),    pool.color_b.get(),
                       pool.color_a.get(),    pool.size.get(),       pool.rotation_rad.get(),
                       pool.age_s.get(),      pool.lifetime_s.get(), pool.key.get()};
}

[[gnu::always_inline]] inline StoredParticle storedAt(const DrawColumns& c, uint32_t i) {
    StoredParticle p;
    p.color = vec4(c.r[i], c.g[i], c.b[i], c.a[i]);
    p.position = vec3(c.px[i], c.py[i], c.pz[i]);
    p.velocity = vec3(c.vx[i], c.vy[i], c.vz[i]);
    p.size = c.size[i];
    p.rotation_rad = c.rotation[i];
    p.age_s = c.age[i];
    p.lifetime_s = c.lifetime[i];
    p.key = c.key[i];
    return p;
}

// A block of kBlock records as 16 fields of kBlock lanes each (field f of record j is
// fields[f][j], in DrawRecord's order): the loop below writes the kernel's results here, one
// vector store per field, and storeBlock turns them into records. Writing the records straight
// from a loop vectorised across particles makes the compiler scatter every field with its own
// scalar store (and spill the particles it gathered), which cost more than the kernel itself.
constexpr uint32_t kBlock = 8;
constexpr uint32_t kFields = sizeof(DrawRecord) / sizeof(float);
static_assert(kFields == 16, "storeBlock transposes two 8x8 halves of a 64-byte record");
using FieldBlock = float[kFields][kBlock];

[[gnu::always_inline]] inline void putRecord(FieldBlock& fields, uint32_t j, const DrawRecord& r) {
    fields[0][j] = r.position_size.x;
    fields[1][j] = r.position_size.y;
    fields[2][j] = r.position_size.z;
    fields[3][j] = r.position_size.w;
    fields[4][j] = r.color.x;
    fields[5][j] = r.color.y;
    fields[6][j] = r.color.z;
    fields[7][j] = r.color.w;
    fields[8][j] = r.velocity_rotation.x;
    fields[9][j] = r.velocity_rotation.y;
    fields[10][j] = r.velocity_rotation.z;
    fields[11][j] = r.velocity_rotation.w;
    fields[12][j] = r.normalized_age;
    fields[13][j] = r.flipbook_frame;
    fields[14][j] = std::bit_cast<float>(r.emitter_index);
    fields[15][j] = std::bit_cast<float>(r.key);
}

#if defined(__AVX2__)
// Rows r[0..7] (8 floats each) transposed: column j of the 8x8 block stored at out + 16 * j.
[[gnu::always_inline]] inline void storeTransposed8x8(const float (*rows)[kBlock], float* out) {
    __m256 r0 = _mm256_load_ps(rows[0]), r1 = _mm256_load_ps(rows[1]);
    __m256 r2 = _mm256_load_ps(rows[2]), r3 = _mm256_load_ps(rows[3]);
    __m256 r4 = _mm256_load_ps(rows[4]), r5 = _mm256_load_ps(rows[5]);
    __m256 r6 = _mm256_load_ps(rows[6]), r7 = _mm256_load_ps(rows[7]);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    const __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
    const __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    r0 = _mm256_permute2f128_ps(s0, s4, 0x20);
    r1 = _mm256_permute2f128_ps(s1, s5, 0x20);
    r2 = _mm256_permute2f128_ps(s2, s6, 0x20);
    r3 = _mm256_permute2f128_ps(s3, s7, 0x20);
    r4 = _mm256_permute2f128_ps(s0, s4, 0x31);
    r5 = _mm256_permute2f128_ps(s1, s5, 0x31);
    r6 = _mm256_permute2f128_ps(s2, s6, 0x31);
    r7 = _mm256_permute2f128_ps(s3, s7, 0x31);
    _mm256_storeu_ps(out + 0 * kFields, r0);
    _mm256_storeu_ps(out + 1 * kFields, r1);
    _mm256_storeu_ps(out + 2 * kFields, r2);
    _mm256_storeu_ps(out + 3 * kFields, r3);
    _mm256_storeu_ps(out + 4 * kFields, r4);
    _mm256_storeu_ps(out + 5 * kFields, r5);
    _mm256_storeu_ps(out + 6 * kFields, r6);
    _mm256_storeu_ps(out + 7 * kFields, r7);
}
#endif

// The kBlock records of `fields` written to out[0, kBlock). Data movement only: the same bits.
[[gnu::always_inline]] inline void storeBlock(const FieldBlock& fields, DrawRecord* out) {
    float* dst = reinterpret_cast<float*>(out);
#if defined(__AVX2__)
    storeTransposed8x8(fields, dst);
    storeTransposed8x8(fields + 8, dst + 8);
#else
    for (uint32_t j = 0; j < kBlock; ++j) {
        for (uint32_t f = 0; f < kFields; ++f) dst[j * kFields + f] = fields[f][j];
    }
#endif
}

// The records of slots [0, count) of one emitter whose appearance ops are `ops` (kinds Kinds...,
// in compiled order) with or without a flipbook.
template <bool Flipbook, uint... Kinds>
void drawLoop(const DrawLoopInputs& in, const ParticlePool& pool, DrawRecord* __restrict out) {
    constexpr uint kCount = sizeof...(Kinds);
    constexpr std::array<uint, kCount> kKinds = {Kinds...};
    // The kernel reads the ops through a view: a local copy whose kinds are constants (the
    // records' other fields as compiled), and an emitter record that points at it.
    std::array<OpRecord, kCount == 0 ? 1 : kCount> ops{};
    for (uint k = 0; k < kCount; ++k) {
        ops[k] = in.appearance_ops[k];
        ops[k].op = kKinds[k];
    }
    EmitterRecord emitter = *in.emitter;
    emitter.op_first = 0;
    emitter.op_count = kCount;
    if (!Flipbook) {
        emitter.flipbook_frames = 1;
        emitter.render_flags = 0; // sdParticleDrawRecord reads render_flags for the flipbook only
    }
    const OpRecordsRef view{ops.data()};
    const LutRef lut = in.lut;
    const vec4 row0 = in.rows[0], row1 = in.rows[1], row2 = in.rows[2];
    const uint emitter_index = in.emitter_index;
    const DrawColumns c = drawColumnsOf(pool);
    const uint32_t count = pool.count;
    const uint32_t whole = count - count % kBlock;
    alignas(32) FieldBlock fields;
    for (uint32_t base = 0; base < whole; base += kBlock) {
        SPINDRIFT_DRAW_IVDEP
        for (uint32_t j = 0; j < kBlock; ++j) {
            putRecord(fields, j,
                      sdParticleDrawRecord(lut, view, emitter, emitter_index, row0, row1, row2,
                                           storedAt(c, base + j)));
        }
        storeBlock(fields, out + base);
    }
    for (uint32_t i = whole; i < count; ++i) {
        out[i] = sdParticleDrawRecord(lut, view, emitter, emitter_index, row0, row1, row2,
                                      storedAt(c, i));
    }
}

// The appearance op kinds a loop is instantiated for, numbered 0-3.
constexpr std::array<uint, kDrawAppearanceKinds> kAppearanceKinds = {
    kOpColorOverLife, kOpSizeOverLife, kOpColorBySpeed, kOpSizeBySpeed};

template <bool Flipbook, size_t... I>
constexpr std::array<DrawLoop, sizeof...(I)> oneOpLoops(std::index_sequence<I...>) {
    return {&drawLoop<Flipbook, kAppearanceKinds[I]>...};
}
template <bool Flipbook, size_t... I>
constexpr std::array<DrawLoop, sizeof...(I)> twoOpLoops(std::index_sequence<I...>) {
    return {&drawLoop<Flipbook, kAppearanceKinds[I / kDrawAppearanceKinds],
                      kAppearanceKinds[I % kDrawAppearanceKinds]>...};
}

constexpr auto kOne = oneOpLoops<false>(std::make_index_sequence<kDrawAppearanceKinds>{});
constexpr auto kOneFlip = oneOpLoops<true>(std::make_index_sequence<kDrawAppearanceKinds>{});
constexpr auto kTwo =
    twoOpLoops<false>(std::make_index_sequence<kDrawAppearanceKinds * kDrawAppearanceKinds>{});
constexpr auto kTwoFlip =
    twoOpLoops<true>(std::make_index_sequence<kDrawAppearanceKinds * kDrawAppearanceKinds>{});

} // namespace

DrawLoop drawLoopFor(const DrawFeatures& f) {
    switch (f.op_count) {
    case 0:
        return f.flipbook ? &drawLoop<true> : &drawLoop<false>;
    case 1:
        return (f.flipbook ? kOneFlip : kOne)[f.kinds[0]];
    case 2:
        return (f.flipbook ? kTwoFlip : kTwo)[f.kinds[0] * kDrawAppearanceKinds + f.kinds[1]];
    default:
        return nullptr;
    }
}

} // namespace spindrift::cpu::SPINDRIFT_DRAW_ISA
