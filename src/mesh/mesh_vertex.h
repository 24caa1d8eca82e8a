// The vertex layout of a particle mesh, shared by the OBJ reader that builds it, the renderer that
// uploads it and the mesh shaders that pull it (src/render/shader/mesh.h). Written in the
// C++/GLSL subset of src/kernels/shared_types.h.
//
// FROZEN: a std430 buffer layout (32 bytes).
#ifndef SPINDRIFT_MESH_MESH_VERTEX_H
#define SPINDRIFT_MESH_MESH_VERTEX_H

#include "kernels/shared_types.h"

SD_BEGIN_NAMESPACE

// One vertex of a mesh's triangle list (three per triangle, no index buffer): position in the
// mesh's own space (the author's origin is the particle's position), unit normal, and texture
// coordinate (u, v) in image terms: (0, 0) the top-left corner of the texture, (1, 1) the
// bottom-right (the OBJ reader flips OBJ's bottom-up v).
struct MeshVertex {
    vec4 position_u; // xyz position; w = u
    vec4 normal_v;   // xyz unit normal; w = v
};

SD_END_NAMESPACE

#ifdef __cplusplus
namespace spindrift {
SD_ASSERT_RECORD(MeshVertex, 32);
} // namespace spindrift
#endif

#endif // SPINDRIFT_MESH_MESH_VERTEX_H
