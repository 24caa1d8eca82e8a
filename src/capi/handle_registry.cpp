#include "capi/handle_registry.h"

#include <mutex>

#include "capi/host_memory.h"

namespace spindrift::capi {

namespace {

constexpr uint32_t kSlotBits = 24;
constexpr uint32_t kMaxSlots = 1u << kSlotBits;

struct Slot {
    void* object;    // null: free
    uint32_t serial; // of the object in it (or the last one)
    uint8_t kind;
};

struct Registry {
    std::mutex mutex;
    HostArray<Slot>* slots = nullptr; // null while no object exists (no memory held)
    HostArray<uint32_t>* free_slots = nullptr;
    uint32_t live = 0;
    uint32_t next_serial = 1;
};

Registry& registry() {
    static Registry r;
    return r;
}

uint32_t slotOf(uint64_t handle) {
    return static_cast<uint32_t>(handle & (kMaxSlots - 1));
}
uint8_t kindOf(uint64_t handle) {
    return static_cast<uint8_t>((handle >> kSlotBits) & 0xFF);
}
uint32_t serialOf(uint64_t handle) {
    return static_cast<uint32_t>(handle >> 32);
}

// Called with the mutex held.
HandleLookup find(Registry& r, uint64_t handle, ObjectKind kind, Slot*& slot) {
    slot = nullptr;
    if (handle == 0) return HandleLookup::null;
    const uint32_t serial = serialOf(handle);
    const uint8_t k = kindOf(handle);
    if (serial == 0 || serial >= r.next_serial || k < 1 ||
        k > static_cast<uint8_t>(kLastObjectKind))
        return HandleLookup::invalid;
    if (k != static_cast<uint8_t>(kind)) return HandleLookup::wrong_kind;
    const uint32_t index = slotOf(handle);
    if (r.slots == nullptr || index >= r.slots->size()) return HandleLookup::stale;
    Slot& s = (*r.slots)[index];
    if (s.object == nullptr || s.serial != serial || s.kind != k) return HandleLookup::stale;
    slot = &s;
    return HandleLookup::live;
}

// Frees the table once nothing lives in it: serials are never reused, so nothing is lost.
void releaseIfEmpty(Registry& r) {
    if (r.live != 0) return;
    hostDelete(r.slots);
    hostDelete(r.free_slots);
    r.slots = nullptr;
    r.free_slots = nullptr;
}

} // namespace

const char* kindName(ObjectKind kind) {
    switch (kind) {
    case ObjectKind::library:
        return "library";
    case ObjectKind::world:
        return "world";
    case ObjectKind::draw_list:
        return "draw list";
    case ObjectKind::diagnostics:
        return "diagnostics";
    case ObjectKind::renderer:
        return "renderer";
    }
    return "object";
}

uint64_t registerObject(ObjectKind kind, void* object) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    if (r.next_serial == UINT32_MAX) return 0;
    if (r.slots == nullptr) {
        r.slots = hostNew<HostArray<Slot>>();
        try {
            r.free_slots = hostNew<HostArray<uint32_t>>();
        } catch (...) {
            releaseIfEmpty(r);
            throw;
        }
    }
    uint32_t index;
    if (r.free_slots->size() > 0) {
        index = (*r.free_slots)[r.free_slots->size() - 1];
        r.free_slots->resize(r.free_slots->size() - 1);
    } else {
        if (r.slots->size() >= kMaxSlots) return 0;
        bool pushed = false;
        try {
            r.slots->push(Slot{nullptr, 0, 0});
            pushed = true;
            r.free_slots->reserve(r.slots->size()); // so destroying never allocates
        } catch (...) {
            if (pushed) r.slots->resize(r.slots->size() - 1);
            releaseIfEmpty(r);
            throw;
        }
        index = static_cast<uint32_t>(r.slots->size() - 1);
    }
    const uint32_t serial = r.next_serial++;
    (*r.slots)[index] = Slot{object, serial, static_cast<uint8_t>(kind)};
    r.live += 1;
    return (static_cast<uint64_t>(serial) << 32) | (static_cast<uint64_t>(kind) << kSlotBits) |
           index;
}

HandleLookup lookupObject(uint64_t handle, ObjectKind kind, void*& object) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    Slot* slot;
    const HandleLookup result = find(r, handle, kind, slot);
    object = slot != nullptr ? slot->object : nullptr;
    return result;
}

HandleLookup unregisterObject(uint64_t handle, ObjectKind kind, void*& object) {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    Slot* slot;
    const HandleLookup result = find(r, handle, kind, slot);
    object = nullptr;
    if (result != HandleLookup::live) return result;
    object = slot->object;
    slot->object = nullptr;
    r.free_slots->push(slotOf(handle)); // capacity reserved when the slot was made
    r.live -= 1;
    releaseIfEmpty(r);
    return result;
}

} // namespace spindrift::capi
