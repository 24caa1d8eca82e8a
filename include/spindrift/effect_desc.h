// The authoring model: what an effect artist writes, as plain C++ values.
//
// Every field name here is also its JSON key (docs/effect-format.md), its name in the compiled
// records and in the CLI's output: one concept, one word. Defaults written here are the
// documented defaults a missing JSON key takes. Units sit in the names (_s, _deg, _per_s, _m).
//
// Coordinates are right-handed and Y-up, lengths in metres. Emitter rotation is given in degrees
// as rotation_deg = [x, y, z] and applied as extrinsic rotations about the parent's X axis, then
// Y, then Z; as a matrix: parent_from_emitter = Rz * Ry * Rx. An emitter's "up" is its local +Y.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace spindrift {

// ---------------------------------------------------------------------------------------------
// Limits. Every capacity the format accepts is one of these; values past them are errors at
// load time, never clamps.
inline constexpr uint32_t kMaxEmitters = 64;
inline constexpr uint32_t kMaxEmitterCapacity = 1u << 27; // 134,217,728 particles
inline constexpr uint32_t kMaxEffectCapacity = 1u << 28;  // sum over emitters
inline constexpr uint32_t kMaxBursts = 16;                // per emitter
inline constexpr uint32_t kMaxBurstCount = 1u << 20;      // particles per burst cycle
inline constexpr uint32_t kMaxBurstCycles = 1u << 16;     // 0 means "repeat for ever"
inline constexpr uint32_t kMaxUpdateModules = 32;         // per emitter, before fusion
inline constexpr uint32_t kMaxForceFields = 8;            // per emitter
inline constexpr uint32_t kMaxAttractors = 8;             // per emitter
inline constexpr uint32_t kMaxColliders = 8;              // planes + spheres + boxes, per module
inline constexpr float kMaxSceneDepthThickness = 100.0f;  // m, collision depth_thickness
inline constexpr uint32_t kMaxCurveKeys = 32;
inline constexpr uint32_t kMaxGradientKeys = 16;      // each of color_keys / alpha_keys
inline constexpr uint32_t kMaxMeshPoints = 65536;     // per emitter
inline constexpr uint32_t kMaxSubEmitters = 8;        // links per emitter
inline constexpr uint32_t kMaxSubEmitterCount = 1024; // children per event
inline constexpr uint32_t kMaxNameBytes = 64;
inline constexpr uint32_t kMaxPathBytes = 256;
inline constexpr uint32_t kMaxCurlOctaves = 6;
inline constexpr uint32_t kMaxFlipbookCells = 4096; // columns * rows
inline constexpr uint32_t kMaxRibbonPoints = 256;
inline constexpr uint32_t kMaxBeamSegments = 256;
inline constexpr uint32_t kMaxGameplayEventsPerStep = 65536; // events.max_per_step, per emitter
inline constexpr uint32_t kMaxParticleLights = 16;           // render.lights.count, per emitter
inline constexpr uint32_t kMaxParticleLightStride = 65536;   // render.lights.every_k
inline constexpr float kMaxParticleLightIntensity = 1.0e6f;
inline constexpr float kMaxParticleLightRange_m = 1000;
// m: each coordinate of bounds.center in [-kMaxBoundsExtent, kMaxBoundsExtent], each
// half-extent in [0, kMaxBoundsExtent]. A thousand kilometres is far past any effect, and keeps
// the framing and culling maths that square and sum these far from float overflow.
inline constexpr float kMaxBoundsExtent = 1e6f;
// The largest colour component (gradient keys, init colours, a blackbody intensity) and the
// largest render.emissive: 65504, the largest finite half float, the most the 16-bit float HDR
// target holds (docs/rendering.md, "Colour pipeline"). Colours above 1 are HDR: they glow.
inline constexpr float kMaxColorValue = 65504.0f;
inline constexpr float kMaxEmissive = 65504.0f;
// The largest render.distortion: a displacement of twice the quad's half extent (past it the
// image behind a haze tears apart rather than bends).
inline constexpr float kMaxDistortion = 2.0f;
// The temperatures a blackbody module may key, kelvin: the range the approximation it uses was
// fitted over (src/kernels/blackbody.h).
inline constexpr float kMinBlackbodyKelvin = 1000.0f;
inline constexpr float kMaxBlackbodyKelvin = 40000.0f;

// ---------------------------------------------------------------------------------------------
// Value types.

struct Float3 {
    float x = 0, y = 0, z = 0;
    friend bool operator==(const Float3&, const Float3&) = default;
};

// Linear (not sRGB) RGBA.
struct Float4 {
    float x = 0, y = 0, z = 0, w = 0;
    friend bool operator==(const Float4&, const Float4&) = default;
};

