// The shared maths owns its transcendental functions (DESIGN rule 1): sine, cosine, exp and log
// are polynomials built from IEEE basic operations only, so with -ffp-contract=off they give the
// same bits on every x86-64 or ARM CPU, scalar or vectorised, whatever the vector width. libm is
// never called (it is scalar and differs between C libraries).
//
// Every function here is branch-free: selects of precomputed values, unconditional
// float <-> int conversions (inputs are clamped first, so the conversions are always defined),
// no tables and no data-dependent loops, so GCC vectorises loops over particles that call them
// when the loop is compiled with -fno-trapping-math -fno-math-errno (the second because sqrt
// otherwise keeps an errno branch); neither flag changes any result bit.
//
// Polynomial coefficients are those of Cephes (S. L. Moshier, sinf.c, cosf.c, expf.c, logf.c),
// minimax fits on the reduced ranges below.
#ifndef SPINDRIFT_KERNELS_SD_MATH_H
#define SPINDRIFT_KERNELS_SD_MATH_H

#include "shared_types.h"

SD_BEGIN_NAMESPACE

SD_CONST float kPi = 3.14159265358979323846f;
SD_CONST float kTwoPi = 6.28318530717958647692f;
SD_CONST float kHalfPi = 1.57079632679489661923f;

// Range reduction of sine/cosine: k = round(x * 2/pi), r = x - k * pi/2 with pi/2 split in three
// parts. kPiOver2A and kPiOver2B have 8 significant bits, so k * A and k * B are exact for
// |k| < 2^16 (|x| <= 1.0e5 gives |k| <= 63662); kPiOver2C is the float nearest the rest. The
// two-constant split of the design is not enough: its second constant's rounding error times k
// reaches 8e-6 at |x| = 1e5, over the 1e-6 contract; the third part brings it below 1e-8.
SD_CONST float kTwoOverPi = 0.636619772367581343076f;
SD_CONST float kPiOver2A = 1.5703125f;                // 201 / 128
SD_CONST float kPiOver2B = 4.825592041015625e-4f;     // 253 / 2^19
SD_CONST float kPiOver2C = 1.2675907950567313217e-6f; // pi/2 - A - B
// Rounding adds and subtracts 1.5 * 2^23: for |q| <= 2^22 the sum's spacing is 1, so IEEE
// round-to-nearest-even of the addition IS the rounding of q, with no select. Inputs are clamped
// to +-2^22 first so the sum stays in that binade and the conversion to int is always defined.
SD_CONST float kRoundingBias = 12582912.0f; // 1.5 * 2^23
SD_CONST int kRoundingBiasInt = 12582912;
SD_CONST float kReductionLimit = 4194304.0f; // 2^22

// Clamp to [-2^22, 2^22]; NaN gives 2^22. Plain selects: GCC's jump threading turns chains of
// correlated comparisons into control flow the vectoriser rejects, so the kernels keep
// comparisons on one variable few and uncorrelated.
SD_FUNC float sdClampReduction(float q) {
    float c = q < kReductionLimit ? q : kReductionLimit;
    return c > -kReductionLimit ? c : -kReductionLimit;
}

// Nearest integer (halves to even) for |q| <= 2^22 (clamped there; NaN gives 2^22).
SD_FUNC int sdRoundToInt(float q) {
    return int(sdClampReduction(q) + kRoundingBias) - kRoundingBiasInt;
}

// Largest integer <= x, for |x| <= 2^22 (clamped there; NaN gives 2^22).
SD_FUNC int sdFloorToInt(float x) {
    float c = sdClampReduction(x);
    int i = int(c + kRoundingBias) - kRoundingBiasInt;
    return i - (float(i) > c ? 1 : 0);
}

// sin(r) and cos(r) for |r| <= pi/4 (a little more is fine).
SD_FUNC float sdSinPoly(float r) {
    float z = r * r;
    return r + r * z * ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f);
}
SD_FUNC float sdCosPoly(float r) {
    float z = r * r;
    float y = ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f);
    return 1.0f - 0.5f * z + y * z * z;
}

// Beyond the exact range (|x| > ~1e5) the remainder can leave [-pi/4, pi/4]; clamping it keeps
// the result in [-1, 1] for any finite x (and NaN stays NaN).
SD_CONST float kMaxReduced = 0.8f;

// x reduced to quadrant k and remainder r, |r| <= pi/4 (+ rounding).
SD_FUNC float sdReduceHalfPi(float x, SD_OUT(int) k) {
    k = sdRoundToInt(x * kTwoOverPi);
    float kf = float(k);
    float r = ((x - kf * kPiOver2A) - kf * kPiOver2B) - kf * kPiOver2C;
    r = r > kMaxReduced ? kMaxReduced : r;
    return r < -kMaxReduced ? -kMaxReduced : r;
}

// sin(r + q pi/2) from the two polynomials: odd quadrants swap them, quadrants 2 and 3 negate.
SD_FUNC float sdQuadrant(float s, float c, int q) {
    float v = (q & 1) != 0 ? c : s;
    return v * float(1 - (q & 2));
}

// sin(x). Max absolute error <= 1e-6 for |x| <= 1e5 (measured: tests/kernels/sd_math_test.cpp);
// larger |x| loses accuracy but stays in [-1, 1]; NaN gives NaN, infinities NaN or a value in
// [-1, 1], never a trap.
SD_FUNC float sdSin(float x) {
    int k;
    float r = sdReduceHalfPi(x, k);
    return sdQuadrant(sdSinPoly(r), sdCosPoly(r), k);
}

