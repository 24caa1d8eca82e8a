#include "capi/capi_objects.h"

#include <algorithm>
#include <cstring>

namespace spindrift::capi {

Matrix3x4 HostPath::worldFromEffectAt(double time_s) const {
    spindrift_matrix3x4 m = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    fn_(time_s, &m, user_);
    Matrix3x4 out;
    std::memcpy(out.rows, m.rows, sizeof out.rows);
    return out;
}

namespace {

WorldConfig withRunner(WorldConfig config, JobRunner* runner, bool use) {
    config.job_runner = use ? runner : nullptr;
    return config;
}

} // namespace

WorldObject::WorldObject(LibraryObject& lib, const WorldConfig& config,
                         spindrift_parallel_for_fn fn, void* user)
    : library_use(lib), runner(fn, user),
      world(lib.library, withRunner(config, &runner, fn != nullptr)) {}

PathList::~PathList() {
    for (AttachedPath& p : items) hostDelete(p.path);
}

void WorldObject::releaseDeadPaths() {
    auto dead = [&](const AttachedPath& p) {
        if (world.isAlive(InstanceHandle{p.instance})) return false;
        hostDelete(p.path);
        return true;
    };
    paths.items.erase(std::remove_if(paths.items.begin(), paths.items.end(), dead),
                      paths.items.end());
}

void WorldObject::releasePath(uint64_t instance) {
    auto it = std::find_if(paths.items.begin(), paths.items.end(),
                           [&](const AttachedPath& p) { return p.instance == instance; });
    if (it == paths.items.end()) return;
    hostDelete(it->path);
    paths.items.erase(it);
}

void DiagnosticsObject::add(const Diagnostic& d) {
    auto put = [&](const std::string& s) {
        const size_t at = text.size();
        text.append(s.data(), s.size());
        text.push('\0');
        return at;
    };
    DiagnosticRecord r{};
    r.severity = static_cast<uint32_t>(d.severity);
    r.line = d.line;
    r.column = d.column;
    r.byte_offset = d.byte_offset;
    r.file = put(d.file);
    r.path = put(d.path);
    r.message = put(d.message);
    records.push(r);
}

spindrift_result handleError(HandleLookup lookup, ObjectKind kind, uint64_t handle) {
    const char* name = kindName(kind);
    const auto value = static_cast<unsigned long long>(handle);
    switch (lookup) {
    case HandleLookup::live:
        return SPINDRIFT_OK;
    case HandleLookup::null:
        return fail(SPINDRIFT_ERROR_NULL_HANDLE, "the null %s handle", name);
    case HandleLookup::stale:
        return fail(SPINDRIFT_ERROR_STALE_HANDLE,
                    "%s handle 0x%016llx is stale: its %s was destroyed", name, value, name);
    case HandleLookup::wrong_kind:
        return fail(SPINDRIFT_ERROR_INVALID_HANDLE, "handle 0x%016llx is not a %s handle", value,
                    name);
    case HandleLookup::invalid:
        break;
    }
    return fail(SPINDRIFT_ERROR_INVALID_HANDLE, "%s handle 0x%016llx was never made by Spindrift",
                name, value);
}

spindrift_result makeDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                 spindrift_diagnostics* out) {
    if (out == nullptr) return SPINDRIFT_OK;
    out->id = 0;
    uint64_t handle = 0;
    const spindrift_result made = makeObject<DiagnosticsObject>(handle);
    if (made != SPINDRIFT_OK) return made;
    DiagnosticsObject* object = nullptr;
    resolve(handle, object);
    try {
        for (const Diagnostic& d : diagnostics) object->add(d);
    } catch (...) {
        void* gone = nullptr;
        unregisterObject(handle, ObjectKind::diagnostics, gone);
        hostDelete(object);
        throw;
    }
    out->id = handle;
    return SPINDRIFT_OK;
}

spindrift_result requireInstance(spindrift_instance instance) {
    if (instance.id == 0) return fail(SPINDRIFT_ERROR_NULL_HANDLE, "the null instance handle");
    return SPINDRIFT_OK;
}

} // namespace spindrift::capi
