#include "render/mesh_store.h"

#include <cstring>

#include "mesh/obj_reader.h"
#include "vulkan/vk_error.h"

namespace spindrift::render {

MeshHandle MeshStore::add(std::span<const MeshVertex> vertices, const std::string& label,
                          std::vector<Diagnostic>& diagnostics) {
    auto fail = [&](std::string message) {
        diagnostics.push_back(vk::vulkanSetupError("mesh", label + ": " + std::move(message)));
        return kNoMesh;
    };
    if (vertices.empty() || vertices.size() % 3 != 0 ||
        vertices.size() > uint64_t{kMaxMeshTriangles} * 3) {
        return fail(std::to_string(vertices.size()) +
                    " vertices: a mesh is 1 to kMaxMeshTriangles whole triangles, 3 vertices each");
    }
    if (slots_.count() >= capacity_) {
        return fail("more than " + std::to_string(capacity_) + " meshes (kMaxMeshes)");
    }
    Mesh mesh;
    // Host-visible (preferably device-local too): written once here, read by every frame.
    mesh.buffer = vk::createBuffer(device_, vertices.size_bytes(),
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                       VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                                   vk::MemoryUse::upload, "the mesh " + label, diagnostics);
    if (!mesh.buffer) return kNoMesh;
    std::memcpy(mesh.buffer.mapped, vertices.data(), vertices.size_bytes());
    mesh.vertex_count = static_cast<uint32_t>(vertices.size());
    meshes_.push_back(std::move(mesh));
    return slots_.add();
}

} // namespace spindrift::render
