#include "authoring/random_effect.h"

#include <cmath>
#include <random>
#include <string>

namespace spindrift::test {

namespace {

class Gen {
public:
    explicit Gen(uint32_t seed) : rng_(seed) {}

    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    uint32_t uint(uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_);
    }
    // A float in [lo, hi]: sometimes a round number, sometimes arbitrary bits, sometimes an end.
    float real(float lo, float hi) {
        const uint32_t kind = uint(0, 9);
        if (kind == 0) return lo;
        if (kind == 1) return hi;
        if (kind <= 4) {
            const float v = std::round(std::uniform_real_distribution<float>(lo, hi)(rng_) * 4) / 4;
            if (v >= lo && v <= hi) return v;
        }
        return std::uniform_real_distribution<float>(lo, hi)(rng_);
    }
    float above(float lo, float hi) {
        float v = real(lo, hi);
        return v > lo ? v : std::nextafter(lo, hi);
    }
    Float3 vec(float lo, float hi) { return {real(lo, hi), real(lo, hi), real(lo, hi)}; }
    Float3 direction() {
        for (;;) {
            Float3 v = vec(-1, 1);
            const double length =
                std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
            if (length < 1e-3) continue;
            Float3 n{float(v.x / length), float(v.y / length), float(v.z / length)};
            const double nl = std::sqrt(double(n.x) * n.x + double(n.y) * n.y + double(n.z) * n.z);
            if (std::fabs(nl - 1) <= 1e-5) return n;
        }
    }
    FloatRange range(float lo, float hi, bool open = false) {
        float a = open ? above(lo, hi) : real(lo, hi);
        if (chance(0.5)) return {a, a};
        float b = open ? above(lo, hi) : real(lo, hi);
        if (a > b) std::swap(a, b);
        return {a, b};
    }
    Float3Range range3() {
        Float3 a = vec(-5, 5);
        if (chance(0.5)) return {a, a};
        Float3 b = vec(-5, 5);
        return {{std::min(a.x, b.x), std::min(a.y, b.y), std::min(a.z, b.z)},
                {std::max(a.x, b.x), std::max(a.y, b.y), std::max(a.z, b.z)}};
    }
    CountRange count(uint32_t lo, uint32_t hi) {
        uint32_t a = uint(lo, hi), b = chance(0.5) ? a : uint(lo, hi);
        if (a > b) std::swap(a, b);
        return {a, b};
    }
    Float4 color() { return {real(0, 4), real(0, 4), real(0, 4), real(0, 1)}; }
    std::string name(size_t index) {
        static const char kChars[] =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
        std::string s = "e" + std::to_string(index);
        const uint32_t extra = uint(0, 12);
        for (uint32_t i = 0; i < extra; ++i) s += kChars[uint(0, sizeof(kChars) - 2)];
        return s;
    }
    // Strictly increasing times in [0, 1].
    std::vector<float> times(uint32_t n) {
        std::vector<float> t;
        float last = -1;
        for (uint32_t i = 0; i < n; ++i) {
            float v = i == 0 ? (chance(0.5) ? 0.0f : real(0, 0.5f)) : real(last, 1);
            if (v <= last) v = std::nextafter(last, 2.0f);
            if (v > 1) break;
            t.push_back(v);
            last = v;
        }
        return t;
    }
    Interpolation interpolation() { return Interpolation(uint(0, 2)); }
    Curve curve(float lo, float hi) {
        Curve c;
        if (chance(0.2)) return c;
        c.interpolation = interpolation();
        c.keys.clear();
        for (float t : times(uint(1, kMaxCurveKeys))) c.keys.push_back({t, real(lo, hi)});
        return c;
    }
    Gradient gradient() {
        Gradient g;
        if (chance(0.2)) return g;
        g.interpolation = interpolation();
        if (chance(0.8)) {
            g.color_keys.clear();
            for (float t : times(uint(1, kMaxGradientKeys))) {
                g.color_keys.push_back({t, {real(0, 2), real(0, 2), real(0, 2)}});
            }
        }
        if (chance(0.8)) {
            g.alpha_keys.clear();
            for (float t : times(uint(1, kMaxGradientKeys)))
                g.alpha_keys.push_back({t, real(0, 1)});
        }
        return g;
    }

