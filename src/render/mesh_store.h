// Particle meshes: each uploaded once into its own storage buffer, read by the mesh vertex shader
// through its device address, and named by a typed, generation-checked handle (MeshHandle,
// render/resource_handle.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "render/resource_handle.h"
#include "render/shader/mesh.h"
#include "spindrift/diagnostic.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace spindrift::render {

class MeshStore {
public:
    MeshStore(const vk::Device& device, uint32_t capacity) : device_(device), capacity_(capacity) {}

    // Uploads a triangle list. Returns the handle, or kNoMesh with an error naming
    // label when vertices is empty or not whole triangles, the store is full, or a Vulkan call
    // fails.
    MeshHandle add(std::span<const MeshVertex> vertices, const std::string& label,
                   std::vector<Diagnostic>& diagnostics);

    // Whether handle names a mesh of this store (kNoMesh does not).
    bool valid(MeshHandle handle) const { return slots_.valid(handle); }
    // Why handle names no mesh of this store (HandleSlots::problem); empty when it names one.
    std::string problem(MeshHandle handle) const { return slots_.problem(handle); }
    uint32_t count() const { return slots_.count(); }
    // The device address of a valid handle's first vertex, and its vertex count; 0 for a handle
    // valid() refuses (renderFrame reports such a batch before anything is drawn).
    uint64_t address(MeshHandle handle) const {
        return valid(handle) ? meshes_[handle.index].buffer.address : 0;
    }
    uint32_t vertexCount(MeshHandle handle) const {
        return valid(handle) ? meshes_[handle.index].vertex_count : 0;
    }

private:
    struct Mesh {
        vk::Buffer buffer;
        uint32_t vertex_count = 0;
    };
    const vk::Device& device_;
    uint32_t capacity_ = 0;
    HandleSlots<MeshTag> slots_;
    std::vector<Mesh> meshes_; // at the handles' indices
};

} // namespace spindrift::render
