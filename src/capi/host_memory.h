// Memory of the C layer (include/spindrift/spindrift.h, spindrift_set_allocator): every block the
// C layer allocates for itself — its wrapper objects, the handle table, the arrays and strings it
// hands out — comes from the host's allocator when one is set, else from malloc. A failed
// allocation throws std::bad_alloc, which every entry point turns into
// SPINDRIFT_ERROR_OUT_OF_MEMORY. The C++ engine below allocates through operator new
// (docs/c-api.md, "Memory").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "spindrift/spindrift.h"

namespace spindrift::capi {

void* hostAllocate(size_t bytes);
// Grows or shrinks a block from hostAllocate (memory null: allocates).
void* hostReallocate(void* memory, size_t bytes);
void hostRelease(void* memory);
// Blocks allocated and not yet released: the allocator may be replaced only at 0.
uint64_t hostBlocksOutstanding();
// Installs the host's allocator (null: malloc again); IN_USE while blocks are outstanding.
spindrift_result setHostAllocator(const spindrift_allocator* allocator);

// new and delete of one object in host memory.
template <typename T, typename... Args> T* hostNew(Args&&... args) {
    void* memory = hostAllocate(sizeof(T));
    static_assert(alignof(T) <= alignof(std::max_align_t), "host memory is malloc-aligned");
    try {
        return new (memory) T(std::forward<Args>(args)...);
    } catch (...) {
        hostRelease(memory);
        throw;
    }
}

template <typename T> void hostDelete(T* object) {
    if (object == nullptr) return;
    object->~T();
    hostRelease(object);
}

// A standard allocator over host memory, for the C layer's own containers of C++ types.
template <typename T> struct HostAllocator {
    using value_type = T;
    HostAllocator() = default;
    template <typename U> HostAllocator(const HostAllocator<U>&) {}
    T* allocate(size_t n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        return static_cast<T*>(hostAllocate(n * sizeof(T)));
    }
    void deallocate(T* p, size_t) { hostRelease(p); }
    friend bool operator==(HostAllocator, HostAllocator) { return true; }
};

template <typename T> using HostVector = std::vector<T, HostAllocator<T>>;

// A growable array of plain C structs in host memory, grown with the host's reallocate: the
// arrays the C API hands out (events, batches, diagnostics and their strings).
template <typename T> class HostArray {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    HostArray() = default;
    ~HostArray() { hostRelease(data_); }
    HostArray(const HostArray&) = delete;
    HostArray& operator=(const HostArray&) = delete;

    T* data() { return data_; }
    const T* data() const { return data_; }
    size_t size() const { return size_; }
    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    void clear() { size_ = 0; }

    // Sets the size; new elements are zero bytes.
    void resize(size_t n) {
        reserve(n);
        if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
        size_ = n;
    }
    void push(const T& value) {
        if (size_ == capacity_) reserve(capacity_ < 8 ? 8 : capacity_ * 2);
        data_[size_++] = value;
    }
    void append(const T* values, size_t n) {
        if (n > capacity_ - size_) reserve(size_ + n > capacity_ * 2 ? size_ + n : capacity_ * 2);
        if (n > 0) std::memcpy(static_cast<void*>(data_ + size_), values, n * sizeof(T));
        size_ += n;
    }
    void reserve(size_t n) {
        if (n <= capacity_) return;
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        data_ = static_cast<T*>(hostReallocate(data_, n * sizeof(T)));
        capacity_ = n;
    }

private:
    T* data_ = nullptr;
    size_t size_ = 0;
    size_t capacity_ = 0;
};

} // namespace spindrift::capi