    UpdateModule module(size_t type);
    ShapeDesc shape();
    RenderDesc render();
    EmitterDesc emitter(size_t index);

private:
    std::mt19937 rng_;
};

UpdateModule Gen::module(size_t type) {
    UpdateModule m;
    m.enabled = chance(0.8);
    switch (type) {
    case 0:
        m.module = GravityModule{vec(-20, 20)};
        break;
    case 1: {
        BuoyancyModule b{real(-5, 5), chance(0.5), {}};
        if (b.has_over_life) b.over_life = curve(-2, 2);
        m.module = b;
        break;
    }
    case 2:
        m.module = DragModule{real(0, 10)};
        break;
    case 3:
        m.module = ForceModule{vec(-10, 10)};
        break;
    case 4:
        m.module = WindModule{vec(-10, 10), real(0, 5)};
        break;
    case 5:
        m.module = SpeedLimitModule{real(0, 50), real(0, 20)};
        break;
    case 6:
        m.module = CurlNoiseModule{real(-5, 5), above(0, 8), uint(1, kMaxCurlOctaves), vec(-2, 2)};
        break;
    case 7:
        m.module = ForceFieldModule{ForceFieldKind(uint(0, 2)),
                                    vec(-5, 5),
                                    direction(),
                                    real(-10, 10),
                                    above(0, 10),
                                    real(0, 4)};
        break;
    case 8:
        m.module = AttractorModule{vec(-5, 5), real(-10, 10), above(0, 2), real(0, 1)};
        break;
    case 9:
        m.module = ColorOverLifeModule{gradient()};
        break;
    case 10:
        m.module = SizeOverLifeModule{curve(0, 3)};
        break;
    case 11:
        m.module = RotationOverLifeModule{curve(-720, 720)};
        break;
    case 12: {
        const float lo = real(0, 10);
        m.module = ColorBySpeedModule{gradient(), lo, above(lo, lo + 20)};
        break;
    }
    case 13: {
        const float lo = real(0, 10);
        m.module = SizeBySpeedModule{curve(0, 3), lo, above(lo, lo + 20)};
        break;
    }
    case 15:
        m.module = WorldAttractorsModule{uint(1, kAllCollisionGroupsMask), real(-5, 5)};
        break;
    case 16: {
        BlackbodyModule b;
        // curve() sometimes returns the default Curve (value 1), below the kelvin range: keep the
        // module's own default then.
        if (const Curve t = curve(kMinBlackbodyKelvin, kMaxBlackbodyKelvin); t != Curve{}) {
            b.temperature_k = t;
        }
        b.intensity = real(0, 20);
        m.module = b;
        break;
    }
    default: {
        CollisionModule c;
        const uint32_t planes = uint(0, 3), spheres = uint(0, 3), boxes = uint(0, 2);
        for (uint32_t i = 0; i < planes; ++i) c.planes.push_back({vec(-3, 3), direction()});
        for (uint32_t i = 0; i < spheres; ++i)
            c.spheres.push_back({vec(-3, 3), above(0, 3), chance(0.5)});
        for (uint32_t i = 0; i < boxes; ++i) {
            c.boxes.push_back({vec(-3, 3), {above(0, 3), above(0, 3), above(0, 3)}});
        }
        c.depth_buffer = chance(0.3);
        c.world_colliders = chance(0.3);
        c.collision_mask = uint(1, kAllCollisionGroupsMask);
        c.response = CollisionResponse(uint(0, 2));
        c.bounce = real(0, 1);
        c.friction = real(0, 1);
        c.lifetime_loss = real(0, 1);
        c.radius_scale = real(0, 2);
        m.module = c;
        break;
    }
    }
    return m;
}

ShapeDesc Gen::shape() {
    ShapeDesc s;
    s.type = ShapeKind(uint(0, 8));
    for (;;) {
        s.emit_from = EmitFrom(uint(0, 2));
        const bool ok = s.type == ShapeKind::point || s.type == ShapeKind::mesh
                            ? s.emit_from == EmitFrom::volume
                        : s.type == ShapeKind::line || s.type == ShapeKind::circle
                            ? s.emit_from != EmitFrom::shell
                        : s.type == ShapeKind::sphere || s.type == ShapeKind::torus
                            ? s.emit_from != EmitFrom::edge
                            : true;
        if (ok) break;
    }
    s.randomize_direction = real(0, 1);
    const ShapeKind t = s.type;
    const bool has_radius = t == ShapeKind::sphere || t == ShapeKind::hemisphere ||
                            t == ShapeKind::cone || t == ShapeKind::circle || t == ShapeKind::torus;
    if (has_radius) s.radius = real(0, 5);
    if (t == ShapeKind::torus) s.tube_radius = real(0, 1);
    if (t == ShapeKind::line || t == ShapeKind::cone) s.length = real(0, 5);
    if (t == ShapeKind::box) s.size = vec(0, 5);
    if (t == ShapeKind::cone) s.angle_deg = std::min(real(0, 89.5f), 89.5f);
    if (t == ShapeKind::cone || t == ShapeKind::circle || t == ShapeKind::torus) {
        s.arc_deg = above(0, 360);
    }
    if (t == ShapeKind::mesh) {
        const uint32_t n = uint(1, 20);
        for (uint32_t i = 0; i < n; ++i) s.points.push_back({vec(-2, 2), direction()});
    }
    return s;
}

RenderDesc Gen::render() {
    RenderDesc r;
    r.type = RenderType(uint(0, 3));
    r.blend = BlendMode(uint(0, 2));
    if (chance(0.5)) r.texture = "textures/t" + std::to_string(uint(0, 99)) + ".png";
    r.soft_fade_distance = real(0, 1);
    r.lit = chance(0.5);
    r.sort = SortMode(uint(0, 4));
    r.stable_order = chance(0.5);
    r.emissive = real(0, 30);
    if (r.blend == BlendMode::premultiplied) r.emissive_share = real(0, 1);
    if (chance(0.3)) {
        r.lights.count = uint(0, kMaxParticleLights);
        r.lights.select = ParticleLightSelect(uint(0, 2));
        r.lights.every_k = uint(1, 64);
        r.lights.intensity = real(0, 10);
        r.lights.range = above(0, 20);
    }
    switch (r.type) {
    case RenderType::billboard: {
        r.billboard.alignment = Alignment(uint(0, 3));
        r.billboard.axis = chance(0.5) ? direction() : vec(1, 3);
        r.billboard.stretch = real(0, 1);
        Flipbook& f = r.billboard.flipbook;
        f.columns = uint(1, 16);
        f.rows = uint(1, 16);
        f.frames = uint(1, f.columns * f.rows);
        f.cycles = above(0, 4);
        f.frame_blend = chance(0.5);
        f.random_start = chance(0.5);
        if (r.lit && chance(0.5)) r.billboard.lighting = BillboardLighting::per_particle;
        if (chance(0.2)) {
            // A distortion billboard: no colour settings (the validator refuses them).
            r.billboard.distortion = above(0, kMaxDistortion);
            r.blend = BlendMode::additive;
            r.lit = false;
            r.billboard.lighting = BillboardLighting::per_pixel;
            r.emissive = 1;
            r.emissive_share = 0;
            r.lights = ParticleLightsDesc{};
        }
        break;
    }
    case RenderType::ribbon:
        r.ribbon = {above(0, 1), real(0, 4), real(0, 1), above(0, 1), uint(2, kMaxRibbonPoints)};
        break;
    case RenderType::beam:
        r.beam = {vec(-5, 5),  vec(-5, 5), vec(-2, 2), vec(-2, 2), uint(1, kMaxBeamSegments),
                  above(0, 1), real(0, 2), real(0, 1), real(0, 30)};
        break;
    case RenderType::mesh:
        r.mesh = {"meshes/rock" + std::to_string(uint(0, 9)) + ".obj", above(0, 3), real(0, 360)};
        break;
    }
    return r;
}

EmitterDesc Gen::emitter(size_t index) {
    EmitterDesc e;
    e.name = name(index);
    e.enabled = chance(0.8);
    e.capacity = uint(1, 4096);
    e.overflow = OverflowPolicy(uint(0, 1));
    e.transform = {vec(-10, 10), vec(-180, 180)};
    e.backend = BackendPreference(uint(0, 2));
    e.spawn.rate_per_s = real(0, 500);
    e.spawn.rate_per_m = real(0, 10);
    e.spawn.delay_s = real(0, 2);
    const uint32_t bursts = uint(0, 4);
    for (uint32_t i = 0; i < bursts; ++i) {
        Burst b;
        b.time_s = real(0, 5);
        b.count = count(0, 200);
        b.cycles = uint(0, 5);
        b.interval_s = b.cycles == 1 ? real(0, 2) : above(0, 2);
        b.probability = real(0, 1);
        e.spawn.bursts.push_back(b);
    }
    e.shape = shape();
    e.init.lifetime_s = range(0, 5, true);
    e.init.size = range(0, 2);
    e.init.rotation_deg = range(-360, 360);
    e.init.angular_velocity_deg_per_s = range(-180, 180);
    e.init.speed = range(-5, 5);
    e.init.velocity = range3();
    switch (uint(0, 2)) {
    case 0:
        e.init.color = {ColorMode::constant, color(), {1, 1, 1, 1}, {}};
        break;
    case 1:
        e.init.color = {ColorMode::random_between, color(), color(), {}};
        break;
    default:
        e.init.color = {ColorMode::gradient, {1, 1, 1, 1}, {1, 1, 1, 1}, gradient()};
        break;
    }
    e.init.mass = range(0, 10, true);
    // At most kMaxForceFields modules, so no per-type limit can be passed.
    const uint32_t modules = uint(0, kMaxForceFields);
    for (uint32_t i = 0; i < modules; ++i) {
        e.update.push_back(module(uint(0, std::variant_size_v<UpdateModuleVariant> - 1)));
    }
    e.render = render();
    return e;
}

} // namespace

