// Beams: the polyline a beam emitter's particle draws (docs/effect-format.md "beam",
// docs/rendering.md "Beams"), written once in the C++/GLSL subset so the scene player (CPU) and a
// later GPU pass compute the same points.
//
// A beam is a cubic Bezier from start to end with control points start + start_tangent and
// end + end_tangent, cut into `segments` straight pieces (segments + 1 points, point i at
// t = i / segments). The middle hangs down (-Y world) by sag: the parabola 4 sag t (1 - t). Each
// point is then pushed sideways (perpendicular to the curve) by jitter x envelope(t) x an offset
// in the unit disc, envelope(t) = 1 - (2t - 1)^4 (0 at both ends, near 1 over most of the
// length). The offset has two octaves, so a bolt has large kinks with fine jags on them:
// kBeamJitterCoarse x a coarse offset drawn at kBeamJitterKnots + 1 knots evenly along t and
// interpolated linearly between them, plus (1 - kBeamJitterCoarse) x a fine offset drawn per
// point; each is uniform in the unit disc, so the sum stays in it. Every draw is a pure function
// of (particle key, jitter cycle, knot or point index). The cycle is floor(time_s x
// jitter_frequency): the jitter is drawn anew jitter_frequency times per second, and with a
// frequency of 0 it never changes.
//
// FROZEN: BeamCurve is a std430 layout (80 bytes, offsets pinned below); the jitter hash
// (kBeamJitterDomain and the derivation in sdBeamJitterKey) decides what every beam looks like.
#ifndef SPINDRIFT_KERNELS_BEAM_H
#define SPINDRIFT_KERNELS_BEAM_H

#include "random.h"
#include "sd_math.h"
#include "shared_types.h"
#include "strip.h"

SD_BEGIN_NAMESPACE

// One beam emitter's curve in the space it is drawn in (world): its four control points and
// its look. Every live particle of the emitter draws this curve, with its own jitter and colour.
struct BeamCurve {
    vec4 start_width;     // xyz start (first control point), w full width of the band (m)
    vec4 control1_sag;    // xyz start + start_tangent, w sag (m the middle hangs toward -Y)
    vec4 control2_jitter; // xyz end + end_tangent, w jitter (m, radius of the sideways offset)
    vec4 end_frequency;   // xyz end (last control point), w jitter_frequency (times per second)
    uint segments;        // straight pieces, >= 1; the polyline has segments + 1 points
    uint pad0;
    uint pad1;
    uint pad2;
};

// What the GPU strip pass reads per beam emitter and frame (shaders/gpu_ribbon_strips.comp, beam
// mode): the curve and jitter cycle the host's appendBeamStrips takes (render/beam_strips.h).
// std430 layout (96 bytes), written by the host into a host-visible buffer.
struct BeamFrame {
    BeamCurve curve;
    uint jitter_cycle; // sdBeamJitterCycle of the simulation time drawn
    uint pad0;
    uint pad1;
    uint pad2;
};

// Keeps jitter keys apart from particle, burst and draw keys (random.h). Frozen.
SD_CONST uint kBeamJitterDomain = 0x27D4EB2Fu;
// The coarse octave: knots along the beam (t = j / kBeamJitterKnots) and its share of the jitter.
SD_CONST uint kBeamJitterKnots = 8u;
SD_CONST float kBeamJitterCoarse = 0.7f;
// Draw indices of a jitter key (sdBeamJitterKey): the fine offset of point i uses the key of i,
// the coarse offset of knot j the key of j. Frozen.
SD_CONST uint kBeamDrawFine = 0u;   // and kBeamDrawFine + 1
SD_CONST uint kBeamDrawCoarse = 2u; // and kBeamDrawCoarse + 1

// The cubic Bezier through control points p0..p3 at t in [0, 1] (Bernstein form).
SD_FUNC vec3 sdBezier(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float t) {
    float s = 1.0f - t;
    return p0 * (s * s * s) + p1 * (3.0f * s * s * t) + p2 * (3.0f * s * t * t) + p3 * (t * t * t);
}

// Its derivative with respect to t.
SD_FUNC vec3 sdBezierDerivative(vec3 p0, vec3 p1, vec3 p2, vec3 p3, float t) {
    float s = 1.0f - t;
    return (p1 - p0) * (3.0f * s * s) + (p2 - p1) * (6.0f * s * t) + (p3 - p2) * (3.0f * t * t);
}

// The beam's line before jitter at t: the Bezier, lowered by 4 sag t (1 - t) along -Y.
SD_FUNC vec3 sdBeamCentre(BeamCurve c, float t) {
    vec3 p = sdBezier(vec3(c.start_width), vec3(c.control1_sag), vec3(c.control2_jitter),
                      vec3(c.end_frequency), t);
    return p - vec3(0.0f, 4.0f * c.control1_sag.w * t * (1.0f - t), 0.0f);
}

// Its direction at t (not normalised).
SD_FUNC vec3 sdBeamCentreDerivative(BeamCurve c, float t) {
    vec3 d = sdBezierDerivative(vec3(c.start_width), vec3(c.control1_sag), vec3(c.control2_jitter),
                                vec3(c.end_frequency), t);
    return d - vec3(0.0f, 4.0f * c.control1_sag.w * (1.0f - 2.0f * t), 0.0f);
}

