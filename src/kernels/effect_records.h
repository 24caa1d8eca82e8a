// The compiled records: the ONE description of an effect that the CPU backend, the GPU backend
// and the renderer read (docs/compiled-records.md). Written in the C++/GLSL subset of
// shared_types.h; compute shaders #include this file unchanged.
//
// FROZEN: every record layout and every numbered constant here is cooked into .sfx files and
// read by shaders. Append new constants with new numbers; never renumber or reorder fields.
// Changing a layout means bumping kSfxFormatVersion (src/cook/sfx_format.h).
//
// Conventions: angles are radians (the compiler converts degrees), ranges are [min, max],
// "first/count" pairs index another record array of the same CompiledEffect, strings are
// (offset, length) into the string table, and kNone marks an absent index.
#ifndef SPINDRIFT_KERNELS_EFFECT_RECORDS_H
#define SPINDRIFT_KERNELS_EFFECT_RECORDS_H

#include "shared_types.h"

SD_BEGIN_NAMESPACE

// An absent index (LUT row, string, ...).
SD_CONST uint kNone = 0xFFFFFFFFu;

// LUT atlas: every curve and gradient is baked to one row of kLutWidth vec4 texels, sampled at
// t_i = i / (kLutWidth - 1). A gradient row holds linear RGBA; a curve row holds its value in .x
// (.yzw = 0). Sample with u = clamp(t, 0, 1) * (kLutWidth - 1), lerp texels floor(u), floor(u)+1.
SD_CONST uint kLutWidth = 64u;

// Update op codes (OpRecord.op). Frozen. What each reads: docs/compiled-records.md.
SD_CONST uint kOpAcceleration = 0u; // gravity and force, fused when adjacent
SD_CONST uint kOpBuoyancy = 1u;
SD_CONST uint kOpDrag = 2u; // adjacent drags fused
SD_CONST uint kOpWind = 3u;
SD_CONST uint kOpSpeedLimit = 4u;
SD_CONST uint kOpCurlNoise = 5u;
SD_CONST uint kOpForceFields = 6u; // a run of adjacent force_field modules
SD_CONST uint kOpAttractor = 7u;
SD_CONST uint kOpColorOverLife = 8u;     // adjacent ones fused into one product row
SD_CONST uint kOpSizeOverLife = 9u;      // adjacent ones fused into one product row
SD_CONST uint kOpRotationOverLife = 10u; // adjacent ones fused into one summed row
SD_CONST uint kOpColorBySpeed = 11u;
SD_CONST uint kOpSizeBySpeed = 12u;
SD_CONST uint kOpCollision = 13u;
// Colour times the blackbody colour (blackbody.h) of the temperature curve (kelvin, lut_row .x)
// at normalised age, times params0.x (intensity). Never fused.
SD_CONST uint kOpBlackbody = 14u;
SD_CONST uint kOpCount = 15u;

// OpRecord.flags bits. Frozen.
SD_CONST uint kOpFlagDepthBuffer = 1u; // kOpCollision: also collide with the scene depth
// kOpCollision: also collide with the host's world colliders (and, on the CPU, its distance
// field) whose groups meet the op's mask (params1.x). depth_buffer implies it.
SD_CONST uint kOpFlagWorldColliders = 2u;
// kOpForceFields: a world_attractors module: the host's attractors whose groups meet the mask
// (params0.x) join the op's range at each step, strength times params0.y. Never fused.
SD_CONST uint kOpFlagWorldAttractors = 4u;
SD_CONST uint kOpFlagMask = 7u;

