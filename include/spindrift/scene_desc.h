// The scene model: where effects are shown and how they are looked at (docs/scene-format.md).
//
// Every field name here is also its JSON key. Defaults written here are the documented defaults
// a missing JSON key takes. Coordinates are those of effect_desc.h: right-handed, Y-up, metres;
// colours are linear RGB (not sRGB). Rotations use the effect convention (extrinsic X, then Y,
// then Z, in degrees).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spindrift/effect_desc.h"
#include "spindrift/export.h"

namespace spindrift {

// ---------------------------------------------------------------------------------------------
// Limits. Values past them are load errors, never clamps.
inline constexpr uint32_t kMaxScenePrimitives = 64;
inline constexpr uint32_t kMaxSceneLights = 64;      // point and spot lights
inline constexpr float kMaxLightIntensity = 1.0e6f;  // a light's intensity, [0, this]
inline constexpr float kMaxLightRange_m = 1000;      // a light's range, (0, this]
inline constexpr float kMaxSkyIntensity = 1.0e4f;    // the sky light's intensity, [0, this]
inline constexpr uint32_t kMaxSceneEffects = 64;     // effect instances
inline constexpr uint32_t kMaxMotionPathKeys = 1024; // per instance
inline constexpr uint32_t kMinResolution = 16;       // pixels, each of width and height
inline constexpr uint32_t kMaxResolution = 8192;
inline constexpr uint32_t kMaxSceneFps = 240;
inline constexpr float kMaxSceneDuration_s = 3600;
inline constexpr float kMaxTimeScale = 100;
// An instance's start_s lies in [-kMaxScenePreRoll_s, kMaxSceneDuration_s]: it may have been
// running for at most a day when the scene starts (its pre-roll). The steps a frame needs are
// bounded too, by kMaxSimulatedSteps (runtime/driver.h): the player refuses a frame past it.
inline constexpr float kMaxScenePreRoll_s = 86400;

// ---------------------------------------------------------------------------------------------
// Camera. JSON: either {"position", "target", ...} (look_at) or {"orbit": {...}, ...}: the keys
// present choose the mode, and exactly one form must be given.

enum class CameraMode : uint8_t { look_at = 0, orbit = 1 };

// A camera circling center over time, always looking at center. At scene time t the camera is
// at angle a = start_deg + 360 * t / period_s, turning from +Z toward +X:
// eye = center + (radius * sin(a), height, radius * cos(a)).
struct CameraOrbit {
    Float3 center{0, 1, 0};
    float radius = 6;    // metres, > 0
    float height = 2;    // metres above center (negative: below), finite
    float period_s = 10; // seconds per turn, > 0
    float start_deg = 0; // finite
    friend bool operator==(const CameraOrbit&, const CameraOrbit&) = default;
};

struct CameraDesc {
    CameraMode mode = CameraMode::look_at;
    Float3 position{0, 2, 6}; // look_at: the eye
    Float3 target{0, 1, 0};   // look_at: the point in the image centre; != position
    CameraOrbit orbit;        // orbit mode only; must keep its default in look_at mode
    float fov_deg = 45;       // vertical field of view, [1, 179]
    float near = 0.05f;       // metres, > 0
    float far = 500;          // metres, > near
    friend bool operator==(const CameraDesc&, const CameraDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Static surroundings: a ground plane and simple opaque primitives.

struct GroundDesc {
    bool enabled = true;
    float height = 0;                  // the plane y = height
    Float3 color{0.18f, 0.18f, 0.18f}; // linear RGB, each >= 0
    float size = 40;                   // side of the square, centred on x = z = 0, metres, > 0
    friend bool operator==(const GroundDesc&, const GroundDesc&) = default;
};

enum class PrimitiveKind : uint8_t { box = 0, sphere = 1 };

// JSON: {"type": "box", "center", "size", "color"} or {"type": "sphere", "center", "radius",
// "color"}; a key of the other type is an error.
struct PrimitiveDesc {
    PrimitiveKind type = PrimitiveKind::box;
    Float3 center{0, 0, 0};
    Float3 size{1, 1, 1};           // box: full extents, each > 0
    float radius = 0.5f;            // sphere, > 0
    Float3 color{0.5f, 0.5f, 0.5f}; // linear RGB, each >= 0
    friend bool operator==(const PrimitiveDesc&, const PrimitiveDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Light: one directional sun plus a constant ambient term, a sky light (and the lights below).

struct SunDesc {
    // Unit vector from the scene TOWARD the sun (so a surface facing it has dot(n, direction)
    // = 1). The reader normalises it; zero is an error. Default: normalize(2, 4, 1).
    Float3 direction{0.43643578f, 0.87287156f, 0.21821789f};
    Float3 color{1, 0.95f, 0.9f}; // linear RGB, each >= 0
    float intensity = 1;          // >= 0
    friend bool operator==(const SunDesc&, const SunDesc&) = default;
};

// Sky light (docs/rendering.md, "Sky light"): light from every direction that depends on the
// direction, added to `ambient`: the zenith colour straight up, blending linearly with the
// elevation's sine to the horizon colour at the horizon, and the ground colour from every
// direction below it (the light the ground bounces up), all times intensity. The renderer
// projects it onto order-2 spherical harmonics (9 coefficients) once a frame and each lit surface
// takes the irradiance for its normal, so a surface facing up takes more of the zenith and one
// facing down more of the ground. A uniform sky of colour c lights as ambient c does. All black
// (the default) adds nothing.
struct SkyDesc {
    Float3 zenith{0, 0, 0};  // linear RGB, each >= 0
    Float3 horizon{0, 0, 0}; // linear RGB, each >= 0
    Float3 ground{0, 0, 0};  // linear RGB, each >= 0
    float intensity = 1;     // [0, kMaxSkyIntensity]; multiplies all three
    friend bool operator==(const SkyDesc&, const SkyDesc&) = default;
};

// Sun shadows (docs/rendering.md, "Shadows"): a cascaded shadow map of the sun over the view out
// to max_distance (opaque primitives, opaque mesh particles and cutout billboards cast; the ground,
// primitives, lit meshes and lit billboards receive), and an opacity shadow map of the other
// alpha-blended and premultiplied billboards (smoke darkens what is below it and itself). JSON
// "shadows": {"enabled", "resolution", "cascades", "max_distance", "bias", "opacity_resolution"}.
inline constexpr uint32_t kMinShadowResolution = 64;   // texels per side of a cascade, and
inline constexpr uint32_t kMaxShadowResolution = 4096; // of the opacity map
inline constexpr uint32_t kMaxShadowCascades = 4;
inline constexpr float kMaxShadowDistance_m = 10000; // max_distance, (0, this]
inline constexpr float kMaxShadowBias_m = 1;         // bias, [0, this]

struct ShadowDesc {
    bool enabled = true;
    uint32_t resolution = 1024;        // texels per side of each cascade, [64, 4096]
    uint32_t cascades = 2;             // 1..kMaxShadowCascades
    float max_distance = 40;           // metres of view depth the cascades cover, (0, 10000]
    float bias = 0.03f;                // metres a receiver is moved toward the sun, [0, 1]
    uint32_t opacity_resolution = 256; // texels per side of the opacity map, [64, 4096]
    friend bool operator==(const ShadowDesc&, const ShadowDesc&) = default;
};

// Point and spot lights (docs/rendering.md, "Lights"). A light gives a surface point at distance d
// colour * intensity * max(dot(n, l), 0) * window(d / range) / max(d, 0.1 m)^2, window falling
// smoothly from 1 to 0 at range; a spot's light is 1 inside inner_deg of its direction and fades
// to 0 at outer_deg. JSON: {"type": "point", "position", "color", "intensity", "range"}, and a spot
// adds "direction", "inner_deg", "outer_deg"; a spot key on a point light is an error. Both take
// "shadows".
// FROZEN values (JSON names "point", "spot").
enum class LightKind : uint8_t { point = 0, spot = 1 };

struct LightDesc {
    LightKind type = LightKind::point;
    Float3 position{0, 1, 0};
    Float3 color{1, 1, 1};      // linear RGB, each >= 0 (HDR: above 1 allowed)
    float intensity = 1;        // [0, kMaxLightIntensity]; multiplies color
    float range = 10;           // metres, (0, kMaxLightRange_m]: no light at or past it
    Float3 direction{0, -1, 0}; // spot: unit direction it shines along; the reader normalises it
    float inner_deg = 20;       // spot: full light within this angle of direction, [0, 90)
    float outer_deg = 30;       // spot: no light past this angle, (inner_deg, 90]
    // Casts shadows (docs/rendering.md, "Shadows of local lights"): perspective depth maps (a
    // spot: one over its cone; a point light: six, a cube), drawn by the primitives, opaque mesh
    // particles and cutout billboards and strips, when the scene's shadows are enabled; at most 8
    // tiles a frame, the lights that no longer fit counted and shaded unshadowed.
    bool shadows = false;
    friend bool operator==(const LightDesc&, const LightDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Transparency: how alpha-blended and premultiplied particles composite (docs/rendering.md,
// "Transparency"). sorted: drawn in order, each emitter's records sorted by its sort mode.
// weighted_oit: weighted-blended order-independent transparency (McGuire & Bavoil 2013): draw
// order does not matter, so those emitters are not sorted. Additive particles are
// order-independent either way. FROZEN values (JSON names "sorted", "weighted_oit").
enum class Transparency : uint8_t { sorted = 0, weighted_oit = 1 };

// At which resolution blended billboards and strips are drawn (docs/rendering.md,
// "Half-resolution particles"): full, or half the width and height, blended over the
// full-resolution frame with a depth-aware upsample so that opaque edges stay sharp. Half shades
// a quarter of the pixels, for fill-bound effects (large smoke, many layers). FROZEN values (JSON
// names "full", "half").
enum class ParticleResolution : uint8_t { full = 0, half = 1 };

// ---------------------------------------------------------------------------------------------
// HDR post (docs/rendering.md, "Colour pipeline"): the frame is drawn in linear half floats, then
// bloomed, exposed and tone mapped into [0, 1] before the 8-bit sRGB encode.

// The curve from exposed linear HDR to display-linear [0, 1]. FROZEN values (JSON names "none",
// "aces", "agx", "reinhard"; read by the post shader as kTonemap*).
// none: no curve (values above 1 clip); aces: the ACES filmic fit of Narkowicz (2015);
// agx: Sobotka's AgX base curve (the polynomial fit of Wrensch, 2023); reinhard: c / (1 + c).
enum class Tonemap : uint8_t { none = 0, aces = 1, agx = 2, reinhard = 3 };

// manual: the frame is multiplied by 2^ev. automatic (JSON "auto"): by 2^ev * 0.18 / L, with L the
// average luminance of the frame between two percentiles of a log-luminance histogram computed on
// the GPU (pixels darker than 2^-12 left out), L's log2 clamped to [min_ev, max_ev] and adapted
// over time at `speed`.
enum class ExposureMode : uint8_t { manual = 0, automatic = 1 };

inline constexpr float kMaxExposureEv = 16;     // |ev|, |min_ev|, |max_ev| at most this
inline constexpr float kMaxExposureSpeed = 100; // per second
inline constexpr uint32_t kMaxBloomLevels = 8;

struct ExposureDesc {
    ExposureMode mode = ExposureMode::manual;
    float ev = 0;            // manual: the exposure; auto: compensation. [-16, 16]
    float min_ev = -10;      // auto: log2 of the darkest average luminance exposed for
    float max_ev = 10;       // auto: of the brightest; min_ev < max_ev, both in [-16, 16]
    float low_percent = 50;  // auto: the darker pixels left out of the average, [0, 100)
    float high_percent = 95; // auto: the brighter ones from here on, (low_percent, 100]
    float speed = 2;         // auto: adaptation rate per second, [0, 100]; 0 never adapts
    friend bool operator==(const ExposureDesc&, const ExposureDesc&) = default;
};

// Energy-conserving bloom (Jimenez, "Next Generation Post Processing in Call of Duty: Advanced
// Warfare", SIGGRAPH 2014): the frame is mixed with its blurred self, frame * (1 - strength) +
// blur * strength, with no threshold, so a bright spot spreads light without adding any.
struct BloomDesc {
    float strength = 0.05f; // [0, 1]; 0 turns bloom off
    uint32_t levels = 6;    // blur levels (each half the size of the last), 1..kMaxBloomLevels
    friend bool operator==(const BloomDesc&, const BloomDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Effect instances.

// A moving instance: keys [t, x, y, z] in scene seconds and metres. The offset at time t is
// linear between neighbouring keys; before the first key it is the first key's offset, after
// the last the last's, unless loop, which repeats the span [t_first, t_last].
struct MotionKey {
    float t = 0;
    Float3 offset;
    friend bool operator==(const MotionKey&, const MotionKey&) = default;
};
struct MotionPath {
    std::vector<MotionKey> keys; // 2..kMaxMotionPathKeys, t finite and strictly increasing
    bool loop = false;
    friend bool operator==(const MotionPath&, const MotionPath&) = default;
};

struct EffectInstanceDesc {
    std::string effect;             // required: effect JSON path, relative to the scene file
    std::string name;               // optional; when set unique in the scene, [A-Za-z0-9_-]
    Float3 position{0, 0, 0};       // world position of the effect's origin
    Float3 rotation_deg{0, 0, 0};   // extrinsic X, then Y, then Z (effect_desc.h)
    std::optional<MotionPath> path; // when set, its offset is added to position over time
    // Scene time the effect starts, [-kMaxScenePreRoll_s, kMaxSceneDuration_s]; negative: already
    // running (pre-rolled) when the scene starts.
    float start_s = 0;
    float time_scale = 1; // effect seconds per scene second, (0, kMaxTimeScale]
    friend bool operator==(const EffectInstanceDesc&, const EffectInstanceDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// The scene.

struct Resolution {
    uint32_t width = 1280, height = 720; // each in [kMinResolution, kMaxResolution]
    friend bool operator==(const Resolution&, const Resolution&) = default;
};

struct SceneDesc {
    uint32_t version = 1; // JSON "version", required, must be 1
    CameraDesc camera;
    Resolution resolution;                  // JSON [width, height]
    Float3 background{0.02f, 0.02f, 0.03f}; // linear RGB, each >= 0
    GroundDesc ground;
    std::vector<PrimitiveDesc> primitives; // 0..kMaxScenePrimitives
    SunDesc sun;
    ShadowDesc shadows;
    Float3 ambient{0.12f, 0.12f, 0.15f}; // linear RGB, each >= 0
    SkyDesc sky;                         // direction-dependent ambient, added to ambient
    std::vector<LightDesc> lights;       // 0..kMaxSceneLights point and spot lights
    Transparency transparency = Transparency::sorted;
    ParticleResolution particle_resolution = ParticleResolution::full;
    ExposureDesc exposure;
    Tonemap tonemap = Tonemap::aces;
    BloomDesc bloom;
    std::vector<EffectInstanceDesc> effects; // 0..kMaxSceneEffects
    float duration_s = 5;                    // (0, kMaxSceneDuration_s]
    uint32_t fps = 30;                       // 1..kMaxSceneFps
    friend bool operator==(const SceneDesc&, const SceneDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Derived values: one function each, called by every host (renderer, CLI, editor, tests).

// Where the camera is at scene time time_s. up is +Y unless the view is within about 2.5
// degrees of vertical, where it is -Z looking down and +Z looking up (so eye, target and up are
// never degenerate for a valid camera).
struct CameraPose {
    Float3 eye, target, up;
};
SPINDRIFT_API CameraPose cameraPose(const CameraDesc& camera, float time_s);

// The world position of the instance's origin at scene time time_s (position + path offset).
SPINDRIFT_API Float3 instancePosition(const EffectInstanceDesc& instance, float time_s);

// How much of the image the default scene of an effect gives the framed box: its eight corners
// span this fraction of the image height, unless a wide box would pass kFramedWidthFraction of
// the width first.
inline constexpr double kFramedHeightFraction = 0.6;
inline constexpr double kFramedWidthFraction = 0.9;

// The height of the default scene's ground for an effect with these authored bounds: y = 0 when
// they reach it (effects are authored standing on their origin), else their bottom.
SPINDRIFT_API float defaultGroundHeight(const Bounds& authored);

// A scene that frames an effect (docs/scene-format.md, "The default scene of an effect"): the
// effect at the origin, unrotated, for its duration_s; the camera looking at the centre of the
// framed box from 15 degrees above the horizon along +Z, at the distance where the box spans
// kFramedHeightFraction of the image height (or kFramedWidthFraction of its width, whichever is
// reached farther away) at the default resolution; a dark ground at y = 0 when the effect's
// authored bounds reach it, else at their bottom. The framed box is `drawn` when given (what the
// effect draws, measured by the caller: `spindrift render` simulates it, src/render/
// effect_framing.h), else the effect's authored bounds; the part of it below the ground is cut
// off. effects[0].effect is effect_path: the caller passes the effect file's path (as it should
// appear in the scene; empty leaves the scene invalid until set). Non-finite or degenerate boxes
// still give a valid scene.
SPINDRIFT_API SceneDesc defaultSceneForEffect(const EffectDesc& effect,
                                              const std::string& effect_path = {},
                                              const std::optional<Bounds>& drawn = std::nullopt);

} // namespace spindrift
