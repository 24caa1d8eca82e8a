// The OBJ reader: triangle lists with authored, flat or smooth normals, polygons split into fans,
// and one clear error for each kind of malformed file.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "mesh/obj_reader.h"

namespace spindrift {
namespace {

struct Parsed {
    bool ok = false;
    MeshData mesh;
    std::vector<Diagnostic> diagnostics;
};

Parsed parse(std::string_view text) {
    Parsed p;
    p.ok = parseObj(std::span<const char>(text.data(), text.size()), "test.obj", p.mesh,
                    p.diagnostics);
    return p;
}

// Expects exactly one error at `line` whose message contains `words`, and an empty mesh.
void expectError(std::string_view text, uint32_t line, std::string_view words) {
    const Parsed p = parse(text);
    EXPECT_FALSE(p.ok) << text;
    ASSERT_EQ(p.diagnostics.size(), 1u) << text;
    const Diagnostic& d = p.diagnostics[0];
    EXPECT_EQ(d.severity, Severity::error);
    EXPECT_EQ(d.file, "test.obj");
    EXPECT_EQ(d.line, line) << d.message;
    EXPECT_NE(d.message.find(words), std::string::npos) << d.message;
    EXPECT_TRUE(p.mesh.vertices.empty());
}

void expectVec(const vec4& v, float x, float y, float z) {
    EXPECT_NEAR(v.x, x, 1e-6f);
    EXPECT_NEAR(v.y, y, 1e-6f);
    EXPECT_NEAR(v.z, z, 1e-6f);
}

// Texture coordinates: u as written, v flipped (OBJ's v runs up the image, the texture's rows
// down), per corner, in the forms v/vt and v/vt/vn; a w is ignored.
TEST(ObjReader, ReadsTextureCoordinatesWithVFlipped) {
    const Parsed p = parse("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                           "vt 0 0\nvt 1 0 0.5\nvt 1 1\nvt 0.25 0.75\n"
                           "vn 0 0 1\n"
                           "f 1/1 2/2 3/3\nf 1/1/1 3/3/1 4/4/1\n");
    ASSERT_TRUE(p.ok) << (p.diagnostics.empty() ? "" : p.diagnostics[0].message);
    ASSERT_EQ(p.mesh.vertices.size(), 6u);
    const float expected[6][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 1}, {1, 0}, {0.25f, 0.25f}};
    for (int k = 0; k < 6; ++k) {
        EXPECT_EQ(p.mesh.vertices[k].position_u.w, expected[k][0]) << "corner " << k;
        EXPECT_EQ(p.mesh.vertices[k].normal_v.w, expected[k][1]) << "corner " << k;
    }
    expectVec(p.mesh.vertices[5].position_u, 0, 1, 0);
    expectVec(p.mesh.vertices[5].normal_v, 0, 0, 1);
}

TEST(ObjReader, ReadsATriangleWithAuthoredNormalsKeepingTheOrigin) {
    const Parsed p = parse("# a triangle\n"
                           "v 1 0 0\nv 2 0 0\nv 1 3 0\n"
                           "vn 0 0 2\nvn 0 1 0\n"
                           "f 1//1 2//2 3//1\n");
    ASSERT_TRUE(p.ok);
    ASSERT_EQ(p.mesh.vertices.size(), 3u);
    expectVec(p.mesh.vertices[0].position_u, 1, 0, 0); // not recentred
    expectVec(p.mesh.vertices[2].position_u, 1, 3, 0);
    EXPECT_EQ(p.mesh.vertices[0].position_u.w, 0.0f) << "no texture coordinate: (0, 0)";
    EXPECT_EQ(p.mesh.vertices[0].normal_v.w, 0.0f);
    expectVec(p.mesh.vertices[0].normal_v, 0, 0, 1); // normalised
    expectVec(p.mesh.vertices[1].normal_v, 0, 1, 0);
}

TEST(ObjReader, ComputesFlatNormalsOutsideSmoothingGroups) {
    // Two triangles of a roof ridge, counter-clockwise seen from above their outer sides.
    const Parsed p = parse("v 0 0 0\nv 1 1 0\nv 2 0 0\nv 1 1 -1\nv 0 0 -1\nv 2 0 -1\n"
                           "f 1 2 4\nf 1 4 5\n");
    ASSERT_TRUE(p.ok);
    ASSERT_EQ(p.mesh.vertices.size(), 6u);
    const float h = std::sqrt(0.5f);
    for (int k = 0; k < 6; ++k) expectVec(p.mesh.vertices[k].normal_v, -h, h, 0);
}

TEST(ObjReader, AveragesNormalsOverASmoothingGroup) {
    // Two faces of a ridge meeting at the edge 2-4, smoothed: the shared positions get the
    // average of (-1, 1, 0) and (1, 1, 0) / sqrt 2, i.e. +Y; the others keep their face's.
    const Parsed p = parse("v 0 0 0\nv 1 1 0\nv 2 0 0\nv 1 1 -1\nv 0 0 -1\nv 2 0 -1\n"
                           "s 1\nf 1 2 4 5\nf 2 3 6 4\n");
    ASSERT_TRUE(p.ok);
    ASSERT_EQ(p.mesh.vertices.size(), 12u);
    const float h = std::sqrt(0.5f);
    expectVec(p.mesh.vertices[0].normal_v, -h, h, 0); // position 1: only the first face
    expectVec(p.mesh.vertices[1].normal_v, 0, 1, 0);  // position 2: shared
    expectVec(p.mesh.vertices[2].normal_v, 0, 1, 0);  // position 4: shared
    expectVec(p.mesh.vertices[7].normal_v, h, h, 0);  // position 3: only the second face
}

TEST(ObjReader, SplitsQuadsAndPolygonsIntoFans) {
    const Parsed p = parse("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -1 0.5 0\n"
                           "f 1 2 3 4\nf 1 3 4 5\n");
    ASSERT_TRUE(p.ok);
    ASSERT_EQ(p.mesh.vertices.size(), 12u); // a quad: 2 triangles, a pentagon-ish quad: 2
    // Fan of the first quad: (1 2 3) and (1 3 4).
    expectVec(p.mesh.vertices[3].position_u, 0, 0, 0);
    expectVec(p.mesh.vertices[4].position_u, 1, 1, 0);
    expectVec(p.mesh.vertices[5].position_u, 0, 1, 0);
    for (const MeshVertex& v : p.mesh.vertices) expectVec(v.normal_v, 0, 0, 1);
}

TEST(ObjReader, AcceptsNegativeIndicesTexcoordsGroupsAndMaterials) {
    const Parsed p = parse("mtllib rock.mtl\no rock\ng top\nusemtl stone\n"
                           "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
                           "f -3/-3 -2/-2 -1/-1\r\nl 1 2\n");
    ASSERT_TRUE(p.ok) << (p.diagnostics.empty() ? "" : p.diagnostics[0].message);
    EXPECT_EQ(p.mesh.vertices.size(), 3u);
}

TEST(ObjReader, ReportsEachKindOfMalformedFile) {
    expectError("v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n", 2, "'nan' is not a finite number");
    expectError("v 0 0 0\nv 1 inf 0\n", 2, "not a finite number");
    expectError("v 0 0 1e39\n", 1, "not a finite number");
    expectError("v 0 0 zero\n", 1, "'zero' is not a finite number");
    // A decimal the scan accepts as 0 that tinyobjloader reads as 0 x 10^7996 (NaN): found by
    // obj_reader_fuzz.
    expectError("v 0 0 0\nv -0.e7996 0 0\nv 0 1 0\nf 1 2 3\n", 0,
                "position 2 reads as a number that is not finite");
    expectError("v 0 0\n", 1, "has 2 numbers; expected 3 to 7");
    expectError("vn 0 0 1 0\n", 1, "expected 3");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4,
                "position index 4 is out of range: 3 positions defined above this line");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", 4, "position index -4 is out of range");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "index 0 (OBJ indices start at 1)");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n", 4,
                "normal index 1 is out of range: 0 normals");
    expectError("v 0 0 0\nv 1 0 0\nf 1 2\n", 3, "a face (f) has 2 vertices; it needs at least 3");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n", 4, "'x' is not an integer");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/1/1/1\n", 4, "more than three parts");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n", 5,
                "texture coordinate index 2 is out of range");
    expectError("vt 0 nan\n", 1, "not a finite number");
    expectError("v 0 0 0\nv 1 0 0\nv 0 1 0\n", 0, "no triangles");
    expectError("", 0, "no triangles");
    expectError("v 0 0 0\ncurv 0 1 1 2\n", 2, "unknown statement 'curv'");
    expectError(std::string_view("v 0 0 0\0\n", 9), 0, "NUL byte");
}

