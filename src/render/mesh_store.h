// Particle meshes: each uploaded once into its own storage buffer, read by the mesh vertex shader
// through its device address, and named by a handle (its index).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernels/mesh.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace spindrift::render {

class MeshStore {
public:
    MeshStore(const vk::Device& device, uint32_t capacity) : device_(device), capacity_(capacity) {}

    // Uploads a triangle list. Returns the handle, or kNoMesh (renderer.h) with an error naming
    // label when vertices is empty or not whole triangles, the store is full, or a Vulkan call
    // fails.
    uint32_t add(std::span<const MeshVertex> vertices, const std::string& label,
                 std::vector<Diagnostic>& diagnostics);

    bool valid(uint32_t handle) const { return handle < meshes_.size(); }
    uint32_t count() const { return static_cast<uint32_t>(meshes_.size()); }
    // The device address of a valid handle's first vertex, and its vertex count.
    uint64_t address(uint32_t handle) const { return meshes_[handle].buffer.address; }
    uint32_t vertexCount(uint32_t handle) const { return meshes_[handle].vertex_count; }

private:
    struct Mesh {
        vk::Buffer buffer;
        uint32_t vertex_count = 0;
    };
    const vk::Device& device_;
    uint32_t capacity_ = 0;
    std::vector<Mesh> meshes_;
};

} // namespace spindrift::render