// The unit direction of the beam's line at t; for a curve with no direction there (all control
// points equal), from start to end, else +X.
SD_FUNC vec3 sdBeamDirection(BeamCurve c, float t) {
    return sdUnitOr(sdBeamCentreDerivative(c, t),
                    sdUnitOr(vec3(c.end_frequency) - vec3(c.start_width), vec3(1.0f, 0.0f, 0.0f)));
}

// Which jitter pattern is shown at time_s: floor(time_s x frequency), 0 before time 0 and for a
// frequency of 0. time_s is the instance's simulation time (docs/rendering.md, "Beams").
SD_FUNC uint sdBeamJitterCycle(float time_s, float frequency) {
    return uint(max(sdFloorToInt(time_s * frequency), 0));
}

// How much of the jitter applies at t: 1 - (2t - 1)^4, exactly 0 at t = 0 and t = 1.
SD_FUNC float sdBeamJitterEnvelope(float t) {
    float m = 2.0f * t - 1.0f;
    float m2 = m * m;
    return 1.0f - m2 * m2;
}

// The key of one point's jitter: a hash of (particle key, cycle, point index), each word through
// its own hash step like sdParticleKey. Frozen.
SD_FUNC uint sdBeamJitterKey(uint particle_key, uint cycle, uint point_index) {
    uint h = sdHash(particle_key ^ kBeamJitterDomain);
    h = sdHash(h ^ cycle);
    return sdHash(h ^ point_index);
}

// A point uniform in the unit disc from draws draw0 and draw0 + 1 of key: radius sqrt(u0),
// angle 2 pi u1.
SD_FUNC vec2 sdBeamDisc(uint key, uint draw0) {
    float r = sqrt(sdRandom01(key, draw0));
    float s;
    float c;
    sdSinCos(kTwoPi * sdRandom01(key, draw0 + 1u), s, c);
    return vec2(r * c, r * s);
}

// The jitter offset of point i at t, in the unit disc (coordinates along sdPlaneBasis of the
// curve's direction), before jitter x envelope.
SD_FUNC vec2 sdBeamJitterOffset(uint particle_key, uint cycle, uint i, float t) {
    float x = t * float(int(kBeamJitterKnots));
    uint knot = min(uint(max(sdFloorToInt(x), 0)), kBeamJitterKnots - 1u);
    float f = x - float(int(knot));
    vec2 coarse =
        mix(sdBeamDisc(sdBeamJitterKey(particle_key, cycle, knot), kBeamDrawCoarse),
            sdBeamDisc(sdBeamJitterKey(particle_key, cycle, knot + 1u), kBeamDrawCoarse), f);
    vec2 fine = sdBeamDisc(sdBeamJitterKey(particle_key, cycle, i), kBeamDrawFine);
    return coarse * kBeamJitterCoarse + fine * (1.0f - kBeamJitterCoarse);
}

// Point i (0..segments) of the beam a particle with key particle_key draws in jitter cycle cycle.
SD_FUNC vec3 sdBeamPosition(BeamCurve c, uint particle_key, uint cycle, uint i) {
    uint segments = max(c.segments, 1u);
    float t = float(int(min(i, segments))) / float(int(segments));
    vec3 p = sdBeamCentre(c, t);
    float radius = c.control2_jitter.w * sdBeamJitterEnvelope(t);
    if (radius > 0.0f) {
        vec3 across1;
        vec3 across2;
        sdPlaneBasis(sdBeamDirection(c, t), across1, across2);
        vec2 offset = sdBeamJitterOffset(particle_key, cycle, i, t) * radius;
        p += across1 * offset.x + across2 * offset.y;
    }
    return p;
}

// The strip point i (0..segments) of a particle's beam: its position (sdBeamPosition), the
// beam's width, the particle's colour, the average of the unit directions of the segments on
// either side as tangent (one side at the ends) and u = i / segments (the texture stretched once
// from start to end).
SD_FUNC StripPoint sdBeamPoint(BeamCurve c, uint particle_key, uint cycle, uint i, vec4 color) {
    uint segments = max(c.segments, 1u);
    uint k = min(i, segments);
    vec3 p = sdBeamPosition(c, particle_key, cycle, k);
    vec3 before = vec3(0.0f);
    vec3 after = vec3(0.0f);
    if (k > 0u) {
        before = sdUnitOr(p - sdBeamPosition(c, particle_key, cycle, k - 1u), vec3(0.0f));
    }
    if (k < segments) {
        after = sdUnitOr(sdBeamPosition(c, particle_key, cycle, k + 1u) - p, vec3(0.0f));
    }
    float t = float(int(k)) / float(int(segments));
    // Where the neighbours give no direction (coincident points, a hairpin), the curve's own.
    vec3 tangent = sdUnitOr(before + after, sdBeamDirection(c, t));
    StripPoint s;
    s.position_width = vec4(p, c.start_width.w);
    s.color = color;
    s.tangent_u = vec4(tangent, t);
    return s;
}

SD_END_NAMESPACE

#ifdef __cplusplus
#include <cstddef>
namespace spindrift {
SD_ASSERT_RECORD(BeamCurve, 80);
static_assert(offsetof(BeamCurve, control1_sag) == 16);
static_assert(offsetof(BeamCurve, end_frequency) == 48);
static_assert(offsetof(BeamCurve, segments) == 64);
SD_ASSERT_RECORD(BeamFrame, 96);
static_assert(offsetof(BeamFrame, jitter_cycle) == 80);
} // namespace spindrift
#endif

#endif // SPINDRIFT_KERNELS_BEAM_H
