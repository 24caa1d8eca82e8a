#include "capi/host_memory.h"

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace spindrift::capi {

namespace {

void* mallocAllocate(size_t bytes, void*) {
    return std::malloc(bytes);
}
void* mallocReallocate(void* memory, size_t bytes, void*) {
    return std::realloc(memory, bytes);
}
void mallocRelease(void* memory, void*) {
    std::free(memory);
}

// Replaced only while no block is outstanding, so every block goes back to the allocator that
// gave it; read without a lock (a host that swaps allocators while another thread creates objects
// breaks the contract spindrift.h states).
spindrift_allocator g_allocator = {sizeof(spindrift_allocator), mallocAllocate, mallocReallocate,
                                   mallocRelease, nullptr};
std::atomic<uint64_t> g_blocks{0};
std::mutex g_allocator_mutex;

} // namespace

void* hostAllocate(size_t bytes) {
    // A zero-byte request still gets a block of its own (malloc may return null for it).
    void* memory = g_allocator.allocate(bytes == 0 ? 1 : bytes, g_allocator.user);
    if (memory == nullptr) throw std::bad_alloc();
    g_blocks.fetch_add(1, std::memory_order_relaxed);
    return memory;
}

void* hostReallocate(void* memory, size_t bytes) {
    void* grown = g_allocator.reallocate(memory, bytes == 0 ? 1 : bytes, g_allocator.user);
    if (grown == nullptr) throw std::bad_alloc(); // the old block is still valid and owned
    if (memory == nullptr) g_blocks.fetch_add(1, std::memory_order_relaxed);
    return grown;
}

void hostRelease(void* memory) {
    if (memory == nullptr) return;
    g_allocator.release(memory, g_allocator.user);
    g_blocks.fetch_sub(1, std::memory_order_relaxed);
}

uint64_t hostBlocksOutstanding() {
    return g_blocks.load(std::memory_order_relaxed);
}

spindrift_result setHostAllocator(const spindrift_allocator* allocator) {
    const std::lock_guard lock(g_allocator_mutex);
    if (hostBlocksOutstanding() != 0) return SPINDRIFT_ERROR_IN_USE;
    if (allocator == nullptr) {
        g_allocator = {sizeof(spindrift_allocator), mallocAllocate, mallocReallocate, mallocRelease,
                       nullptr};
    } else {
        g_allocator = *allocator;
    }
    return SPINDRIFT_OK;
}

} // namespace spindrift::capi
