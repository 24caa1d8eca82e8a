// Reading Wavefront OBJ meshes for mesh particles (tinyobjloader underneath). Mesh files are
// untrusted input: every problem is returned as an error value, never a crash, an exception or a
// hang.
//
// What is read: positions (`v`), normals (`vn`), texture coordinates (`vt`, u and v; a w is
// ignored) and faces (`f`); materials, groups, lines and points are parsed and ignored. A face
// corner without a texture coordinate gets (0, 0). Polygons are split into a fan of
// triangles around their first vertex (quads into two), so a polygon should be convex. The
// author's origin is kept: it is the point the particle's position places.
//
// Normals: a face whose vertices all name a normal uses them (normalised; a zero normal is the
// face's own). A face without normals gets computed ones: flat (its own normal) when it is in no
// smoothing group (`s off` or `s 0`, the default), smooth when it is in group n > 0 (at each
// position, the area-weighted average of the normals of the faces of group n sharing it).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "mesh/mesh_vertex.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

// The most triangles a mesh may have (after polygons are split): a particle mesh is drawn once
// per live particle, so a bigger one is a mistake (or a hostile file), not a rock.
inline constexpr uint32_t kMaxMeshTriangles = 1u << 16;
// The largest OBJ file read, in bytes (a mesh at kMaxMeshTriangles is a few MiB of text).
inline constexpr uint64_t kMaxObjBytes = 64u << 20;

// A triangle list: vertices 3t, 3t + 1, 3t + 2 are triangle t, counter-clockwise seen from the
// side the OBJ's winding calls the front. Every coordinate and normal is finite, every normal
// unit length.
struct MeshData {
    std::vector<MeshVertex> vertices;
};

// Parses OBJ text. On success out holds the mesh (at least one and at most kMaxMeshTriangles
// triangles) and true is returned. On failure exactly one error is appended to diagnostics
// (file = file, line = the offending line where there is one, a message saying what is wrong: a
// number that is not finite, a face index that is 0 or out of range, a face of fewer than 3
// vertices, no triangles, too many, a NUL byte...), out is left empty and false is returned.
// Thread-safe.
bool parseObj(std::span<const char> text, std::string_view file, MeshData& out,
              std::vector<Diagnostic>& diagnostics);

// Reads the file at path (at most kMaxObjBytes) and parses it as parseObj does. A missing or
// unreadable file is an error naming the path.
bool readObj(std::string_view path, MeshData& out, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
