// libFuzzer target for the OBJ reader (mesh particles), loading from memory. Any bytes must give
// either a mesh of 1 to kMaxMeshTriangles finite triangles with unit normals or exactly one
// error, never a crash, a leak, an out-of-bounds read or a hang.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "mesh/obj_reader.h"

namespace {

void check(bool condition) {
    if (!condition) std::abort();
}

bool finite(const spindrift::vec4& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<spindrift::Diagnostic> diagnostics;
    spindrift::MeshData mesh;
    const std::span<const char> text(reinterpret_cast<const char*>(data), size);
    if (!spindrift::parseObj(text, "fuzz.obj", mesh, diagnostics)) {
        check(diagnostics.size() == 1);
        check(diagnostics[0].severity == spindrift::Severity::error);
        check(diagnostics[0].file == "fuzz.obj");
        check(!diagnostics[0].message.empty());
        check(mesh.vertices.empty());
        return 0;
    }
    check(diagnostics.empty());
    check(!mesh.vertices.empty() && mesh.vertices.size() % 3 == 0);
    check(mesh.vertices.size() <= size_t{spindrift::kMaxMeshTriangles} * 3);
    for (const spindrift::MeshVertex& v : mesh.vertices) {
        check(finite(v.position_u) && finite(v.normal_v));
        check(std::fabs(spindrift::length(spindrift::vec3(v.normal_v)) - 1.0f) < 1e-3f);
    }
    return 0;
}
