// What the C API's handles name: a library, a world, a draw list or a diagnostics list, each a
// C++ runtime object with the little state the C layer keeps beside it (arrays it hands out,
// adapters from C callbacks to the C++ interfaces). Allocated in host memory (host_memory.h);
// named by handle_registry.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "capi/call_guard.h"
#include "capi/handle_registry.h"
#include "capi/host_memory.h"
#include "spindrift/draw_list.h"
#include "spindrift/runtime.h"
#include "spindrift/spindrift.h"

namespace spindrift::capi {

struct LibraryObject {
    EffectLibrary library;
    // Worlds made with it: the C++ library must outlive them, so destroying it is refused until 0.
    std::atomic<uint32_t> worlds{0};
};

// The host's parallel-for as the world's JobRunner.
class HostJobRunner final : public JobRunner {
public:
    HostJobRunner(spindrift_parallel_for_fn fn, void* user) : fn_(fn), user_(user) {}
    void parallelFor(uint32_t count, JobFunction job, void* context) override {
        fn_(count, job, context, user_);
    }

private:
    spindrift_parallel_for_fn fn_;
    void* user_;
};

// A C path callback as the TransformPath an attached instance follows.
class HostPath final : public TransformPath {
public:
    HostPath(spindrift_path_fn fn, void* user) : fn_(fn), user_(user) {}
    Matrix3x4 worldFromEffectAt(double time_s) const override;

private:
    spindrift_path_fn fn_;
    void* user_;
};

struct AttachedPath {
    uint64_t instance; // InstanceHandle::value
    HostPath* path;    // host memory, owned
};

// Counts a world in its library's `worlds` for as long as the world exists.
struct LibraryUse {
    explicit LibraryUse(LibraryObject& lib) : library(&lib) { library->worlds.fetch_add(1); }
    ~LibraryUse() { library->worlds.fetch_sub(1); }
    LibraryUse(const LibraryUse&) = delete;
    LibraryUse& operator=(const LibraryUse&) = delete;
    LibraryObject* library;
};

// The paths attached instances follow, owned; freed after the world that calls them.
struct PathList {
    PathList() = default;
    ~PathList();
    PathList(const PathList&) = delete;
    PathList& operator=(const PathList&) = delete;
    HostVector<AttachedPath> items;
};

// Members in destruction order reversed: the world goes before the paths and the runner it
// calls, and before its library's count drops.
struct WorldObject {
    WorldObject(LibraryObject& lib, const WorldConfig& config, spindrift_parallel_for_fn fn,
                void* user);

    LibraryUse library_use;
    PathList paths;
    HostJobRunner runner;
    World world;
    HostArray<spindrift_event> events; // World::events() as C structs, refreshed on request
    spindrift_distance_fn distance_fn = nullptr;
    void* distance_user = nullptr;
    // readParticles' vector: a C++ API type, allocated by the standard library (operator new).
    std::vector<Particle> particles;

    // Drops the paths of instances that are gone (destroyed, or destroyed on finish).
    void releaseDeadPaths();
    void releasePath(uint64_t instance);
};

struct DrawListObject {
    DrawList list;
    HostArray<spindrift_draw_batch> batches; // list.batches() as C structs, made when filled
};

// Diagnostics as C structs: strings live in one character array, records hold offsets into it
// (the array may move while growing) and become pointers when read.
struct DiagnosticRecord {
    uint32_t severity;
    uint32_t line;
    uint32_t column;
    uint64_t byte_offset;
    size_t file, path, message; // offsets into text, each string NUL-terminated
};

struct DiagnosticsObject {
    HostArray<DiagnosticRecord> records;
    HostArray<char> text;
    void add(const Diagnostic& d);
};

// A renderer (capi_render.cpp defines it: only that file sees the renderer's headers).
struct RendererObject;

template <typename T> struct KindOf;
template <> struct KindOf<LibraryObject> {
    static constexpr ObjectKind value = ObjectKind::library;
};
template <> struct KindOf<WorldObject> { static constexpr ObjectKind value = ObjectKind::world; };
template <> struct KindOf<DrawListObject> {
    static constexpr ObjectKind value = ObjectKind::draw_list;
};
template <> struct KindOf<DiagnosticsObject> {
    static constexpr ObjectKind value = ObjectKind::diagnostics;
};
template <> struct KindOf<RendererObject> {
    static constexpr ObjectKind value = ObjectKind::renderer;
};

// The error (and message) of a handle that is not live.
spindrift_result handleError(HandleLookup lookup, ObjectKind kind, uint64_t handle);

// The object a handle names, or its error.
template <typename T> spindrift_result resolve(uint64_t handle, T*& out) {
    void* object = nullptr;
    const HandleLookup lookup = lookupObject(handle, KindOf<T>::value, object);
    out = static_cast<T*>(object);
    return lookup == HandleLookup::live ? SPINDRIFT_OK
                                        : handleError(lookup, KindOf<T>::value, handle);
}

// Makes an object in host memory and registers it; *out gets its handle.
template <typename T, typename... Args> spindrift_result makeObject(uint64_t& out, Args&&... args) {
    out = 0;
    T* object = hostNew<T>(std::forward<Args>(args)...);
    uint64_t handle = 0;
    try {
        handle = registerObject(KindOf<T>::value, object);
    } catch (...) {
        hostDelete(object);
        throw;
    }
    if (handle == 0) {
        hostDelete(object);
        return fail(SPINDRIFT_ERROR_CAPACITY_EXCEEDED,
                    "no more %s handles (2^24 live objects, or 2^32 - 1 made in this process)",
                    kindName(KindOf<T>::value));
    }
    out = handle;
    return SPINDRIFT_OK;
}

// A new diagnostics list of the given diagnostics; *out gets its handle (out may be null: none).
spindrift_result makeDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                 spindrift_diagnostics* out);

// An instance handle argument: the null one is SPINDRIFT_ERROR_NULL_HANDLE.
spindrift_result requireInstance(spindrift_instance instance);

} // namespace spindrift::capi
