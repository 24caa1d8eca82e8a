// Typed handles of the renderer's long-lived resources (textures, meshes; STYLE, "Plain data and
// handles"): a 32-bit slot index plus the generation of the slot it was handed out for, with a
// named invalid value (kNoTexture, kNoMesh). The store that hands a handle out checks it on every
// use (HandleSlots): a handle past the store's slots, or of a generation the slot is not at (the
// entry was released and the slot reused, or the handle was made by hand), is refused with a
// message naming it, never dereferenced. A texture handle and a mesh handle are different types.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace spindrift::render {

template <typename Tag> struct ResourceHandle {
    uint32_t index = 0xffffffffu; // slot in the store
    uint32_t generation = 0;      // of the slot when handed out; slots start at 1
    friend constexpr bool operator==(ResourceHandle, ResourceHandle) = default;
};

// What a kind of handle is called in messages: "unknown texture handle 7 (3 textures loaded)".
struct TextureTag {
    static constexpr std::string_view kName = "texture";
    static constexpr std::string_view kPlural = "textures";
    static constexpr std::string_view kNone = "kNoTexture";
};
struct MeshTag {
    static constexpr std::string_view kName = "mesh";
    static constexpr std::string_view kPlural = "meshes";
    static constexpr std::string_view kNone = "kNoMesh";
};

using TextureHandle = ResourceHandle<TextureTag>;
using MeshHandle = ResourceHandle<MeshTag>;

// No texture: a batch without one draws the procedural soft disc (billboards), the soft band
// (strips) or its colour alone (meshes). Also what addTexture returns on failure.
inline constexpr TextureHandle kNoTexture{};
// No mesh: what addMesh returns on failure; a mesh batch must name a mesh.
inline constexpr MeshHandle kNoMesh{};

static_assert(std::is_trivially_copyable_v<TextureHandle> && sizeof(TextureHandle) == 8);
static_assert(std::is_trivially_copyable_v<MeshHandle> && sizeof(MeshHandle) == 8);

// The generations of a store's slots: hands out handles and checks them. The store keeps its
// entries at the handles' indices. A slot's first generation is 1, so neither the invalid value
// nor a zeroed handle names an entry. No store releases an entry yet; one that does bumps the
// slot's generation (every handle to the old entry then reads as stale) before reusing it.
template <typename Tag> class HandleSlots {
public:
    using Handle = ResourceHandle<Tag>;

    // A new slot at the end, and its handle. The caller has checked its capacity.
    Handle add() {
        generations_.push_back(1u);
        return {static_cast<uint32_t>(generations_.size() - 1), 1u};
    }

    bool valid(Handle handle) const {
        return handle.index < generations_.size() &&
               generations_[handle.index] == handle.generation;
    }

    uint32_t count() const { return static_cast<uint32_t>(generations_.size()); }

    // Why handle names no entry ("unknown mesh handle 5 (2 meshes loaded)", "stale texture
    // handle 0 (generation 3; the slot is at generation 1)", "no mesh (kNoMesh)"); empty when it
    // names one.
    std::string problem(Handle handle) const {
        const std::string name(Tag::kName);
        if (handle == Handle{}) return "no " + name + " (" + std::string(Tag::kNone) + ")";
        if (handle.index >= generations_.size()) {
            return "unknown " + name + " handle " + std::to_string(handle.index) + " (" +
                   std::to_string(generations_.size()) + " " + std::string(Tag::kPlural) +
                   " loaded)";
        }
        if (generations_[handle.index] != handle.generation) {
            return "stale " + name + " handle " + std::to_string(handle.index) + " (generation " +
                   std::to_string(handle.generation) + "; the slot is at generation " +
                   std::to_string(generations_[handle.index]) + ")";
        }
        return {};
    }

private:
    std::vector<uint32_t> generations_;
};

} // namespace spindrift::render
