// The draw list's one back-to-front order over a view (docs/rendering.md, "Draw order across
// effects"): after buildDrawList has made one batch per drawn emitter, in instance order, the
// batches whose items must be drawn back to front are merged into one order, so that the smoke of
// two effects that interpenetrate is drawn particle by particle, not one effect over the other.
//
// Which batches join (joinsViewOrder): host batches, not drawn from the device, that are
//   billboards or meshes sorted back to front for this view (DrawBatch::sorted, any blend but
//   opaque: an additive batch that sorts is exact in the order too), or
//   strips (ribbons, beams) blended alpha or premultiplied, unless the view composites those
//   order-independently: their segments are first sorted back to front by their middle point.
// Only joined batches that can cover one pixel are interleaved (runtime/draw_order.h,
// neighbours): those whose depth ranges overlap and whose cones seen from the eye (a bounding
// sphere of the items, grown by a billboard's size and stretch or a strip's half width; meshes,
// whose extent the renderer knows, cover every direction) overlap.
// Unsorted batches (additive ones that do not sort, the order_independent view's alpha), opaque
// meshes and device-resident batches (sorted on the GPU, per emitter) keep their place.
//
// The joined batches are replaced by the merge's segments (runtime/draw_order.h), each a batch of
// its emitter with a stretch of its particles (or strip segments), at most kMaxDrawOrderSegments
// of them; the farthest part is coarsened beyond that and counted (DrawListStats). A batch that
// does not join stays right after the last segment holding an item of a joined batch that came
// before it: when no two joined emitters interleave, the list is exactly the per-emitter list.
#pragma once

#include <cstdint>

#include "runtime/draw_list.h"

namespace spindrift {

// The most batches the merge may make of a view's joined batches (more only when more batches
// than this join: then each is one segment), as many as the renderer's device batches
// (kMaxDeviceBatches): each is one draw with its push constants. A view needing more is exact up
// close and per emitter in its farthest part. 4096 draws of 100k alpha discs cost lavapipe
// about 18 % more than one draw of them (docs/benchmarks.md, "Draw order across effects").
inline constexpr uint32_t kMaxDrawOrderSegments = 4096;

// Whether batch `batch` (entry `entry`) takes part in the view's one back-to-front order.
bool joinsViewOrder(const DrawBatch& batch, const DrawEntry& entry, bool order_independent);

// Sorts the joined strip batches' segments and merges the joined batches into one order (the
// list's storage resolved: spans point into it). max_segments >= 1 (kMaxDrawOrderSegments; tests
// pass less).
void orderAcrossBatches(const DrawView& view, DrawList::Impl& list,
                        uint32_t max_segments = kMaxDrawOrderSegments);

} // namespace spindrift
