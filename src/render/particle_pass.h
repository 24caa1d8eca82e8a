// The skeleton every particle pass (billboards, strips, meshes) shares, written once: its two
// shader stages; its pipeline variants, one per set of specialisation values a batch needs, made
// on the shared layout (ParticleBindings::createVariant) the first time a frame needs them, kept
// for the renderer's life and found again by a key packed from the values themselves; binding a
// batch's variant (unless bound) and texture; and the draw each pass ends with, including the
// device/host fork of the passes that draw DrawRecords (billboards, meshes). A pass keeps only
// what is its own: which values a batch needs (its kSpec* ids), its push constants, its buffers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include <vulkan/vulkan.h>

#include "render/device_draw_args.h"
#include "render/particle_bindings.h"
#include "render/renderer.h"
#include "spindrift/diagnostic.h"
#include "vulkan/device.h"
#include "vulkan/owned.h"

namespace spindrift::shaders {
struct SpirvCode; // embedded_shaders.h, generated
} // namespace spindrift::shaders

namespace spindrift::render {

// A device address as the two uint words the shaders read (low, high).
inline uvec2 splitAddress(uint64_t address) {
    return uvec2(static_cast<uint32_t>(address), static_cast<uint32_t>(address >> 32));
}

// Where a billboard or mesh batch's DrawRecords are read: its host records, uploaded to the
// draw-record buffer at host_address (BillboardPass::recordsAddress), or, for a batch of device
// records (DeviceRecords), the indirect arguments the draw-argument pass wrote for it
// (DeviceDrawArgs::args).
struct RecordSource {
    uint64_t host_address = 0;
    IndirectArgs indirect;
};

// Whether a batch draws anything: host records (strips: segments) or device ones.
bool drawsAnything(const BillboardBatch& batch);
bool drawsAnything(const StripBatch& batch);
bool drawsAnything(const MeshBatch& batch);

// What makes one pass's pipelines.
struct ParticlePassDesc {
    const shaders::SpirvCode* vertex = nullptr;
    const shaders::SpirvCode* fragment = nullptr;
    std::string_view name; // "billboard": errors name "the billboard pipeline variant ..."
    uint32_t blend_id = 0; // the specialisation constant holding the blend mode (kBlend*)
    uint32_t oit_id = 0;   // the one that is 1 when the variant draws into the OIT targets
    bool cull_back_faces = false;
    // Every variant draws into the motion-vector target (ParticleOutput::motion).
    bool motion = false;
};

class ParticlePass {
public:
    // A variant's key holds each specialisation value in this many bits, constant id 0 lowest:
    // every value is a flag or a small enum (kBlendCount and kAlignCount are 4).
    static constexpr uint32_t kKeyBitsPerValue = 2;
    static constexpr uint32_t kMaxValues = 32 / kKeyBitsPerValue;

    ParticlePass(const ParticleBindings& bindings, const ParticlePassDesc& desc)
        : bindings_(bindings), desc_(desc) {}

    // Creates the two shader modules. False with an error naming the shader when one fails.
    bool createStages(const vk::Device& device, std::vector<Diagnostic>& diagnostics);

    // The key of the variant of `values` (values[id] for constant id, at most kMaxValues):
    // distinct values, distinct keys. A value that does not fit kKeyBitsPerValue is a
    // programmer error (checked, with the values, in builds with assertions).
    static uint32_t variantKey(std::span<const uint32_t> values);

    // Creates the variant of `values` unless it exists: drawing into the OIT targets where
    // values[desc.oit_id] is set, else into the frame with blend values[desc.blend_id]; with
    // half_res, into the half-resolution particle layer (ParticleOutput::half_res) instead of
    // the frame, a variant of its own. False with an error naming the pass and the values when
    // the pipeline cannot be created.
    bool ensure(std::span<const uint32_t> values, std::vector<Diagnostic>& diagnostics,
                bool half_res = false);

    // ensure() for the values (values_of(batch), an array of the pass's kSpec* values) of every
    // Batch in `batches` that draws anything, for the frame or (half_res) the half-resolution
    // layer: what each pass's preparePipelines does.
    template <typename Batch, typename ValuesOf>
    bool ensureFor(std::span<const DrawBatch> batches, ValuesOf values_of,
                   std::vector<Diagnostic>& diagnostics, bool half_res = false) {
        for (const DrawBatch& entry : batches) {
            const Batch* batch = std::get_if<Batch>(&entry);
            if (batch == nullptr || !drawsAnything(*batch)) continue;
            if (!ensure(values_of(*batch), diagnostics, half_res)) return false;
        }
        return true;
    }

    // Binds the variant of `values` (made by ensure with the same half_res) unless `bound`, the
    // pipeline bound on cmd, is it already; then the batch's texture set (TextureStore::set; every
    // variant's layout has the texture set, an untextured one never samples it).
    void bind(VkCommandBuffer cmd, std::span<const uint32_t> values, VkDescriptorSet texture,
              VkPipeline& bound, bool half_res = false) const;

    // Pushes the pass's block, then draws it indirectly with the arguments at `args`.
    template <typename Push>
    void drawIndirect(VkCommandBuffer cmd, const Push& push, IndirectArgs args) const {
        static_assert(sizeof(Push) <= kParticlePushConstantBytes);
        bindings_.push(cmd, &push, sizeof(push));
        vkCmdDrawIndirect(cmd, args.buffer, args.offset, 1, sizeof(VkDrawIndirectCommand));
    }

    // Pushes the pass's block, then draws `vertices` vertices `instances` times.
    template <typename Push>
    void drawDirect(VkCommandBuffer cmd, const Push& push, uint32_t vertices,
                    uint32_t instances) const {
        static_assert(sizeof(Push) <= kParticlePushConstantBytes);
        bindings_.push(cmd, &push, sizeof(push));
        vkCmdDraw(cmd, vertices, instances, 0, 0);
    }

    // The draw of a batch of DrawRecords (billboards, meshes): with device records
    // (device.records != 0), push.records and push.order name them (chunks and draw order,
    // kernels/draw_record.h) and the draw is indirect at source.indirect, the counts the
    // draw-argument pass wrote; otherwise push.records names the host records at
    // source.host_address and the draw is `vertices` x `instances`.
    template <typename Push>
    void drawRecords(VkCommandBuffer cmd, Push push, const DeviceRecords& device,
                     const RecordSource& source, uint32_t vertices, uint32_t instances) const {
        if (device.records != 0) {
            push.records =
                uvec4(splitAddress(device.records), device.chunk_records, device.first_in_chunk);
            push.order = uvec4(splitAddress(device.order), 0u, 0u);
            drawIndirect(cmd, push, source.indirect);
            return;
        }
        push.records = uvec4(splitAddress(source.host_address), 0u, 0u);
        drawDirect(cmd, push, vertices, instances);
    }

    // How many variants exist.
    size_t count() const { return variants_.size(); }

private:
    const ParticleBindings& bindings_;
    ParticlePassDesc desc_;
    vk::OwnedShaderModule vertex_;
    vk::OwnedShaderModule fragment_;
    // By variantKey(), with bit 32 set for the half-resolution layer's variants.
    std::map<uint64_t, vk::OwnedPipeline> variants_;
    static uint64_t mapKey(std::span<const uint32_t> values, bool half_res) {
        return uint64_t{variantKey(values)} | (half_res ? uint64_t{1} << 32 : 0u);
    }
};

} // namespace spindrift::render
