// The view's one back-to-front order (runtime/draw_list_order.h).
#include "runtime/draw_list_order.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "kernels/sort_key.h"

namespace spindrift {

namespace {

bool isStrip(uint32_t render_type) {
    return render_type == kRenderRibbon || render_type == kRenderBeam;
}

// The back-to-front key of a strip segment: its middle point's, as a record's (kernels/sort_key.h),
// so strip segments and particles order alike.
uint32_t segmentKey(std::span<const StripPoint> points, uint32_t first, vec3 eye) {
    const vec3 mid =
        0.5f * (vec3(points[first].position_width) + vec3(points[first + 1].position_width));
    return ~sdOrderedFloatKey(sdSortDistanceSquared(vec4(mid, 0.0f), eye));
}

// Sorts one strip batch's segments back to front in place (they lie in the list's storage). The
// segment's position breaks ties, so the order is the stable one without a stable sort's buffer.
void sortStripSegments(DrawList::Impl& list, const DrawEntry& entry, vec3 eye) {
    DrawList::Impl::OrderWork& work = list.order_work;
    const std::span<const uint32_t> segments = entry.segments;
    work.strip_sort.clear();
    for (uint32_t i = 0; i < segments.size(); ++i) {
        const uint64_t key = segmentKey(entry.points, segments[i], eye);
        work.strip_sort.push_back(key << 32 | i);
    }
    std::sort(work.strip_sort.begin(), work.strip_sort.end());
    work.strip_segments.assign(segments.begin(), segments.end());
    // A host strip entry's segments are a stretch of the list's own storage (resolveStorage).
    uint32_t* out = list.segments.data() + (segments.data() - list.segments.data());
    for (size_t i = 0; i < work.strip_sort.size(); ++i)
        out[i] = work.strip_segments[work.strip_sort[i] & 0xffffffffu];
}

// The cone of directions from the eye that a sphere around [lo, hi] grown by pad covers.
DrawList::Impl::OrderWork::Cone coneOf(vec3 lo, vec3 hi, float pad, vec3 eye) {
    DrawList::Impl::OrderWork::Cone cone;
    const vec3 to_center = 0.5f * (lo + hi) - eye;
    const float radius = 0.5f * length(hi - lo) + pad;
    const float distance = length(to_center);
    // Within a small margin of the sphere (or not finite), it may cover any direction.
    if (!(distance > radius * 1.001f + 1e-6f)) {
        cone.everywhere = true;
        return cone;
    }
    cone.direction = to_center / distance;
    cone.sin_half = radius / distance;
    cone.cos_half = std::sqrt(1.0f - cone.sin_half * cone.sin_half);
    return cone;
}

// Appends run r's keys (its batch's items, already in draw order) and the cone its items cover:
// a billboard reaches at most its size plus half its stretch from its centre, a strip point half
// its width; a mesh's extent is the renderer's to know, so a mesh run may cover any direction.
void appendRunKeys(DrawList::Impl::OrderWork& work, const DrawEntry& entry, vec3 eye) {
    OrderRun run;
    run.first = static_cast<uint32_t>(work.keys.size());
    vec3 lo(INFINITY), hi(-INFINITY);
    float pad = 0;
    if (isStrip(entry.render_type)) {
        for (const uint32_t s : entry.segments) {
            work.keys.push_back(segmentKey(entry.points, s, eye));
            for (uint32_t i = s; i <= s + 1; ++i) {
                const vec4 p = entry.points[i].position_width;
                lo = min(lo, vec3(p));
                hi = max(hi, vec3(p));
                pad = std::max(pad, 0.5f * p.w);
            }
        }
    } else {
        const float stretch_s = std::max(entry.billboard.axis_stretch.w, 0.0f);
        for (const DrawRecord& r : entry.records) {
            work.keys.push_back(sdDrawRecordSortKey(r, kSortBackToFront, eye));
            lo = min(lo, vec3(r.position_size));
            hi = max(hi, vec3(r.position_size));
            const float speed = length(vec3(r.velocity_rotation));
            pad = std::max(pad, r.position_size.w + 0.5f * speed * stretch_s);
        }
    }
    run.count = static_cast<uint32_t>(work.keys.size()) - run.first;
    work.runs.push_back(run);
    work.cones.push_back(coneOf(lo, hi, pad, eye));
    if (entry.render_type == kRenderMesh) work.cones.back().everywhere = true;
}

// Whether two cones share a direction: the angle between their axes is at most the sum of their
// half angles (each at most 90 degrees, so the cosine of the sum decides), with a margin for
// rounding.
bool conesOverlap(const DrawList::Impl::OrderWork::Cone& a,
                  const DrawList::Impl::OrderWork::Cone& b) {
    if (a.everywhere || b.everywhere) return true;
    const float cos_sum = a.cos_half * b.cos_half - a.sin_half * b.sin_half;
    return dot(a.direction, b.direction) >= cos_sum - 1e-4f;
}

// The runs whose order matters to each other: those whose depth ranges (their first and last
// keys) overlap and whose cones overlap. Two runs apart in depth are ordered by the merge anyway
// (it always takes the smallest next key first); two that cannot cover one pixel may go in
// either order. A sweep over the runs by first key tests only the pairs that overlap in depth.
void findNeighbours(DrawList::Impl::OrderWork& work) {
    const auto n = static_cast<uint32_t>(work.runs.size());
    auto firstKey = [&](uint32_t r) { return work.keys[work.runs[r].first]; };
    auto lastKey = [&](uint32_t r) {
        return work.keys[work.runs[r].first + work.runs[r].count - 1];
    };
    work.sweep.clear();
    for (uint32_t r = 0; r < n; ++r)
        if (work.runs[r].count > 0) work.sweep.push_back(r);
    std::sort(work.sweep.begin(), work.sweep.end(), [&](uint32_t a, uint32_t b) {
        return firstKey(a) < firstKey(b) || (firstKey(a) == firstKey(b) && a < b);
    });
    work.active.clear();
    work.pairs.clear();
    for (const uint32_t r : work.sweep) {
        const uint32_t first = firstKey(r);
        std::erase_if(work.active, [&](uint32_t a) { return lastKey(a) < first; });
        for (const uint32_t a : work.active) {
            if (!conesOverlap(work.cones[a], work.cones[r])) continue;
            work.pairs.emplace_back(a, r);
            work.pairs.emplace_back(r, a);
        }
        work.active.push_back(r);
    }
    // Counting sort of the pairs by their first run into the compressed table.
    work.neighbour_first.assign(n + 1, 0);
    for (const auto& [a, b] : work.pairs) ++work.neighbour_first[a + 1];
    for (uint32_t r = 0; r < n; ++r) work.neighbour_first[r + 1] += work.neighbour_first[r];
    work.neighbour_runs.resize(work.pairs.size());
    work.active.assign(work.neighbour_first.begin(), work.neighbour_first.end() - 1);
    for (const auto& [a, b] : work.pairs) work.neighbour_runs[work.active[a]++] = b;
}

// Batch b narrowed to one segment of its items.
void appendSegment(DrawList::Impl& list, size_t b, const OrderSegment& s) {
    DrawList::Impl::OrderWork& work = list.order_work;
    DrawBatch batch = list.batches[b];
    DrawEntry entry = list.entries[b];
    if (isStrip(entry.render_type)) {
        entry.segments = entry.segments.subspan(s.first, s.count);
        batch.segments = entry.segments;
        // The strips' particles are counted once, on the emitter's first stretch.
        if (s.first != 0) batch.particle_count = 0;
    } else {
        // The emitter's particle lights are chosen once, from all its records: on its first
        // stretch (DrawEntry::light_records).
        if (s.first != 0) entry.light_records = {};
        entry.records = entry.records.subspan(s.first, s.count);
        batch.particles = batch.particles.subspan(s.first, s.count);
        batch.particle_count = s.count;
    }
    work.batches.push_back(batch);
    work.entries.push_back(entry);
}

// Rebuilds the list from the merge: the segments in order, every batch that did not join right
// after the last segment holding an item of a joined batch before it (before them all when none).
void rebuildInOrder(DrawList::Impl& list) {
    DrawList::Impl::OrderWork& work = list.order_work;
    work.batches.clear();
    work.entries.clear();
    // The segment each run ends in: its items are consumed in order, so the last one seen.
    std::vector<uint32_t>& last_segment = work.run_last_segment;
    last_segment.assign(work.runs.size(), 0);
    for (uint32_t i = 0; i < work.segments.size(); ++i) last_segment[work.segments[i].run] = i;

    size_t batch = 0;    // the next batch of the old order to look at
    int64_t anchor = -1; // the last segment of the joined batches before `batch`
    auto placeUnjoined = [&](int64_t upto) {
        for (; batch < list.batches.size(); ++batch) {
            const int32_t run = work.batch_run[batch];
            if (run >= 0) {
                anchor = std::max<int64_t>(anchor, last_segment[uint32_t(run)]);
            } else if (anchor <= upto) {
                work.batches.push_back(list.batches[batch]);
                work.entries.push_back(list.entries[batch]);
            } else {
                return;
            }
        }
    };
    placeUnjoined(-1);
    for (int64_t i = 0; i < int64_t(work.segments.size()); ++i) {
        const OrderSegment& s = work.segments[size_t(i)];
        appendSegment(list, work.run_batch[s.run], s);
        placeUnjoined(i);
    }
    assert(batch == list.batches.size());
    // Copied back rather than swapped, so each vector keeps the capacity of its own role and a
    // warm list allocates nothing.
    list.batches.assign(work.batches.begin(), work.batches.end());
    list.entries.assign(work.entries.begin(), work.entries.end());
}

} // namespace

bool joinsViewOrder(const DrawBatch& batch, const DrawEntry& entry, bool order_independent) {
    if (entry.device) return false;
    if (isStrip(entry.render_type)) {
        return !order_independent &&
               (batch.blend == DrawBlend::alpha || batch.blend == DrawBlend::premultiplied);
    }
    return batch.sorted && batch.sort == DrawSort::back_to_front &&
           batch.blend != DrawBlend::opaque;
}

void orderAcrossBatches(const DrawView& view, DrawList::Impl& list, uint32_t max_segments) {
    DrawList::Impl::OrderWork& work = list.order_work;
    const vec3 eye(view.eye.x, view.eye.y, view.eye.z);
    work.keys.clear();
    work.runs.clear();
    work.cones.clear();
    work.run_batch.clear();
    work.batch_run.assign(list.batches.size(), -1);
    for (size_t b = 0; b < list.batches.size(); ++b) {
        const DrawEntry& entry = list.entries[b];
        if (!joinsViewOrder(list.batches[b], entry, view.order_independent)) continue;
        if (isStrip(entry.render_type)) {
            sortStripSegments(list, entry, eye);
            list.batches[b].sorted = true;
            list.stats.sorted_strip_segments += entry.segments.size();
        }
        work.batch_run[b] = static_cast<int32_t>(work.runs.size());
        work.run_batch.push_back(static_cast<uint32_t>(b));
        appendRunKeys(work, entry, eye);
    }
    const auto runs = static_cast<uint32_t>(work.runs.size());
    list.stats.order_emitters = runs;
    list.stats.order_batches = runs;
    list.stats.order_exact_batches = runs;
    // One run draws as it is: its batch is its only segment.
    if (runs < 2) return;
    findNeighbours(work);
    const OrderMergeResult merged =
        mergeSortedRuns(work.keys, work.runs, {work.neighbour_first, work.neighbour_runs},
                        max_segments, work.merge, work.segments);
    list.stats.order_batches = static_cast<uint32_t>(work.segments.size());
    list.stats.order_exact_batches = merged.exact_segments;
    list.stats.order_coarsened_items = merged.coarsened_items;
    rebuildInOrder(list);
}

} // namespace spindrift