TEST(ObjReader, RejectsMoreThanTheTriangleLimit) {
    std::string text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (uint32_t t = 0; t <= kMaxMeshTriangles; ++t) text += "f 1 2 3\n";
    expectError(text, 4 + kMaxMeshTriangles, "kMaxMeshTriangles");
    const Parsed at_limit = parse(text.substr(0, text.size() - 8));
    ASSERT_TRUE(at_limit.ok);
    EXPECT_EQ(at_limit.mesh.vertices.size(), size_t{kMaxMeshTriangles} * 3);
}

TEST(ObjReader, ReadsAFileAndNamesAMissingOne) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "spindrift_obj_reader_test.obj";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        std::fputs("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", f);
        std::fclose(f);
    }
    MeshData mesh;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(readObj(path.string(), mesh, diagnostics));
    EXPECT_EQ(mesh.vertices.size(), 3u);
    std::filesystem::remove(path);

    EXPECT_FALSE(readObj(path.string(), mesh, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, path.string());
    EXPECT_NE(diagnostics[0].message.find("cannot open the OBJ file"), std::string::npos);
    EXPECT_TRUE(mesh.vertices.empty());
}

TEST(ObjReader, ReadsTheSampleMesh) {
    MeshData mesh;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(
        readObj(SPINDRIFT_SOURCE_DIR "/examples/effects/meshes/rock.obj", mesh, diagnostics))
        << (diagnostics.empty() ? "" : diagnostics[0].message);
    EXPECT_GE(mesh.vertices.size(), 3u * 8);
    for (const MeshVertex& v : mesh.vertices) {
        EXPECT_NEAR(length(vec3(v.normal_v)), 1.0f, 1e-5f);
        EXPECT_LE(length(vec3(v.position_u)), 1.0001f); // the sample rock fits the unit sphere
    }
    // Counter-clockwise outside: every face's normal points away from the rock's centre (the
    // renderer culls back faces).
    for (size_t t = 0; t + 2 < mesh.vertices.size(); t += 3) {
        const vec3 centroid = vec3(mesh.vertices[t].position_u + mesh.vertices[t + 1].position_u +
                                   mesh.vertices[t + 2].position_u) /
                              3.0f;
        EXPECT_GT(dot(vec3(mesh.vertices[t].normal_v), centroid), 0.0f) << "triangle " << t / 3;
    }
}

} // namespace
} // namespace spindrift
