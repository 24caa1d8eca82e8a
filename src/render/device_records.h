// A GPU emitter's draw source (gpu::drawSource) as the renderer's DeviceRecords: the one place the
// fields pass from the GPU backend to a billboard batch drawn from the device.
#pragma once

#include "gpu/draw_output.h"
#include "render/renderer.h"

namespace spindrift::render {

inline DeviceRecords deviceRecords(const gpu::GpuDrawSource& source) {
    DeviceRecords d;
    d.records = source.records.address;
    d.chunk_records = source.records.chunk_records;
    d.first_in_chunk = source.records.first_in_chunk;
    d.count = source.count;
    d.order = source.order;
    d.max_records = source.max_records;
    return d;
}

} // namespace spindrift::render