// Enum values, equal to the authoring enums of include/spindrift/effect_desc.h. Frozen.
SD_CONST uint kSpaceWorld = 0u;
SD_CONST uint kSpaceLocal = 1u;
SD_CONST uint kSpaceCount = 2u;
SD_CONST uint kBackendAuto = 0u;
SD_CONST uint kBackendCpu = 1u;
SD_CONST uint kBackendGpu = 2u;
SD_CONST uint kBackendCount = 3u;
SD_CONST uint kOverflowDropNew = 0u;
SD_CONST uint kOverflowReplaceOldest = 1u;
SD_CONST uint kOverflowCount = 2u;
SD_CONST uint kShapePoint = 0u;
SD_CONST uint kShapeLine = 1u;
SD_CONST uint kShapeBox = 2u;
SD_CONST uint kShapeSphere = 3u;
SD_CONST uint kShapeHemisphere = 4u;
SD_CONST uint kShapeCone = 5u;
SD_CONST uint kShapeCircle = 6u;
SD_CONST uint kShapeTorus = 7u;
SD_CONST uint kShapeMesh = 8u;
SD_CONST uint kShapeCount = 9u;
SD_CONST uint kEmitFromVolume = 0u;
SD_CONST uint kEmitFromShell = 1u;
SD_CONST uint kEmitFromEdge = 2u;
SD_CONST uint kEmitFromCount = 3u;
SD_CONST uint kColorModeConstant = 0u;
SD_CONST uint kColorModeRandomBetween = 1u;
SD_CONST uint kColorModeGradient = 2u;
SD_CONST uint kColorModeCount = 3u;
SD_CONST uint kForceFieldPoint = 0u;
SD_CONST uint kForceFieldVortex = 1u;
SD_CONST uint kForceFieldDrag = 2u;
SD_CONST uint kForceFieldCount = 3u;
SD_CONST uint kResponseBounce = 0u;
SD_CONST uint kResponseStick = 1u;
SD_CONST uint kResponseKill = 2u;
SD_CONST uint kResponseCount = 3u;
SD_CONST uint kColliderPlane = 0u;
SD_CONST uint kColliderSphere = 1u;
SD_CONST uint kColliderBox = 2u;
SD_CONST uint kColliderCount = 3u; // kinds an effect file authors (and a cooked file may hold)
// Kinds only the host's world colliders use (World::setColliders); never in an effect's records.
SD_CONST uint kColliderOrientedBox = 3u;
SD_CONST uint kColliderCapsule = 4u;
SD_CONST uint kColliderCylinder = 5u;
SD_CONST uint kColliderHeightfield = 6u;
SD_CONST uint kColliderPayload = 7u; // heightfield samples: 16 floats per record, never tested
// The scene depth a step collides with (World::setSceneDepth, the renderer's opaque depth): a
// camera record and one payload record (collision.h, sdContactSceneDepth); only resolveStep makes
// it, for ops with kOpFlagDepthBuffer.
SD_CONST uint kColliderSceneDepth = 8u;
// Linear depth of a pixel with no surface (the sky): the renderer clears its linear depth to it.
SD_CONST float kSceneDepthNone = 1.0e30f;
SD_CONST uint kRenderBillboard = 0u;
SD_CONST uint kRenderRibbon = 1u;
SD_CONST uint kRenderBeam = 2u;
SD_CONST uint kRenderMesh = 3u;
SD_CONST uint kRenderCount = 4u;
SD_CONST uint kBlendAdditive = 0u;
SD_CONST uint kBlendPremultiplied = 1u;
SD_CONST uint kBlendAlpha = 2u;
SD_CONST uint kBlendOpaque = 3u; // mesh emitters only: no blending, depth written
SD_CONST uint kBlendCount = 4u;
SD_CONST uint kAlignCamera = 0u;
SD_CONST uint kAlignVelocityStretch = 1u;
SD_CONST uint kAlignAxis = 2u;
SD_CONST uint kAlignFixed = 3u;
SD_CONST uint kAlignCount = 4u;
SD_CONST uint kSortNone = 0u;
SD_CONST uint kSortBackToFront = 1u;
SD_CONST uint kSortFrontToBack = 2u;
SD_CONST uint kSortOldestFirst = 3u;
SD_CONST uint kSortNewestFirst = 4u;
SD_CONST uint kSortCount = 5u;
SD_CONST uint kEventBirth = 0u;
SD_CONST uint kEventDeath = 1u;
SD_CONST uint kEventCollision = 2u;
SD_CONST uint kEventThreshold = 3u; // crossing the emitter's threshold (EmitterEventsRecord)
SD_CONST uint kEventCount = 4u;
// EmitterEventsRecord.threshold_quantity: what a threshold watches. Frozen.
SD_CONST uint kThresholdNone = 0u;        // no threshold
SD_CONST uint kThresholdSpeed = 1u;       // |velocity|, m/s
SD_CONST uint kThresholdHeight = 2u;      // world y of the position, m
SD_CONST uint kThresholdAgeFraction = 3u; // age / lifetime, clamped to [0, 1]
SD_CONST uint kThresholdQuantityCount = 4u;
// EmitterEventsRecord.threshold_direction. Frozen.
SD_CONST uint kThresholdRising = 0u;  // from below the value to at or above it
SD_CONST uint kThresholdFalling = 1u; // from at or above the value to below it
SD_CONST uint kThresholdEither = 2u;
SD_CONST uint kThresholdDirectionCount = 3u;