EffectDesc randomEffect(uint32_t seed) {
    Gen g(seed);
    EffectDesc e;
    e.name = g.chance(0.5) ? "effect " + std::to_string(seed) : "fx_\u00e9t\u00e9";
    e.seed = g.uint(0, 0xffffffffu);
    e.duration_s = g.above(0, 3600);
    e.looping = g.chance(0.5);
    e.space = SimulationSpace(g.uint(0, 1));
    e.fixed_timestep_s = g.real(0.001f, 0.1f);
    e.bounds = {g.vec(-10, 10), g.vec(0, 20)};
    const uint32_t emitters = g.uint(1, 6);
    uint64_t total = 0;
    for (uint32_t i = 0; i < emitters; ++i) {
        e.emitters.push_back(g.emitter(i));
        total += e.emitters.back().capacity;
    }
    e.capacity = uint32_t(total) + g.uint(0, 100000);
    // Sub-emitters only point forward (i -> j > i), so the graph has no cycle.
    for (uint32_t i = 0; i + 1 < emitters; ++i) {
        const uint32_t links = g.uint(0, 3);
        for (uint32_t k = 0; k < links; ++k) {
            SubEmitterDesc s;
            s.event = SubEmitterEvent(g.uint(0, 2));
            s.emitter = e.emitters[g.uint(i + 1, emitters - 1)].name;
            s.probability = g.real(0, 1);
            s.count = g.count(1, kMaxSubEmitterCount);
            s.inherit_velocity = g.real(0, 1);
            e.emitters[i].sub_emitters.push_back(s);
        }
    }
    return e;
}

} // namespace spindrift::test
