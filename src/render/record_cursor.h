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

// Where a strip batch's points are read: a batch of device strips (StripBatch::device) with the
// indirect arguments the draw-argument pass wrote for it; a host batch at first_point and
// first_segment of the strip pass's buffers (StripPass::upload copies them in batch order).
struct StripSource {
    bool device = false;
    IndirectArgs indirect;
    uint64_t first_point = 0;
    uint64_t first_segment = 0;
};

// Device batches (billboard, mesh and strip, DeviceRecords / device points) take the next
// indirect arguments the draw-argument pass wrote; host DrawRecords of billboard and mesh batches
// the next run of the draw-record buffer, where BillboardPass::upload copied them in batch order;
// host strips the next run of the strip pass's point and segment buffers.
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

    // A strip batch: where its points are read. False for a host batch without segments (the
    // strip pass uploads nothing of it).
    bool nextStrip(const StripBatch& strip, StripSource& source) {
        source = StripSource{};
        if (strip.device.points != 0) {
            source.device = true;
            source.indirect = args_.args(device_batch_++);
            return true;
        }
        if (strip.segments.empty()) return false;
        source.first_point = first_point_;
        source.first_segment = first_segment_;
        first_point_ += strip.points.size();
        first_segment_ += strip.segments.size();
        return true;
    }

private:
    const DeviceDrawArgs& args_;
    const BillboardPass& billboards_;
    uint32_t slot_ = 0;
    uint64_t first_record_ = 0;
    uint32_t device_batch_ = 0;
    uint64_t first_point_ = 0;
    uint64_t first_segment_ = 0;
};

} // namespace spindrift::render
