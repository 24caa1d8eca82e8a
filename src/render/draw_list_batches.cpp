#include "render/draw_list_batches.h"

#include "render/device_records.h"
#include "runtime/draw_list.h"

namespace spindrift::render {

namespace {

// A device entry's instance overrides, for the renderer to apply as it reads the device's data.
DrawOverrides overridesOf(const DrawEntry& entry) {
    return {entry.tint, entry.size_scale, 0u, 0u, 0u};
}

} // namespace

void appendDrawListBatches(const DrawList& list, const DrawAssets& assets,
                           std::vector<DrawBatch>& out) {
    const DrawList::Impl& impl = list.impl();
    for (size_t i = 0; i < impl.entries.size(); ++i) {
        const DrawEntry& entry = impl.entries[i];
        const spindrift::DrawBatch& batch = impl.batches[i];
        const TextureHandle texture = assets.texture(batch.effect, batch.emitter_index);
        if (entry.render_type == kRenderRibbon || entry.render_type == kRenderBeam) {
            StripBatch strip;
            strip.params = entry.strip;
            strip.texture = texture;
            if (entry.device) {
                const gpu::GpuStripSource& s = entry.device_strips;
                strip.device = {s.points, s.point_counts, s.count, s.points_per_strip,
                                s.max_strips};
                // A ribbon's polylines move with their particles' records (beams have none).
                const DeviceRecords records = deviceRecords(entry.device_records);
                strip.device.records = records.records;
                strip.device.chunk_records = records.chunk_records;
                strip.device.first_in_chunk = records.first_in_chunk;
                strip.overrides = overridesOf(entry);
            } else {
                strip.points = entry.points;
                strip.segments = entry.segments;
                strip.velocities = entry.velocities;
            }
            out.push_back(strip);
        } else if (entry.render_type == kRenderMesh) {
            MeshBatch mesh;
            mesh.params = entry.mesh;
            mesh.mesh = assets.mesh(batch.effect, batch.emitter_index);
            if (entry.device) {
                mesh.device = deviceRecords(entry.device_records);
                mesh.overrides = overridesOf(entry);
            } else {
                mesh.records = entry.records;
            }
            mesh.texture = texture;
            out.push_back(mesh);
        } else {
            BillboardBatch billboard;
            billboard.params = entry.billboard;
            billboard.texture = texture;
            if (entry.device) {
                billboard.device = deviceRecords(entry.device_records);
                billboard.overrides = overridesOf(entry);
            } else {
                billboard.records = entry.records;
            }
            out.push_back(billboard);
        }
    }
}

} // namespace spindrift::render
