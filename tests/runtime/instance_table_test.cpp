// The world's slot table (runtime/instance_table.h): generations make every old handle stale, and
// a slot whose generation would wrap is retired rather than reused.
#include <gtest/gtest.h>

#include "runtime/instance_table.h"

namespace spindrift {
namespace {

TEST(InstanceTable, ReusedSlotsGetANewGeneration) {
    InstanceTable<int> table;
    const InstanceHandle a = table.acquire();
    table.release(a);
    const InstanceHandle b = table.acquire();
    EXPECT_EQ(InstanceTable<int>::indexOf(a), InstanceTable<int>::indexOf(b));
    EXPECT_EQ(InstanceTable<int>::generationOf(b), InstanceTable<int>::generationOf(a) + 1);
    EXPECT_EQ(table.lookup(a), SlotLookup::stale);
    EXPECT_EQ(table.lookup(b), SlotLookup::live);
    EXPECT_EQ(table.lookup(InstanceHandle{}), SlotLookup::invalid);
    EXPECT_EQ(table.lookup(InstanceTable<int>::handleOf(0, 99)), SlotLookup::invalid);
    EXPECT_EQ(table.lookup(InstanceTable<int>::handleOf(5, 1)), SlotLookup::invalid);
}

TEST(InstanceTable, ASlotWhoseGenerationWouldWrapIsRetired) {
    InstanceTable<int> table;
    const InstanceHandle first = table.acquire();
    table.release(first);
    table.setGenerationForTest(0, UINT32_MAX);
    const InstanceHandle last = table.acquire();
    EXPECT_EQ(InstanceTable<int>::generationOf(last), UINT32_MAX);
    table.release(last);
    EXPECT_EQ(table.retiredSlots(), 1u);
    EXPECT_EQ(table.lookup(last), SlotLookup::stale);
    EXPECT_EQ(table.lookup(first), SlotLookup::stale);
    const InstanceHandle next = table.acquire();
    EXPECT_EQ(InstanceTable<int>::indexOf(next), 1u) << "a fresh slot, not the retired one";
    EXPECT_EQ(table.liveCount(), 1u);
}

} // namespace
} // namespace spindrift