// EmitterRecord.render_flags bits. Frozen.
SD_CONST uint kRenderFlagLit = 1u;
SD_CONST uint kRenderFlagStableOrder = 2u;
SD_CONST uint kRenderFlagFrameBlend = 4u;
SD_CONST uint kRenderFlagRandomStart = 8u;
SD_CONST uint kRenderFlagShadowCutout = 16u; // billboards: cast a cutout into the sun's depth map
SD_CONST uint kRenderFlagDistortion = 32u;   // billboards: bend the frame behind (emission.z)
// Lit billboards: gather the lights once per particle (render.lighting per_particle), with
// kRenderFlagLit only.
SD_CONST uint kRenderFlagLitPerParticle = 64u;
SD_CONST uint kRenderFlagMask = 127u;

// EffectRecord.flags bits. Frozen.
SD_CONST uint kEffectFlagLooping = 1u;
SD_CONST uint kEffectFlagMask = 1u;

// ColliderRecord.flags bits. Frozen.
SD_CONST uint kColliderFlagInside = 1u; // sphere: particles are kept inside
SD_CONST uint kColliderFlagMask = 1u;

// The effect as a whole. One per CompiledEffect.
struct EffectRecord {
    uint seed;
    uint flags;    // kEffectFlag*
    uint space;    // kSpace*
    uint capacity; // >= sum of emitter capacities
    float duration_s;
    float fixed_timestep_s;
    uint name_offset; // string table
    uint name_length;
    vec4 bounds_center;       // xyz; w = 0
    vec4 bounds_half_extents; // xyz; w = 0
};

// One enabled emitter. Arrays it owns are ranges into the other record arrays.
struct EmitterRecord {
    // parent_from_emitter as a 3x4 matrix, one row per vec4: xyz the rotation row
    // (Rz * Ry * Rx), w the translation. p_parent.i = dot(row_i.xyz, p) + row_i.w.
    vec4 transform_row0;
    vec4 transform_row1;
    vec4 transform_row2;

    uint capacity;     // 1..kMaxEmitterCapacity
    uint overflow;     // kOverflow*
    uint backend;      // kBackend* (the preference)
    uint source_index; // index of the emitter in the authored effect (JSON paths)

    uint name_offset; // string table
    uint name_length;
    uint texture_offset; // kNone and 0 when the texture is empty
    uint texture_length;

    uint mesh_offset; // render mesh path; kNone and 0 when empty
    uint mesh_length;
    uint burst_first; // BurstRecord range
    uint burst_count;

    uint op_first; // OpRecord range, in execution order
    uint op_count;
    uint sub_emitter_first; // SubEmitterRecord range
    uint sub_emitter_count;

    // Spawn.
    float rate_per_s;
    float rate_per_m;
    float delay_s;
    uint mesh_point_first; // MeshPointRecord range (shape mesh)

    uint mesh_point_count;
    uint shape_kind; // kShape*
    uint emit_from;  // kEmitFrom*
    float randomize_direction;

    // Shape.
    float shape_radius;
    float shape_tube_radius;
    float shape_length;
    float shape_angle_rad; // cone half angle
    vec4 shape_size;       // box full extents in xyz; w = shape_arc_rad (circle/cone/torus)

