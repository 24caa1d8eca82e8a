// Typed, generation-checked handles (render/resource_handle.h): what a store's slots accept and
// how they name what they refuse. The stores themselves are tested through the renderer
// (renderer_test.cpp: StaleAndUnknownHandlesAreRefused...).
#include "render/resource_handle.h"

#include <type_traits>

#include <gtest/gtest.h>

namespace spindrift::render {
namespace {

static_assert(!std::is_convertible_v<TextureHandle, MeshHandle>, "distinct handle types");
static_assert(!std::is_convertible_v<uint32_t, TextureHandle>, "no bare index");

TEST(ResourceHandle, TheInvalidValueIsTheDefaultAndNamesNothing) {
    EXPECT_EQ(TextureHandle{}, kNoTexture);
    EXPECT_EQ(MeshHandle{}, kNoMesh);
    HandleSlots<MeshTag> slots;
    const MeshHandle first = slots.add();
    EXPECT_FALSE(slots.valid(kNoMesh));
    EXPECT_EQ(slots.problem(kNoMesh), "no mesh (kNoMesh)");
    // A zeroed handle names slot 0 at generation 0, which no slot is ever at.
    EXPECT_FALSE(slots.valid(MeshHandle{0, 0}));
    EXPECT_TRUE(slots.valid(first));
}

TEST(ResourceHandle, HandedOutHandlesAreValidInOrder) {
    HandleSlots<TextureTag> slots;
    const TextureHandle a = slots.add();
    const TextureHandle b = slots.add();
    EXPECT_EQ(a, (TextureHandle{0, 1}));
    EXPECT_EQ(b, (TextureHandle{1, 1}));
    EXPECT_TRUE(slots.valid(a));
    EXPECT_TRUE(slots.valid(b));
    EXPECT_EQ(slots.problem(a), "");
    EXPECT_EQ(slots.count(), 2u);
}

TEST(ResourceHandle, OutOfRangeHandleIsRefusedNamingIt) {
    HandleSlots<TextureTag> slots;
    slots.add();
    const TextureHandle past{1, 1};
    EXPECT_FALSE(slots.valid(past));
    EXPECT_EQ(slots.problem(past), "unknown texture handle 1 (1 textures loaded)");
    HandleSlots<MeshTag> meshes;
    EXPECT_EQ(meshes.problem(MeshHandle{5, 1}), "unknown mesh handle 5 (0 meshes loaded)");
}

TEST(ResourceHandle, HandleOfAnotherGenerationIsRefusedAsStale) {
    HandleSlots<MeshTag> slots;
    const MeshHandle live = slots.add();
    const MeshHandle stale{live.index, live.generation + 1};
    EXPECT_FALSE(slots.valid(stale));
    EXPECT_EQ(slots.problem(stale),
              "stale mesh handle 0 (generation 2; the slot is at generation 1)");
}

} // namespace
} // namespace spindrift::render