// JSON: a number (min == max) or [min, max] with min <= max.
struct FloatRange {
    float min = 0, max = 0;
    friend bool operator==(const FloatRange&, const FloatRange&) = default;
};

// JSON: [x, y, z] (min == max) or [[x, y, z], [x, y, z]], componentwise min <= max.
struct Float3Range {
    Float3 min, max;
    friend bool operator==(const Float3Range&, const Float3Range&) = default;
};

// JSON: an integer (min == max) or [min, max].
struct CountRange {
    uint32_t min = 0, max = 0;
    friend bool operator==(const CountRange&, const CountRange&) = default;
};

// Frozen: serialized in cooked files and read by shaders.
enum class Interpolation : uint8_t { linear = 0, smooth = 1, step = 2 };

// Keyframes over normalised time t in [0, 1], strictly increasing t.
// JSON: a number (a constant curve) or {"interpolation": "linear", "keys": [[t, v], ...]}.
// Before the first key the curve holds the first value, after the last key the last value.
// smooth is a cubic Hermite with zero tangents at the keys (smoothstep between neighbours).
struct CurveKey {
    float t = 0, value = 0;
    friend bool operator==(const CurveKey&, const CurveKey&) = default;
};
struct Curve {
    Interpolation interpolation = Interpolation::linear;
    std::vector<CurveKey> keys{{0, 1}}; // 1..kMaxCurveKeys; default: the constant 1
    friend bool operator==(const Curve&, const Curve&) = default;
};

// JSON: {"interpolation": "linear", "color_keys": [[t, r, g, b], ...],
//        "alpha_keys": [[t, a], ...]}. Colour in linear RGB, each component in
// [0, kMaxColorValue] (above 1: HDR). Both key lists 1..kMaxGradientKeys.
struct ColorKey {
    float t = 0;
    Float3 color{1, 1, 1};
    friend bool operator==(const ColorKey&, const ColorKey&) = default;
};
struct AlphaKey {
    float t = 0, alpha = 1;
    friend bool operator==(const AlphaKey&, const AlphaKey&) = default;
};
struct Gradient {
    Interpolation interpolation = Interpolation::linear;
    std::vector<ColorKey> color_keys{{0, {1, 1, 1}}}; // default: constant white
    std::vector<AlphaKey> alpha_keys{{0, 1}};         // default: constant opaque
    friend bool operator==(const Gradient&, const Gradient&) = default;
};

// ---------------------------------------------------------------------------------------------
// Effect-level enums. Frozen: numbered values are cooked and read by shaders.

enum class SimulationSpace : uint8_t { world = 0, local = 1 };
enum class BackendPreference : uint8_t { auto_ = 0, cpu = 1, gpu = 2 }; // JSON "auto"
// What happens to a birth when the emitter's pool is full (counted in stats either way).
enum class OverflowPolicy : uint8_t { drop_new = 0, replace_oldest = 1 };

// ---------------------------------------------------------------------------------------------
// Spawn stage.

struct Burst {
    float time_s = 0;         // from the emitter's start (after delay_s)
    CountRange count{10, 10}; // particles per cycle, drawn per cycle when min < max
    uint32_t cycles = 1;      // 0 = repeat for ever
    float interval_s = 1;     // between cycles; > 0 when cycles != 1
    float probability = 1;    // per cycle, [0, 1]
    friend bool operator==(const Burst&, const Burst&) = default;
};

