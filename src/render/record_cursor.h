#pragma once
// Where each batch of a frame finds its DrawRecords, in batch order: one walk for every pass that
// reads them (the particle phases in renderer.cpp, the shadow casters in shadow_pass.cpp), so
// they cannot disagree about which run of the buffers a batch owns.

#include <cstdint>

#include "render/billboard_pass.h"
#include "render/device_draw_args.h"
#include "render/particle_pass.h"
#include "render/renderer.h"

namespace spindrift::render {

// Device batches (billboard, mesh and strip, DeviceRecords / device points) take the next
// indirect arguments the draw-argument pass wrote; host DrawRecords of billboard and mesh batches
// the next run of the draw-record buffer, where BillboardPass::upload copied them in batch order.
// Call next() or nextStrip() for every batch, in order, drawn or not.
class RecordCursor {
public:
    RecordCursor(const DeviceDrawArgs& args, const BillboardPass& billboards, uint32_t slot)
        : args_(args), billboards_(billboards), slot_(slot) {}

    // A billboard or mesh batch: where its records are read. False when it has none.
    bool next(const DrawBatch& entry, RecordSource& source) {
        const BillboardBatch* b = std::get_if<BillboardBatch>(&entry);
        const MeshBatch* m = std::get_if<MeshBatch>(&entry);
        const DeviceRecords& device = b != nullptr ? b->device : m->device;
        source = RecordSource{};
        if (device.records != 0) {
            source.indirect = args_.args(device_batch_++);
            return true;
        }
        const uint64_t count = hostRecords(entry).size();
        if (count == 0) return false;
        source.host_address = billboards_.recordsAddress(slot_, first_record_);
        first_record_ += count;
        return true;
    }

    // A strip batch: true with its indirect arguments when its points are on the device; false
    // for host strips (their points and segments have buffers of their own).
    bool nextStrip(const StripBatch& strip, IndirectArgs& args) {
        if (strip.device.points == 0) return false;
        args = args_.args(device_batch_++);
        return true;
    }

private:
    const DeviceDrawArgs& args_;
    const BillboardPass& billboards_;
    uint32_t slot_ = 0;
    uint64_t first_record_ = 0;
    uint32_t device_batch_ = 0;
};

} // namespace spindrift::render
