// Counts heap allocations made through operator new while armed (this test binary replaces the
// global operator new), so a test can assert that a code path allocates nothing.
#pragma once

#include <cstdint>

namespace spindrift::test {

void armAllocationCounter();
uint64_t disarmAllocationCounter(); // allocations since arming

} // namespace spindrift::test
