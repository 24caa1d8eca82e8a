// Hot reload (docs/runtime-api.md, "Hot reload"): which emitters of a new version of an effect
// continue the particles of the old version's emitters. The one definition of "the layouts
// match", read by both backends' state carries (cpu/state_carry.h, gpu/state_carry.h) through the
// runtime, so a CPU and a GPU instance of the same effect keep or restart for the same reload.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"

namespace spindrift {

// No old emitter: the new emitter starts empty.
inline constexpr int32_t kNoReloadMatch = -1;

struct ReloadMatch {
    // True when the instance can keep its state: the effects match and every emitter of the new
    // version whose name the old one has matches it (reloadLayoutDifference).
    bool keeps = false;
    // Per emitter of the new version (compiled order): the old emitter it continues, or
    // kNoReloadMatch (a new name). Filled when keeps.
    std::vector<int32_t> old_emitter;
    // When !keeps: what differs, naming the emitter ("emitter 'sparks': capacity 512 -> 300").
    std::string reason;
};

// Empty when emitter `o` of `old_effect` and emitter `e` of `new_effect` store their particles
// alike, so the new emitter can take the old one's state as it is; else what differs. They match
// when all hold:
// - capacity: the pool's slot count (both backends size every column, list and ring by it);
// - the order the pool keeps: stable_order, the overflow mode and whether the emitter has death,
//   collision or threshold sub-emitter links (the backends' birth-order rules,
//   cpu/birth_order.h, gpu/birth_order.h): a list kept in birth order must have been kept so;
// - ribbon trails: both draw ribbons with the same max_points (the ring per slot), or neither.
//   min_sample_distance and the other ribbon settings may change: they are read each step.
// The pool columns (attribute set) are the same for every emitter of every effect on both
// backends (cpu/particle_pool.h, gpu/shader/gpu_sim.h), so they always match today; a per-emitter
// attribute set would be compared here. Names are compared by the caller (matchForReload).
std::string reloadLayoutDifference(const CompiledEffect& old_effect, uint32_t o,
                                   const CompiledEffect& new_effect, uint32_t e);

// Matches the emitters of new_effect to those of old_effect by name. keeps is false when the
// simulation space or the fixed step differ, or when an emitter of the new version has an old
// namesake whose layout differs (reloadLayoutDifference); the reason says which.
ReloadMatch matchForReload(const CompiledEffect& old_effect, const CompiledEffect& new_effect);

} // namespace spindrift