    // Init ranges.
    float lifetime_min_s;
    float lifetime_max_s;
    float size_min;
    float size_max;
    float rotation_min_rad;
    float rotation_max_rad;
    float angular_velocity_min_rad_per_s;
    float angular_velocity_max_rad_per_s;
    float speed_min;
    float speed_max;
    float mass_min;
    float mass_max;
    vec4 velocity_min;  // xyz; w = 0
    vec4 velocity_max;  // xyz; w = 0
    vec4 color_a;       // constant colour, or the first of random_between
    vec4 color_b;       // the second of random_between
    uint color_mode;    // kColorMode*
    uint color_lut_row; // gradient mode: LUT row; kNone otherwise
    uint render_type;   // kRender*
    uint blend;         // kBlend*

    // Render.
    uint alignment;    // kAlign*
    uint sort;         // kSort*
    uint render_flags; // kRenderFlag*
    float soft_fade_distance;
    vec4 axis; // billboard axis (xyz, unit length); w = stretch
    uint flipbook_columns;
    uint flipbook_rows;
    uint flipbook_frames;
    float flipbook_cycles;
    float ribbon_width;
    float ribbon_uv_tiling;
    float ribbon_taper;
    float ribbon_min_sample_distance;
    uint ribbon_max_points;
    uint beam_segments;
    float mesh_scale;
    float mesh_tumble_rad_per_s;
    vec4 beam_start;         // xyz; w = beam width
    vec4 beam_end;           // xyz; w = beam sag
    vec4 beam_start_tangent; // xyz; w = beam jitter
    vec4 beam_end_tangent;   // xyz; w = beam jitter_frequency
    // x: emissive, the multiplier of the particle's colour in the HDR target (>= 0); y:
    // emissive_share in [0, 1], the part drawn additively beside the alpha share (premultiplied
    // blend only; docs/rendering.md, "Emissive"); z: render.distortion, in (0, kMaxDistortion]
    // with kRenderFlagDistortion (billboards only), else 0; w = 0.
    vec4 emission;
};

// One update op. params meaning depends on op (docs/compiled-records.md).
struct OpRecord {
    uint op;            // kOp*
    uint flags;         // kOpFlag*
    uint lut_row;       // LUT row the op samples, kNone when it samples none
    uint source_module; // authored index in emitters[e].update of the first fused module
    uint first;         // kOpForceFields: ForceFieldRecord range; kOpCollision: colliders
    uint count;
    uint mode;         // kOpCurlNoise: octaves; kOpCollision: kResponse*
    uint source_count; // how many authored modules were fused into this op (>= 1)
    vec4 params0;
    vec4 params1;
};

struct BurstRecord {
    float time_s;
    uint count_min;
    uint count_max;
    uint cycles; // 0 = repeat for ever
    float interval_s;
    float probability;
    uint pad0;
    uint pad1;
};

// Colliders are in world space (an effect's) or simulation space (resolved for a step).
// The oriented kinds (oriented box, capsule, cylinder, heightfield) use the frame axis_u, axis_v,
// cross(axis_u, axis_v) (unit, orthogonal) around position; an effect's own kinds leave the axes
// and payload 0.
struct ColliderRecord {
    uint kind;     // kCollider*
    uint flags;    // kColliderFlag*
    float radius;  // sphere, capsule, cylinder
    uint payload;  // heightfield: kColliderPayload records that follow it (its samples); else 0
    vec4 position; // plane point; sphere, box, capsule, cylinder centre; heightfield corner (xyz)
    // plane: unit normal; box, oriented box: half extents; capsule: x = half the segment's
    // length along axis_v; cylinder: x = half height along axis_v; heightfield: x, y = cell size
    // along axis_u and cross(axis_u, axis_v), z, w = columns and rows of samples (whole numbers)
    vec4 extent;
    vec4 axis_u; // xyz; w = 0
    vec4 axis_v; // xyz; w = 0
};