struct SpawnDesc {
    float rate_per_s = 10;     // >= 0
    float rate_per_m = 0;      // births per metre the emitter travels, >= 0
    float delay_s = 0;         // nothing is born before this time, >= 0
    std::vector<Burst> bursts; // 0..kMaxBursts
    friend bool operator==(const SpawnDesc&, const SpawnDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Shape stage. Each shape defines where a particle is born and its initial direction (the
// direction init.speed is applied along); see docs/effect-format.md for the table.

enum class ShapeKind : uint8_t {
    point = 0,
    line = 1,
    box = 2,
    sphere = 3,
    hemisphere = 4,
    cone = 5,
    circle = 6,
    torus = 7,
    mesh = 8,
};
enum class EmitFrom : uint8_t { volume = 0, shell = 1, edge = 2 };

struct MeshPoint {
    Float3 position;
    Float3 normal{0, 1, 0}; // unit length after load (normalised, zero is an error)
    friend bool operator==(const MeshPoint&, const MeshPoint&) = default;
};

struct ShapeDesc {
    ShapeKind type = ShapeKind::point;
    EmitFrom emit_from = EmitFrom::volume;
    float radius = 0.5f;           // sphere, hemisphere, cone (base), circle, torus (ring)
    float tube_radius = 0.1f;      // torus
    float length = 1;              // line (along X, centred), cone (height along +Y)
    Float3 size{1, 1, 1};          // box, full extents
    float angle_deg = 25;          // cone half angle, [0, 90)
    float arc_deg = 360;           // circle, cone, torus: the swept part of the ring, (0, 360]
    float randomize_direction = 0; // [0, 1]: blend from the shape's direction to a random one
    std::vector<MeshPoint> points; // mesh: the surface samples births pick from uniformly
    friend bool operator==(const ShapeDesc&, const ShapeDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Init stage: the values a particle is born with.

enum class ColorMode : uint8_t { constant = 0, random_between = 1, gradient = 2 };

// JSON "color": [r, g, b, a] | [[r, g, b, a], [r, g, b, a]] (a random blend of the two) |
// {"gradient": Gradient} (a random point on the gradient).
struct ColorInit {
    ColorMode mode = ColorMode::constant;
    Float4 a{1, 1, 1, 1};
    Float4 b{1, 1, 1, 1};
    Gradient gradient; // mode == gradient
    friend bool operator==(const ColorInit&, const ColorInit&) = default;
};

struct InitDesc {
    FloatRange lifetime_s{1, 1}; // > 0
    FloatRange size{0.1f, 0.1f}; // metres, >= 0
    FloatRange rotation_deg{0, 0};
    FloatRange angular_velocity_deg_per_s{0, 0};
    FloatRange speed{1, 1}; // along the shape's direction
    Float3Range velocity;   // added, in emitter space
    ColorInit color;
    FloatRange mass{1, 1}; // kg, > 0
    friend bool operator==(const InitDesc&, const InitDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Update stage: modules run in authored order. Each is its own small struct; UpdateModule is
// the closed set. JSON: {"type": "<name>", "enabled": true, ...fields}.

struct GravityModule {
    Float3 acceleration{0, -9.81f, 0}; // m/s^2, in world space
    friend bool operator==(const GravityModule&, const GravityModule&) = default;
};

// Accelerates along the emitter's up axis; the optional curve scales it over normalised age.
struct BuoyancyModule {
    float acceleration = 1; // m/s^2
    bool has_over_life = false;
    Curve over_life; // JSON: present only when has_over_life
    friend bool operator==(const BuoyancyModule&, const BuoyancyModule&) = default;
};

// Exponential: v *= exp(-coefficient_per_s * dt).
struct DragModule {
    float coefficient_per_s = 1; // >= 0
    friend bool operator==(const DragModule&, const DragModule&) = default;
};

// A constant acceleration (m/s^2) in world space.
struct ForceModule {
    Float3 acceleration{0, 0, 0};
    friend bool operator==(const ForceModule&, const ForceModule&) = default;
};

// Pulls velocity toward the wind velocity: v += (wind - v) * (1 - exp(-coefficient * dt)).
struct WindModule {
    Float3 velocity{1, 0, 0};
    float coefficient_per_s = 1; // >= 0
    friend bool operator==(const WindModule&, const WindModule&) = default;
};

// Above max_speed, the excess speed decays exponentially at damping_per_s (a soft limit).
struct SpeedLimitModule {
    float max_speed = 10;    // m/s, >= 0
    float damping_per_s = 5; // >= 0
    friend bool operator==(const SpeedLimitModule&, const SpeedLimitModule&) = default;
};

// Analytic divergence-free curl noise (curl of a noise potential), added as acceleration.
struct CurlNoiseModule {
    float strength = 1;     // m/s^2
    float frequency = 1;    // 1/m, > 0
    uint32_t octaves = 1;   // 1..kMaxCurlOctaves
    Float3 scroll{0, 0, 0}; // m/s: the field's drift over time
    friend bool operator==(const CurlNoiseModule&, const CurlNoiseModule&) = default;
};

enum class ForceFieldKind : uint8_t { point = 0, vortex = 1, drag = 2 };

// A force with a place: zero beyond radius; within it scaled by (1 - d / radius)^falloff.
// point: along the direction to the position (negative strength repels); vortex: around axis;
// drag: extra exponential drag with strength as the coefficient.
struct ForceFieldModule {
    ForceFieldKind shape = ForceFieldKind::point;
    Float3 position{0, 0, 0}; // emitter space
    Float3 axis{0, 1, 0};     // vortex, unit length after load
    float strength = 1;
    float radius = 1;  // > 0
    float falloff = 1; // >= 0; 0 = constant inside the radius
    friend bool operator==(const ForceFieldModule&, const ForceFieldModule&) = default;
};

// Pulls toward position with strength / max(d^2, radius^2)-style softening; particles closer
// than kill_radius die (0 disables).
struct AttractorModule {
    Float3 position{0, 0, 0}; // emitter space
    float strength = 1;
    float radius = 0.1f;   // softening radius, > 0
    float kill_radius = 0; // >= 0
    friend bool operator==(const AttractorModule&, const AttractorModule&) = default;
};

// Multiplies the born colour by the gradient sampled at normalised age.
struct ColorOverLifeModule {
    Gradient gradient;
    friend bool operator==(const ColorOverLifeModule&, const ColorOverLifeModule&) = default;
};

// Multiplies the born size by the curve sampled at normalised age.
struct SizeOverLifeModule {
    Curve curve;
    friend bool operator==(const SizeOverLifeModule&, const SizeOverLifeModule&) = default;
};

// Adds the curve (deg/s, over normalised age) to the born angular velocity.
struct RotationOverLifeModule {
    Curve angular_velocity_deg_per_s;
    friend bool operator==(const RotationOverLifeModule&, const RotationOverLifeModule&) = default;
};

// Multiplies colour by the gradient sampled at (speed - min_speed) / (max_speed - min_speed).
struct ColorBySpeedModule {
    Gradient gradient;
    float min_speed = 0;  // >= 0
    float max_speed = 10; // > min_speed
    friend bool operator==(const ColorBySpeedModule&, const ColorBySpeedModule&) = default;
};

// Multiplies size by the curve sampled at normalised speed (as ColorBySpeedModule).
struct SizeBySpeedModule {
    Curve curve;
    float min_speed = 0;
    float max_speed = 10;
    friend bool operator==(const SizeBySpeedModule&, const SizeBySpeedModule&) = default;
};

struct CollisionPlane {
    Float3 point{0, 0, 0};
    Float3 normal{0, 1, 0}; // unit length after load; particles live on the normal's side
    friend bool operator==(const CollisionPlane&, const CollisionPlane&) = default;
};
struct CollisionSphere {
    Float3 center{0, 0, 0};
    float radius = 1;    // > 0
    bool inside = false; // true: particles are kept inside the sphere
    friend bool operator==(const CollisionSphere&, const CollisionSphere&) = default;
};
struct CollisionBox {
    Float3 center{0, 0, 0};
    Float3 size{1, 1, 1}; // full extents, > 0
    friend bool operator==(const CollisionBox&, const CollisionBox&) = default;
};

enum class CollisionResponse : uint8_t { bounce = 0, stick = 1, kill = 2 };

// Bits of CollisionModule::collision_mask: collision groups 0..23 (a host collider's groups,
// spindrift::WorldCollider in runtime.h).
inline constexpr uint32_t kAllCollisionGroupsMask = (1u << 24) - 1u;

// Colliders are in world space. world_colliders also collides with the colliders the host gives
// the world (World::setColliders: its level's planes, boxes, capsules, cylinders, heightfields)
// whose groups meet collision_mask, and on the CPU backend with its distance field
// (World::setDistanceField). depth_buffer also collides with the scene depth the world is given
// (World::setSceneDepth; the engine's own renderer gives the previous frame's opaque depth), on
// both backends, and implies world_colliders: without a scene depth, the world's colliders
// only (inspect and validate say so). A particle behind the depth by more than depth_thickness
// metres is hidden by the surface, not in it, and passes.
struct CollisionModule {
    std::vector<CollisionPlane> planes;
    std::vector<CollisionSphere> spheres;
    std::vector<CollisionBox> boxes;
    bool depth_buffer = false;
    float depth_thickness = 0.5f; // m, (0, 100]: only read with depth_buffer
    bool world_colliders = false;
    uint32_t collision_mask = kAllCollisionGroupsMask; // [1, 2^24 - 1]
    CollisionResponse response = CollisionResponse::bounce;
    float bounce = 0.5f;       // restitution [0, 1]
    float friction = 0;        // [0, 1], tangential velocity lost per contact
    float lifetime_loss = 0;   // [0, 1], fraction of lifetime removed per contact
    float radius_scale = 0.5f; // particle collision radius = size * radius_scale, >= 0
    friend bool operator==(const CollisionModule&, const CollisionModule&) = default;
};

// The attractors the host gives the world (World::setAttractors: a magnet, a vacuum, a spell's
// focus), each a point force field in world space, whose groups meet attractor_mask, their
// strength times strength_scale. The world keeps the nearest few to its camera
// (docs/runtime-api.md, "Host-fed world"). Without a host they are none.
struct WorldAttractorsModule {
    uint32_t attractor_mask = kAllCollisionGroupsMask; // [1, 2^24 - 1]
    float strength_scale = 1;                          // finite
    friend bool operator==(const WorldAttractorsModule&, const WorldAttractorsModule&) = default;
};

// Multiplies the colour (rgb; alpha unchanged) by the colour of a black body at the temperature
// the curve gives at normalised age (kelvin, in [kMinBlackbodyKelvin, kMaxBlackbodyKelvin]),
// times intensity: a fire that cools from white-yellow to deep red over its life
// (src/kernels/blackbody.h; docs/effect-format.md, "blackbody").
struct BlackbodyModule {
    Curve temperature_k{Interpolation::linear, {{0, 1800}}};
    float intensity = 1; // [0, kMaxColorValue]
    friend bool operator==(const BlackbodyModule&, const BlackbodyModule&) = default;
};

using UpdateModuleVariant =
    std::variant<GravityModule, BuoyancyModule, DragModule, ForceModule, WindModule,
                 SpeedLimitModule, CurlNoiseModule, ForceFieldModule, AttractorModule,
                 ColorOverLifeModule, SizeOverLifeModule, RotationOverLifeModule,
                 ColorBySpeedModule, SizeBySpeedModule, CollisionModule, WorldAttractorsModule,
                 BlackbodyModule>;

// JSON "type" names, in variant order: gravity, buoyancy, drag, force, wind, speed_limit,
// curl_noise, force_field, attractor, color_over_life, size_over_life, rotation_over_life,
// color_by_speed, size_by_speed, collision, world_attractors, blackbody.
struct UpdateModule {
    bool enabled = true;
    UpdateModuleVariant module;
    friend bool operator==(const UpdateModule&, const UpdateModule&) = default;
};

// ---------------------------------------------------------------------------------------------
// Render stage.

enum class RenderType : uint8_t { billboard = 0, ribbon = 1, beam = 2, mesh = 3 };
// opaque: meshes only (no blending, depth written).
enum class BlendMode : uint8_t { additive = 0, premultiplied = 1, alpha = 2, opaque = 3 };
enum class Alignment : uint8_t { camera = 0, velocity_stretch = 1, axis = 2, fixed = 3 };
enum class SortMode : uint8_t {
    none = 0,
    back_to_front = 1,
    front_to_back = 2,
    oldest_first = 3,
    newest_first = 4,
};

struct Flipbook {
    uint32_t columns = 1, rows = 1; // columns * rows <= kMaxFlipbookCells
    uint32_t frames = 1;            // 1..columns*rows, played over the particle's life
    float cycles = 1;               // times the sequence plays over a life, > 0
    bool frame_blend = false;       // cross-fade neighbouring frames
    bool random_start = false;      // start at a random frame per particle
    friend bool operator==(const Flipbook&, const Flipbook&) = default;
};

// How a lit billboard gathers its light (docs/rendering.md, "Lighting per particle"). FROZEN
// values (JSON names "per_pixel", "per_particle").
// per_pixel: every pixel of the quad evaluates the whole light model at its own point (sun with
// its shadow taps, every point and spot light of its cluster): exact, and the cost is pixels x
// lights. per_particle: the lights are gathered once per particle, at its centre, into a
// linear function of the normal (each light as a wrapped lobe, (1 + n.l) / 2: light reaches the
// far side of a translucent puff), which each pixel evaluates with its own sphere normal; the
// sky light stays per pixel. The cost is particles x lights: what smoke under many lights needs.
enum class BillboardLighting : uint8_t { per_pixel = 0, per_particle = 1 };

struct BillboardDesc {
    Alignment alignment = Alignment::camera;
    Float3 axis{0, 1, 0}; // axis: the quad's long axis; fixed: the quad's normal
    float stretch = 0.1f; // velocity_stretch: extra length in seconds of travel
    Flipbook flipbook;
    // Distortion (docs/rendering.md, "Distortion"): [0, kMaxDistortion]; above 0 the billboard
    // draws no colour but bends the frame behind it (heat haze, shock waves): each pixel shows
    // the frame read at a point displaced across the quad by the texture's red and green channels
    // (0.5 none, read as data, not colour) or, untextured, a lens that magnifies the middle,
    // times this and the particle's alpha, in units of the quad's half extents. Not lit, blend
    // additive (the default: no colour is blended), no emissive share, no cutout, no lights.
    float distortion = 0;
    // Lit billboards only (render.lit): see BillboardLighting.
    BillboardLighting lighting = BillboardLighting::per_pixel;
    friend bool operator==(const BillboardDesc&, const BillboardDesc&) = default;
};

struct RibbonDesc {
    float width = 0.2f;                // metres at the head, > 0
    float uv_tiling = 1;               // texture repeats per metre of trail (0 = stretch once)
    float taper = 1;                   // [0, 1]: width at the tail is width * (1 - taper)
    float min_sample_distance = 0.05f; // metres between recorded points, > 0
    uint32_t max_points = 32;          // 2..kMaxRibbonPoints
    friend bool operator==(const RibbonDesc&, const RibbonDesc&) = default;
};

// A cubic Bezier from start to end with control points start + start_tangent and
// end + end_tangent (emitter space), sagging along -Y and jittered sideways.
struct BeamDesc {
    Float3 start{0, 0, 0};
    Float3 end{0, 0, 5};
    Float3 start_tangent{0, 0, 0};
    Float3 end_tangent{0, 0, 0};
    uint32_t segments = 16;      // 1..kMaxBeamSegments
    float width = 0.1f;          // > 0
    float sag = 0;               // metres at the middle, >= 0
    float jitter = 0;            // metres of sideways noise, >= 0
    float jitter_frequency = 10; // changes per second, >= 0
    friend bool operator==(const BeamDesc&, const BeamDesc&) = default;
};

struct MeshRenderDesc {
    std::string mesh;           // path to an OBJ file, relative to the effect file
    float scale = 1;            // > 0
    float tumble_deg_per_s = 0; // random-axis tumble rate, >= 0
    friend bool operator==(const MeshRenderDesc&, const MeshRenderDesc&) = default;
};

// Particle lights (docs/effect-format.md, "render.lights"; docs/rendering.md, "Lights"): up to
// count of the emitter's particles each become a point light at the particle, of colour
// particle rgb x alpha x intensity and the given range, chosen each frame by select. FROZEN values
// (JSON names "brightest", "oldest", "every_kth").
// brightest: the largest luminance of rgb x alpha; oldest: the largest normalised age (furthest
// through its life); every_kth: the particles at draw positions 0, k, 2k, ... (the first count).
enum class ParticleLightSelect : uint8_t { brightest = 0, oldest = 1, every_kth = 2 };

struct ParticleLightsDesc {
    uint32_t count = 0; // 0..kMaxParticleLights; 0: the emitter makes no lights
    ParticleLightSelect select = ParticleLightSelect::brightest;
    uint32_t every_k = 8; // every_kth only: 1..kMaxParticleLightStride
    float intensity = 1;  // [0, kMaxParticleLightIntensity]: multiplies rgb x alpha
    float range = 3;      // metres, (0, kMaxParticleLightRange_m]
    friend bool operator==(const ParticleLightsDesc&, const ParticleLightsDesc&) = default;
};

struct RenderDesc {
    RenderType type = RenderType::billboard;
    BlendMode blend = BlendMode::additive;
    std::string texture;          // PNG, relative to the effect file; empty = soft disc
    float soft_fade_distance = 0; // metres, >= 0; 0 disables soft particles
    bool lit = false;
    SortMode sort = SortMode::none;
    bool stable_order = false; // keep draw order = birth order (FIFO ring on the GPU)
    // The multiplier of the particle's colour in the HDR target, [0, kMaxEmissive]: above 1 fire
    // and sparks exceed 1 and bloom (docs/rendering.md, "Emissive").
    float emissive = 1;
    // [0, 1]: the part of each particle drawn additively (light it emits) beside its
    // alpha-blended share (premultiplied over). Other than 0 only with blend premultiplied.
    float emissive_share = 0;
    // Sun shadows (docs/rendering.md, "Shadows"): an alpha-blended or premultiplied billboard,
    // ribbon or beam casts through the opacity shadow map (soft, for smoke) unless shadow_cutout,
    // when its texels of at least half coverage cast into the sun's depth map (crisp, for
    // opaque-ish cards, leaves, debris, paper, cloth) and nothing goes through the opacity map.
    // Additive ones cast nothing. Not for meshes (opaque meshes always cast, blended ones never).
    bool shadow_cutout = false;
    // Exactly one of these is read, chosen by type; the JSON carries only that one's keys.
    BillboardDesc billboard;
    RibbonDesc ribbon;
    BeamDesc beam;
    MeshRenderDesc mesh;
    ParticleLightsDesc lights; // any type: particles as point lights
    friend bool operator==(const RenderDesc&, const RenderDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Sub-emitters: an event on a particle of this emitter spawns particles of another emitter.

// threshold: the particle crossed its emitter's events.threshold (EventsDesc).
enum class SubEmitterEvent : uint8_t { birth = 0, death = 1, collision = 2, threshold = 3 };

struct SubEmitterDesc {
    SubEmitterEvent event = SubEmitterEvent::death;
    std::string emitter;        // name of another emitter of the same effect; no cycles
    float probability = 1;      // [0, 1]
    CountRange count{1, 1};     // 1..kMaxSubEmitterCount
    float inherit_velocity = 0; // [0, 1]
    friend bool operator==(const SubEmitterDesc&, const SubEmitterDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// User parameters (docs/effect-format.md, "Parameters"): named values a host sets per instance
// at run time (World::setParameter) without recompiling. A module value written as
// {"param": "<name>"} instead of a constant takes the parameter's value: its default when the
// effect loads, the host's value once set.

inline constexpr uint32_t kMaxParameters = 64;         // per effect
inline constexpr uint32_t kMaxParameterBindings = 256; // {"param": ...} values per effect

// Frozen: cooked. JSON "float", "float3", "color" (linear RGBA).
enum class ParameterType : uint8_t { float_ = 0, float3 = 1, color = 2 };

// Components each type holds: float 1, float3 3, color 4.
inline constexpr uint32_t parameterComponents(ParameterType type) {
    return type == ParameterType::float_ ? 1u : type == ParameterType::float3 ? 3u : 4u;
}

// JSON: {"name": "intensity", "type": "float", "default": 1, "range": [0, 10]}. For float3 and
// color, "default" is [x, y, z] / [r, g, b, a] and each end of "range" is a number (every
// component) or an array of the type's width. Components past the type's width are 0.
struct ParameterDesc {
    std::string name; // unique in the effect, 1..kMaxNameBytes, [A-Za-z0-9_-]
    ParameterType type = ParameterType::float_;
    Float4 default_value; // finite, within [min, max] per component
    Float4 min;           // finite, min <= max per component
    Float4 max;
    friend bool operator==(const ParameterDesc&, const ParameterDesc&) = default;
};

// The value a binding replaces (frozen: cooked in bindings' descriptions). "float range" slots
// are [min, max] ranges, "float3 range" ones [[x,y,z],[x,y,z]] ranges, "colour" the init colour.
enum class ParameterTarget : uint8_t {
    rate_per_s = 0,             // spawn.rate_per_s: float
    rate_per_m = 1,             // spawn.rate_per_m: float
    burst_count = 2,            // spawn.bursts[item].count: float range, rounded to a count
    speed = 3,                  // init.speed: float range
    size = 4,                   // init.size: float range
    velocity = 5,               // init.velocity: float3 range
    color = 6,                  // init.color: colour (constant or random_between)
    gravity_acceleration = 7,   // update[item] gravity.acceleration: float3
    force_acceleration = 8,     // update[item] force.acceleration: float3
    wind_velocity = 9,          // update[item] wind.velocity: float3
    wind_coefficient = 10,      // update[item] wind.coefficient_per_s: float
    drag_coefficient = 11,      // update[item] drag.coefficient_per_s: float
    buoyancy_acceleration = 12, // update[item] buoyancy.acceleration: float
    curl_strength = 13,         // update[item] curl_noise.strength: float
    force_field_strength = 14,  // update[item] force_field.strength: float
    attractor_strength = 15,    // update[item] attractor.strength: float
    speed_limit_max_speed = 16, // update[item] speed_limit.max_speed: float
};

// Whole value or one part of it.
inline constexpr uint32_t kWholeValue = 0xFFFFFFFFu;

// One {"param": name} in the document: where it stands and which parameter it names. A parameter
// of the slot's own type replaces the whole value (element and component kWholeValue); one end of
// a range takes a parameter of the value's type (element 0 = min / first colour, 1 = max /
// second); a single component takes a float parameter (component 0..3).
struct ParameterBinding {
    std::string parameter;
    uint32_t emitter = 0; // authored emitter index
    ParameterTarget target = ParameterTarget::rate_per_s;
    uint32_t item = 0; // burst index (burst_count) or update module index (module targets)
    uint32_t element = kWholeValue;
    uint32_t component = kWholeValue;
    friend bool operator==(const ParameterBinding&, const ParameterBinding&) = default;
};

// Events to gameplay (docs/effect-format.md, "events"; docs/runtime-api.md, "Events"): the
// particle events of this emitter the runtime hands to the host, and the emitter's threshold.

enum class ThresholdQuantity : uint8_t {
    none = 0,         // no threshold
    speed = 1,        // |velocity|, m/s; value >= 0
    height = 2,       // world y of the position, m
    age_fraction = 3, // age / lifetime; value in [0, 1]
};

enum class ThresholdDirection : uint8_t { rising = 0, falling = 1, either = 2 };

// A particle crosses the threshold in a step when its quantity goes from below value to value or
// above (rising), the reverse (falling), or either. Used by threshold gameplay events and by
// sub-emitter links on "threshold".
struct ThresholdDesc {
    ThresholdQuantity quantity = ThresholdQuantity::none;
    float value = 0; // required when the threshold object is written; finite
    ThresholdDirection direction = ThresholdDirection::rising;
    friend bool operator==(const ThresholdDesc&, const ThresholdDesc&) = default;
};

// Which events reach the host (all off by default: an emitter without the block costs nothing).
struct EventsDesc {
    bool birth = false;
    bool death = false;
    bool collision = false;
    bool threshold = false;      // needs threshold.quantity != none
    uint32_t max_per_step = 256; // 1..kMaxGameplayEventsPerStep; the rest counted as dropped
    ThresholdDesc threshold_at;  // JSON "threshold_at"
    friend bool operator==(const EventsDesc&, const EventsDesc&) = default;
};

// ---------------------------------------------------------------------------------------------
// Emitter and effect.

struct Transform {
    Float3 position{0, 0, 0};
    Float3 rotation_deg{0, 0, 0}; // extrinsic X, then Y, then Z (see the top of this file)
    friend bool operator==(const Transform&, const Transform&) = default;
};

struct EmitterDesc {
    std::string name; // unique in the effect, 1..kMaxNameBytes, [A-Za-z0-9_-]
    bool enabled = true;
    uint32_t capacity = 1024; // 1..kMaxEmitterCapacity
    OverflowPolicy overflow = OverflowPolicy::drop_new;
    Transform transform;
    BackendPreference backend = BackendPreference::auto_;
    SpawnDesc spawn;
    ShapeDesc shape;
    InitDesc init;
    std::vector<UpdateModule> update; // 0..kMaxUpdateModules, authored order
    RenderDesc render;
    std::vector<SubEmitterDesc> sub_emitters; // 0..kMaxSubEmitters
    EventsDesc events;
    // Dropped when the world runs at QualityTier::low (World::setQualityTier): an emitter that
    // only adds richness (embers around a fire, dust under sparks).
    bool cosmetic = false;
    friend bool operator==(const EmitterDesc&, const EmitterDesc&) = default;
};

// Scalability (docs/effect-format.md, "scalability"; docs/runtime-api.md, "Scalability"): how
// an instance of the effect behaves far from the camera or out of its view.

// What a sleeping instance does when it wakes.
enum class WakePolicy : uint8_t {
    fast_forward = 0, // runs the steps it missed (at most max_fast_forward_s), as if never asleep
    restart = 1,      // starts again from time 0
};

// What an instance out of the world's cull view does (its bounds outside the view frustum).
enum class CulledPolicy : uint8_t {
    simulate = 0, // keeps simulating; drawn again as soon as it is in view
    sleep = 1,    // sleeps (not stepped, not drawn) and wakes by its WakePolicy
};

inline constexpr float kMaxSleepDistance = 1e5f; // metres
inline constexpr float kMaxFastForwardSeconds = 60.0f;

struct ScalabilityDesc {
    // Beyond this distance from the camera the instance sleeps; 0: it never sleeps by distance.
    float sleep_distance_m = 0; // 0 or (0, kMaxSleepDistance]
    // Births fade from full at sleep_distance_m - fade_band_m to none at sleep_distance_m.
    float fade_band_m = 0; // [0, sleep_distance_m]
    WakePolicy wake = WakePolicy::fast_forward;
    // The most simulated time a wake fast-forwards: a longer sleep restarts the instance and
    // runs this much (a looping effect wakes settled, at a bounded cost).
    float max_fast_forward_s = 2; // [0, kMaxFastForwardSeconds]
    CulledPolicy when_culled = CulledPolicy::simulate;
    friend bool operator==(const ScalabilityDesc&, const ScalabilityDesc&) = default;
};

struct Bounds {
    Float3 center{0, 0, 0};
    Float3 half_extents{1, 1, 1}; // >= 0
    friend bool operator==(const Bounds&, const Bounds&) = default;
};

struct EffectDesc {
    uint32_t version = 1; // JSON "version": the format version, must be 1
    std::string name;     // 1..kMaxNameBytes
    uint32_t seed = 0;
    float duration_s = 5; // (0, 3600]
    bool looping = true;
    SimulationSpace space = SimulationSpace::world;
    float fixed_timestep_s = 1.0f / 60.0f; // [1/1000, 1/10]
    Bounds bounds;                         // conservative, in effect space
    uint32_t capacity = 65536;             // >= sum of emitter capacities, <= kMaxEffectCapacity
    std::vector<EmitterDesc> emitters;     // 1..kMaxEmitters
    // User parameters and the values bound to them (0..kMaxParameters, 0..kMaxParameterBindings).
    // A bound value also holds the parameter's default in its own field above, so a reader of
    // the description sees the effect as it plays before any host sets a value.
    std::vector<ParameterDesc> parameters;
    std::vector<ParameterBinding> parameter_bindings;
    ScalabilityDesc scalability;
    friend bool operator==(const EffectDesc&, const EffectDesc&) = default;
};

} // namespace spindrift
