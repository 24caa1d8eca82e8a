// The handles of the C API's objects (libraries, worlds, draw lists, diagnostics lists, renderers):
// 64-bit values, never pointers, so a destroyed, forged or mistyped handle is detected and answered
// with an error instead of being dereferenced (STYLE: "A stale handle is detected and reported").
//
// Layout: bits 0-23 the slot, bits 24-31 the object kind, bits 32-63 the object's serial. Serials
// are handed out once per process (1, 2, ...) and never reused, so a slot's current serial tells a
// live handle from a stale one, and the table can be freed whenever it is empty (which is what lets
// spindrift_set_allocator change allocators between uses). Creation past 2^32 - 1 serials is
// refused. One mutex guards the table: objects can be made, destroyed and checked from any thread.
#pragma once

#include <cstdint>

namespace spindrift::capi {

enum class ObjectKind : uint8_t {
    library = 1,
    world = 2,
    draw_list = 3,
    diagnostics = 4,
    renderer = 5
};
inline constexpr ObjectKind kLastObjectKind = ObjectKind::renderer; // kinds are 1..this

const char* kindName(ObjectKind kind);

enum class HandleLookup : uint8_t { live, null, invalid, stale, wrong_kind };

// Registers object and returns its handle; 0 when the table or the serials are exhausted.
uint64_t registerObject(ObjectKind kind, void* object);
// The object of a live handle of that kind (null with the reason otherwise).
HandleLookup lookupObject(uint64_t handle, ObjectKind kind, void*& object);
// Removes a live handle's object from the table and returns it (the caller destroys it); the
// handle is stale from then on. Null with the reason when the handle is not live.
HandleLookup unregisterObject(uint64_t handle, ObjectKind kind, void*& object);

} // namespace spindrift::capi
