// Spindrift's renderer draws the world's draw list (include/spindrift/draw_list.h): each entry of
// the list becomes the renderer's batch of the same kind, in the same order, with the same records,
// strips and parameters a host reads from the public batches. Device-resident entries become
// batches drawn from the device (DeviceRecords, DeviceStrips). This is the only way the scene
// player hands particles to the renderer, so the preview draws what a game is given.
#pragma once

#include <cstdint>
#include <vector>

#include "render/renderer.h"
#include "render/resource_handle.h"
#include "spindrift/draw_list.h"

namespace spindrift::render {

// The renderer's texture and mesh of an effect's emitter (uploaded by the host that owns the
// renderer): kNoTexture / kNoMesh when it has none.
class DrawAssets {
public:
    virtual ~DrawAssets() = default;
    virtual TextureHandle texture(EffectId effect, uint32_t emitter) const = 0;
    virtual MeshHandle mesh(EffectId effect, uint32_t emitter) const = 0;
};

// Appends the list's batches, in order, to out (allocation only when out grows). The spans point
// into the list and the world: valid as long as the list's batches are (draw_list.h, Lifetime).
void appendDrawListBatches(const DrawList& list, const DrawAssets& assets,
                           std::vector<DrawBatch>& out);

} // namespace spindrift::render
