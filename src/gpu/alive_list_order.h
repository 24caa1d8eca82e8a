// Slot order for the alive lists of ordinary emitters under churn (docs/gpu-backend.md,
// "Compaction"). Compaction keeps each subgroup's survivors in order, but births refill slots
// that deaths scattered through the pool, so after one lifetime of steady churn the list is in
// birth order and its slots are random: every column read then touches a 32-byte sector for
// 4 bytes, and the H200's update fell to 1/16-1/40 of the fresh-pool rate. Sorting the list by
// slot (the GPU radix sort, keys = slots) after a step with births puts the reads back in
// ascending runs. Emitters that keep birth order (gpuKeepsBirthOrder) are never sorted: their
// order is their meaning (most of them relocate instead: birth_order.h). The sorted emitters'
// particles never move.
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

#include "gpu/shader/gpu_sim.h"
#include "spindrift/diagnostic.h"

namespace spindrift::gpu {

struct GpuEffect; // gpu_effect.h

// Whether emitter e's alive list is sorted by slot after steps with births: it does not keep
// birth order and its capacity reaches config.min_sorted_list.
bool sortsAliveList(const GpuEffect& fx, uint32_t emitter);

// Makes the sort's work space (fx.list_sort) for the largest emitter that sorts; nothing when
// none does. False with an error when it cannot be made.
bool prepareAliveListSort(GpuEffect& fx, std::vector<Diagnostic>& diagnostics);

// Records, for each sorting emitter with births planned this step (or that is a sub-emitter
// child) and a live bound > 0, the padding of its current list (fx.list_in) past the live count
// and the radix sort of the list (the other list, free until the next update writes it, holds
// the payloads). `step` carries the step slot's addresses. Returns the dispatches recorded.
uint32_t recordAliveListSorts(GpuEffect& fx, VkCommandBuffer cmd, GpuPushConstants step);

} // namespace spindrift::gpu