// cos(x), as sdSin: cos(x) = sin(x + pi/2), i.e. one quadrant further.
SD_FUNC float sdCos(float x) {
    int k;
    float r = sdReduceHalfPi(x, k);
    return sdQuadrant(sdSinPoly(r), sdCosPoly(r), k + 1);
}

// Both at once, sharing the reduction: equal bits to sdSin(x) and sdCos(x).
SD_FUNC void sdSinCos(float x, SD_OUT(float) s, SD_OUT(float) c) {
    int k;
    float r = sdReduceHalfPi(x, k);
    float ps = sdSinPoly(r);
    float pc = sdCosPoly(r);
    s = sdQuadrant(ps, pc, k);
    c = sdQuadrant(ps, pc, k + 1);
}

// exp: n = round(x / ln 2), r = x - n ln 2 (ln 2 in two parts; n * kLn2A is exact for |n| < 2^15),
// exp(x) = 2^n * p(r), with 2^n built from its exponent bits.
SD_CONST float kLog2E = 1.44269504088896341f;
SD_CONST float kLn2A = 0.693359375f; // 355 / 512
SD_CONST float kLn2B = -2.12194440e-4f;
// Inputs are clamped to [kExpMinInput, kExpMaxInput]. At the top the result is
// sdExp(88) ~ 1.65e38 (finite). At the bottom n reaches -127, whose exponent field is 0, so the
// scale 2^n is +0: results below ~2^-126.5 (x < ~-87.68) are exactly 0, with no extra select.
SD_CONST float kExpMaxInput = 88.0f;
SD_CONST float kExpMinInput = -88.0f;

// exp(x). Relative error <= 2e-7 for x in [-80, 80] (measured: ~8e-8); 0 for x < -87.7; clamped
// to ~1.65e38 for x > 88 (and for NaN), so the result is always finite.
SD_FUNC float sdExp(float x) {
    float c = x < kExpMaxInput ? x : kExpMaxInput;
    c = c > kExpMinInput ? c : kExpMinInput;
    int n = sdRoundToInt(c * kLog2E); // -127..127
    float nf = float(n);
    float r = (c - nf * kLn2A) - nf * kLn2B;
    float z = r * r;
    float p = ((((1.9875691500e-4f * r + 1.3981999507e-3f) * r + 8.3334519073e-3f) * r +
                4.1665795894e-2f) *
                   r +
               1.6666665459e-1f) *
                  r +
              5.0000001201e-1f;
    float e = (p * z + r) + 1.0f;
    return e * uintBitsToFloat(uint(n + 127) << 23u);
}

// The smallest normal float: sdLog clamps its input to it.
SD_CONST float kMinNormalFloat = 1.17549435e-38f;
SD_CONST float kSqrtHalf = 0.707106781186547524f;

// Natural log for x > 0, relative error ~2e-7. x below the smallest normal float (0, subnormals,
// negative numbers, NaN) is treated as that float, giving about -87.34: always finite, so
// sdExp(a * sdLog(x)) is a safe power function.
SD_FUNC float sdLog(float x) {
    float c = x > kMinNormalFloat ? x : kMinNormalFloat;
    c = c < 3.40282347e38f ? c : 3.40282347e38f;
    uint bits = floatBitsToUint(c);
    int e = int(bits >> 23u) - 126; // c = m * 2^e, m in [0.5, 1)
    float m = uintBitsToFloat((bits & 0x007fffffu) | 0x3f000000u);
    bool low = m < kSqrtHalf;
    e = low ? e - 1 : e;
    float f = low ? (m + m) - 1.0f : m - 1.0f; // in [sqrt(1/2) - 1, sqrt(2) - 1)
    float z = f * f;
    float y = ((((((((7.0376836292e-2f * f - 1.1514610310e-1f) * f + 1.1676998740e-1f) * f -
                    1.2420140846e-1f) *
                       f +
                   1.4249322787e-1f) *
                      f -
                  1.6668057665e-1f) *
                     f +
                 2.0000714765e-1f) *
                    f -
                2.4999993993e-1f) *
                   f +
               3.3333331174e-1f) *
              f * z;
    float ef = float(e);
    y = y + kLn2B * ef;
    y = y - 0.5f * z;
    return (f + y) + kLn2A * ef;
}

// base^exponent for base > 0 (base <= 0 is treated as the smallest normal float, so 0^e is ~0
// for e >= 1 and exactly 1 for e = 0). Relative error ~1e-6 for moderate results.
SD_FUNC float sdPow(float base, float exponent) {
    return sdExp(exponent * sdLog(base));
}

// v / |v|, or fallback when v is zero (a particle of size 0 still gets finite axes).
SD_FUNC vec3 sdUnitOr(vec3 v, vec3 fallback) {
    float l = length(v);
    return l > 0.0f ? v / l : fallback;
}

// A tangent basis of the plane with unit normal n: t1 (corner x) and t2 = n x t1 (corner y).
// For a vertical plane t2 is as close to +Y as it gets; for a horizontal one t1 is +X.
SD_FUNC void sdPlaneBasis(vec3 n, SD_OUT(vec3) t1, SD_OUT(vec3) t2) {
    vec3 reference = abs(n.y) < 0.999f ? vec3(0.0f, 1.0f, 0.0f) : vec3(0.0f, 0.0f, -1.0f);
    t1 = normalize(cross(reference, n));
    t2 = cross(n, t1);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_SD_MATH_H
