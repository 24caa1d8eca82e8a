// What the renderer draws for one particle: the CPU backend writes these from its pools, the GPU
// backend's compute pass writes the same struct (DESIGN: one function turns pools into records).
//
// FROZEN: a std430 buffer layout read by shaders (64 bytes; offsets pinned below).
#ifndef SPINDRIFT_KERNELS_DRAW_RECORD_H
#define SPINDRIFT_KERNELS_DRAW_RECORD_H

#include "effect_records.h"
#include "random.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

struct DrawRecord {
    vec4 position_size;     // xyz position (the space the renderer is told), w size (m)
    vec4 color;             // linear RGBA, after every colour op
    vec4 velocity_rotation; // xyz velocity (m/s, same space as position), w rotation (rad)
    float normalized_age;   // age / lifetime in [0, 1]
    float flipbook_frame;   // [0, frames): integer part the frame, fractional part the blend
    uint emitter_index;     // index in the compiled emitter array
    uint key;               // the particle's random key (sdParticleKey): per-particle variation
                            // decided at draw time, e.g. a beam's jitter (beam.h)
};

SD_FUNC DrawRecord sdDrawRecord(vec3 position, float size, vec4 color, vec3 velocity,
                                float rotation_rad, float normalized_age, float flipbook_frame,
                                uint emitter_index, uint key) {
    DrawRecord r;
    r.position_size = vec4(position, size);
    r.color = color;
    r.velocity_rotation = vec4(velocity, rotation_rad);
    r.normalized_age = normalized_age;
    r.flipbook_frame = flipbook_frame;
    r.emitter_index = emitter_index;
    r.key = key;
    return r;
}

// The flipbook frame at normalised age age_n in [0, 1]: the sequence of flipbook_frames frames
// plays flipbook_cycles times over the life, wrapping; with kRenderFlagRandomStart it starts at a
// random whole frame (draw kDrawFlipbook). With kRenderFlagFrameBlend the fractional part is the
// blend toward the next frame (the renderer wraps frames - 1 to 0); without it the frame is whole.
// The result is in [0, frames).
SD_FUNC float sdFlipbookFrame(EmitterRecord e, float age_n, uint key) {
    // One whole frame without blending: the frame below is always 0 (age_n is in [0, 1], so
    // cycle is finite and >= 0, its fraction in [0, 1) truncates to 0). Said first so a writer
    // specialised for emitters without a flipbook computes nothing (src/cpu/draw_loops.inl).
    if (e.flipbook_frames <= 1u && (e.render_flags & kRenderFlagFrameBlend) == 0u) return 0.0f;
    float frames = float(int(max(e.flipbook_frames, 1u)));
    float start = (e.render_flags & kRenderFlagRandomStart) != 0u
                      ? float(int(sdRandom01(key, kDrawFlipbook) * frames)) / frames
                      : 0.0f;
    float cycle = max(age_n, 0.0f) * e.flipbook_cycles + start; // >= 0
    float whole = float(int(min(cycle, 8388608.0f)));           // floor for cycle >= 0
    float frame = (cycle - whole) * frames;
    frame = min(frame, frames * (1.0f - 1.1920929e-7f));
    return (e.render_flags & kRenderFlagFrameBlend) != 0u ? frame : float(int(frame));
}

// Where record i of an emitter lies when its draw records are spread over chunks of
// chunk_records records each (src/gpu/pool_layout.h: no buffer past the buffer limit) and its
// record 0 is record first_in_chunk of its first chunk: `chunk` chunks after that one, at `index`.
// The GPU's draw-record pass stores through it, the sort-key pass and the billboard vertex shader
// fetch through it. All in 32 bits: first_in_chunk < chunk_records <= 2^26 and
// i < kMaxEmitterCapacity (2^27).
struct DrawRecordPlace {
    uint chunk;
    uint index;
};

SD_FUNC DrawRecordPlace sdDrawRecordPlace(uint first_in_chunk, uint chunk_records, uint i) {
    uint t = first_in_chunk + i;
    DrawRecordPlace place;
    place.chunk = t / chunk_records;
    place.index = t % chunk_records;
    return place;
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(DrawRecord, 64);
static_assert(offsetof(DrawRecord, position_size) == 0);
static_assert(offsetof(DrawRecord, color) == 16);
static_assert(offsetof(DrawRecord, velocity_rotation) == 32);
static_assert(offsetof(DrawRecord, normalized_age) == 48);
static_assert(offsetof(DrawRecord, flipbook_frame) == 52);
static_assert(offsetof(DrawRecord, emitter_index) == 56);
static_assert(offsetof(DrawRecord, key) == 60);
} // namespace spindrift
#endif

#endif // SPINDRIFT_KERNELS_DRAW_RECORD_H
