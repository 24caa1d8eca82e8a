// The world's slot table: instances named by 64-bit handles, slot index in the low 32 bits and
// generation in the high 32 (include/spindrift/runtime.h, InstanceHandle). A slot's generation
// moves on each time its instance goes, so every handle to the old instance is stale from then on
// and is never taken for the new one. A slot whose generation would wrap is retired (never
// reused): 2^32 - 1 lives per slot, then a fresh slot. Free slots are reused last-in first-out.
// Nothing here allocates once the table has grown to the peak instance count.
#pragma once

#include <cstdint>
#include <vector>

#include "spindrift/runtime.h"

namespace spindrift {

enum class SlotLookup : uint8_t { live, stale, invalid };

template <typename T> class InstanceTable {
public:
    struct Slot {
        uint32_t generation = 1; // of the live instance, or of the next one to live here
        bool live = false;
        bool retired = false; // its generations are used up: never live again
        T value;
    };

    static InstanceHandle handleOf(uint32_t index, uint32_t generation) {
        return {(static_cast<uint64_t>(generation) << 32) | index};
    }
    static uint32_t indexOf(InstanceHandle h) { return static_cast<uint32_t>(h.value); }
    static uint32_t generationOf(InstanceHandle h) { return static_cast<uint32_t>(h.value >> 32); }

    // stale: the handle named an instance of this slot that has gone; invalid: never made here.
    SlotLookup lookup(InstanceHandle h) const {
        const uint32_t index = indexOf(h);
        const uint32_t generation = generationOf(h);
        if (generation == 0 || index >= slots_.size()) return SlotLookup::invalid;
        const Slot& slot = slots_[index];
        if (slot.retired) return SlotLookup::stale;
        if (generation == slot.generation)
            return slot.live ? SlotLookup::live : SlotLookup::invalid;
        return generation < slot.generation ? SlotLookup::stale : SlotLookup::invalid;
    }

    // A free slot made live; its value is whatever the slot held last (reuse its storage).
    InstanceHandle acquire() {
        uint32_t index;
        if (!free_.empty()) {
            index = free_.back();
            free_.pop_back();
        } else {
            index = static_cast<uint32_t>(slots_.size());
            slots_.emplace_back();
        }
        Slot& slot = slots_[index];
        slot.live = true;
        live_count_ += 1;
        return handleOf(index, slot.generation);
    }

    // The instance of a live handle goes; the slot's later handles differ from every earlier one.
    void release(InstanceHandle h) {
        const uint32_t index = indexOf(h);
        Slot& slot = slots_[index];
        slot.live = false;
        live_count_ -= 1;
        if (slot.generation == UINT32_MAX) {
            retired_ += 1; // the next generation would be 0, the null handle's: retire the slot
            slot.retired = true;
            return;
        }
        slot.generation += 1;
        free_.push_back(index);
    }

    T& at(InstanceHandle h) { return slots_[indexOf(h)].value; }
    const T& at(InstanceHandle h) const { return slots_[indexOf(h)].value; }

    uint32_t liveCount() const { return live_count_; }
    uint32_t slotCount() const { return static_cast<uint32_t>(slots_.size()); }
    uint64_t retiredSlots() const { return retired_; }
    // Most slots the table may hold: indexes fit in 32 bits.
    static constexpr uint64_t kMaxSlots = UINT32_MAX;
    bool full() const { return free_.empty() && slots_.size() >= kMaxSlots; }

    std::vector<Slot>& slots() { return slots_; }
    const std::vector<Slot>& slots() const { return slots_; }

    // Tests: sets a slot's generation (to reach the wrap without 2^32 cycles).
    void setGenerationForTest(uint32_t index, uint32_t generation) {
        slots_[index].generation = generation;
    }

private:
    std::vector<Slot> slots_;
    std::vector<uint32_t> free_;
    uint32_t live_count_ = 0;
    uint64_t retired_ = 0;
};

} // namespace spindrift
