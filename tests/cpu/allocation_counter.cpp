#include "allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<bool> g_armed{false};
std::atomic<uint64_t> g_count{0};
} // namespace

void* operator new(std::size_t size) {
    if (g_armed.load(std::memory_order_relaxed)) g_count.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

namespace spindrift::test {

void armAllocationCounter() {
    g_count = 0;
    g_armed = true;
}

uint64_t disarmAllocationCounter() {
    g_armed = false;
    return g_count.load();
}

} // namespace spindrift::test