// Force fields are in emitter space.
struct ForceFieldRecord {
    uint shape; // kForceField*
    float strength;
    float radius;
    float falloff;
    vec4 position; // xyz; w = 0
    vec4 axis;     // unit length (vortex); w = 0
};

struct MeshPointRecord {
    vec4 position; // xyz; w = 0
    vec4 normal;   // unit length xyz; w = 0
};

struct SubEmitterRecord {
    uint event;   // kEvent*
    uint emitter; // index of the child in the compiled emitter array
    float probability;
    float inherit_velocity;
    uint count_min;
    uint count_max;
    uint pad0;
    uint pad1;
};

// Gameplay events and the threshold of one emitter (EmitterDesc::events; docs/runtime-api.md,
// "Events"). CompiledEffect::emitter_events holds one per emitter, or none at all when no
// emitter has an events block.
struct EmitterEventsRecord {
    uint kinds;               // bit (1 << kEvent*) per kind delivered to the host; 0: none
    uint max_per_step;        // gameplay events kept per step for this emitter
                              // (1..kMaxGameplayEventsPerStep)
    uint threshold_quantity;  // kThreshold* quantity; kThresholdNone: no threshold
    uint threshold_direction; // kThresholdRising / Falling / Either
    float threshold_value;
    uint pad0;
    uint pad1;
    uint pad2;
};

// Particle lights of one emitter (RenderDesc::lights; docs/rendering.md, "Lights").
// CompiledEffect::particle_lights holds one per emitter, or none at all when no emitter makes
// lights. Read on the host only (the draw list's records), never by a shader.
SD_CONST uint kParticleLightBrightest = 0u; // FROZEN: ParticleLightSelect
SD_CONST uint kParticleLightOldest = 1u;
SD_CONST uint kParticleLightEveryKth = 2u;
struct ParticleLightRecord {
    uint count;   // 0..kMaxParticleLights; 0: none
    uint select;  // kParticleLight*
    uint every_k; // every_kth: 1..kMaxParticleLightStride
    uint pad0;
    float intensity; // multiplies the particle's rgb x alpha
    float range_m;   // > 0
    uint pad1;
    uint pad2;
};

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(EffectRecord, 64);
SD_ASSERT_RECORD(EmitterRecord, 464);
SD_ASSERT_RECORD(OpRecord, 64);
SD_ASSERT_RECORD(BurstRecord, 32);
SD_ASSERT_RECORD(ColliderRecord, 80);
SD_ASSERT_RECORD(ForceFieldRecord, 48);
SD_ASSERT_RECORD(MeshPointRecord, 32);
SD_ASSERT_RECORD(SubEmitterRecord, 32);
SD_ASSERT_RECORD(EmitterEventsRecord, 32);
SD_ASSERT_RECORD(ParticleLightRecord, 32);
// Every vec4 starts on a 16-byte boundary, so these are also the std430 offsets.
static_assert(offsetof(EffectRecord, bounds_center) == 32);
static_assert(offsetof(EmitterRecord, capacity) == 48);
static_assert(offsetof(EmitterRecord, rate_per_s) == 112);
static_assert(offsetof(EmitterRecord, shape_size) == 160);
static_assert(offsetof(EmitterRecord, velocity_min) == 224);
static_assert(offsetof(EmitterRecord, color_a) == 256);
static_assert(offsetof(EmitterRecord, color_mode) == 288);
static_assert(offsetof(EmitterRecord, axis) == 320);
static_assert(offsetof(EmitterRecord, flipbook_columns) == 336);
static_assert(offsetof(EmitterRecord, beam_start) == 384);
static_assert(offsetof(EmitterRecord, beam_end_tangent) == 432);
static_assert(offsetof(EmitterRecord, emission) == 448);
static_assert(offsetof(OpRecord, params0) == 32);
static_assert(offsetof(OpRecord, params1) == 48);
static_assert(offsetof(ColliderRecord, position) == 16);
static_assert(offsetof(ForceFieldRecord, position) == 16);
static_assert(offsetof(SubEmitterRecord, count_min) == 16);
} // namespace spindrift
#endif

#endif // SPINDRIFT_KERNELS_EFFECT_RECORDS_H
