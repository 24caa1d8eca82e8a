// The gizmos' segments (src/editor/gizmo_lines.h): each shape where its emitter's births are
// placed (position and rotation), its size from the compiled records, a mesh shape's bounds, the
// effect's bounds, and the selected emitter in the bright colour.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "compiler/compile_effect.h"
#include "editor/gizmo_lines.h"

namespace spindrift::editor {
namespace {

std::shared_ptr<CompiledEffect> compile(const EffectDesc& desc) {
    auto compiled = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(compileEffect(desc, *compiled, diagnostics));
    for (const Diagnostic& d : diagnostics) ADD_FAILURE() << formatDiagnostic(d);
    return compiled;
}

EmitterDesc emitter(const char* name, ShapeKind kind) {
    EmitterDesc e;
    e.name = name;
    e.capacity = 16;
    e.shape.type = kind;
    return e;
}

bool same(const Float3& a, const Float3& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

float distance(const Float3& a, const Float3& b) {
    return std::hypot(a.x - b.x, a.y - b.y, a.z - b.z);
}

TEST(GizmoLines, ShapesSitWhereBirthsArePlacedWithTheirCompiledSizes) {
    EffectDesc desc;
    desc.name = "gizmos";
    desc.capacity = 64;
    desc.bounds = {{0, 1, 0}, {2, 1, 3}};
    EmitterDesc sphere = emitter("sphere", ShapeKind::sphere);
    sphere.shape.radius = 0.75f;
    sphere.transform.position = {1, 2, 3};
    EmitterDesc cone = emitter("cone", ShapeKind::cone);
    cone.shape.radius = 0.2f;
    cone.shape.length = 2;
    cone.shape.angle_deg = 45;
    cone.transform.rotation_deg = {180, 0, 0}; // upside down: its top ring is at y = -2
    EmitterDesc mesh = emitter("mesh", ShapeKind::mesh);
    mesh.shape.points = {{{-1, 0, 0}, {0, 1, 0}}, {{2, 1, -3}, {0, 1, 0}}};
    desc.emitters = {sphere, cone, mesh};
    const auto compiled = compile(desc);

    std::vector<render::OverlayLine> lines;
    appendGizmoLines(*compiled, Rows3x4{}, "cone", lines);
    // The bounds first: 12 edges of 8 dashes, within the bounds box and touching its corners.
    ASSERT_GT(lines.size(), 96u);
    bool corner = false;
    for (size_t i = 0; i < 96; ++i) {
        const render::OverlayLine& l = lines[i];
        EXPECT_TRUE(same(l.color, kGizmoBounds));
        EXPECT_LE(std::abs(l.from.x), 2.0f + 1e-5f);
        EXPECT_LE(std::abs(l.from.y - 1), 1.0f + 1e-5f);
        EXPECT_LE(std::abs(l.from.z), 3.0f + 1e-5f);
        corner = corner || same(l.from, {-2, 0, -3});
    }
    EXPECT_TRUE(corner);
    uint32_t sphere_segments = 0, cone_segments = 0, mesh_segments = 0;
    float cone_lowest = 0;
    Float3 mesh_lo{1e9f, 1e9f, 1e9f}, mesh_hi{-1e9f, -1e9f, -1e9f};
    // Then the emitters in compiled order: every sphere end on the sphere about its position.
    for (size_t i = 96; i < lines.size(); ++i) {
        const render::OverlayLine& l = lines[i];
        if (i < 96 + 3 * kGizmoCircleSegments) {
            ++sphere_segments;
            EXPECT_NEAR(distance(l.from, {1, 2, 3}), 0.75f, 1e-4f) << i;
            EXPECT_TRUE(same(l.color, kGizmoEmitter));
        } else if (same(l.color, kGizmoSelected)) {
            ++cone_segments;
            cone_lowest = std::min({cone_lowest, l.from.y, l.to.y});
        } else {
            ++mesh_segments;
            for (const Float3& p : {l.from, l.to}) {
                mesh_lo = {std::min(mesh_lo.x, p.x), std::min(mesh_lo.y, p.y),
                           std::min(mesh_lo.z, p.z)};
                mesh_hi = {std::max(mesh_hi.x, p.x), std::max(mesh_hi.y, p.y),
                           std::max(mesh_hi.z, p.z)};
            }
        }
    }
    EXPECT_EQ(sphere_segments, 3 * kGizmoCircleSegments);
    EXPECT_EQ(cone_segments, 2 * kGizmoCircleSegments + 4); // two rings, four generatrices
    EXPECT_NEAR(cone_lowest, -2.0f, 1e-4f);
    EXPECT_EQ(mesh_segments, 12u); // the box of its points
    EXPECT_TRUE(same(mesh_lo, {-1, 0, -3}));
    EXPECT_TRUE(same(mesh_hi, {2, 1, 0}));
}

TEST(GizmoLines, TheInstancePlacementMovesEverythingAndNoNameSelectsNothing) {
    EffectDesc desc;
    desc.name = "moved";
    desc.capacity = 16;
    EmitterDesc point = emitter("p", ShapeKind::point);
    desc.emitters = {point};
    const auto compiled = compile(desc);
    std::vector<render::OverlayLine> at_origin, moved;
    appendGizmoLines(*compiled, Rows3x4{}, "", at_origin);
    Rows3x4 there;
    there.rows[0].w = 5;
    there.rows[2].w = -2;
    appendGizmoLines(*compiled, there, "", moved);
    ASSERT_EQ(at_origin.size(), moved.size());
    ASSERT_EQ(at_origin.size(), 96u + 3u); // the bounds and the point's cross
    for (size_t i = 0; i < moved.size(); ++i) {
        EXPECT_FLOAT_EQ(moved[i].from.x, at_origin[i].from.x + 5);
        EXPECT_FLOAT_EQ(moved[i].to.z, at_origin[i].to.z - 2);
        EXPECT_FALSE(same(moved[i].color, kGizmoSelected));
    }
}

} // namespace
} // namespace spindrift::editor
