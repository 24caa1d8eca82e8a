// The effect library, validation and diagnostics lists through the C API.
#include <string>
#include <string_view>
#include <vector>

#include "capi/call_guard.h"
#include "capi/capi_objects.h"
#include "compiler/compiled_effect.h"
#include "cook/effect_file.h"
#include "spindrift/diagnostic.h"
#include "spindrift/spindrift.h"

using namespace spindrift;
using namespace spindrift::capi;

namespace {

// EFFECT_FAILED with the first error (file:line:col: path: message) and how many there are.
spindrift_result effectFailed(std::string_view what, const std::vector<Diagnostic>& diagnostics) {
    size_t errors = 0;
    const Diagnostic* first = nullptr;
    for (const Diagnostic& d : diagnostics) {
        if (d.severity != Severity::error) continue;
        if (first == nullptr) first = &d;
        errors += 1;
    }
    const std::string text = first != nullptr ? formatDiagnostic(*first) : std::string("no detail");
    return fail(SPINDRIFT_ERROR_EFFECT_FAILED, "%.*s: %zu error(s); the first: %s",
                static_cast<int>(what.size()), what.data(), errors, text.c_str());
}

spindrift_result validated(std::string_view what, bool ok,
                           const std::vector<Diagnostic>& diagnostics, spindrift_diagnostics* out) {
    if (const spindrift_result r = makeDiagnostics(diagnostics, out); r != SPINDRIFT_OK) return r;
    return ok ? SPINDRIFT_OK : effectFailed(what, diagnostics);
}

// The library's entry of an effect id, or UNKNOWN_EFFECT.
spindrift_result effectInfo(LibraryObject& lib, spindrift_effect_id effect, EffectInfo& info) {
    if (!lib.library.info(EffectId{effect}, info)) {
        return fail(SPINDRIFT_ERROR_UNKNOWN_EFFECT, "effect id %u is not in the library", effect);
    }
    return SPINDRIFT_OK;
}

enum class EmitterString { name, texture, mesh };

spindrift_result emitterString(spindrift_library library, spindrift_effect_id effect,
                               uint32_t emitter_index, EmitterString which, char* buffer,
                               size_t buffer_bytes, size_t* out_length) {
    LibraryObject* lib;
    if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
    EffectInfo info;
    if (const spindrift_result r = effectInfo(*lib, effect, info); r != SPINDRIFT_OK) return r;
    if (emitter_index >= info.emitters.size()) {
        return fail(SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE,
                    "emitter index %u: '%s' has %zu emitter(s)%s", emitter_index, info.path.c_str(),
                    info.emitters.size(),
                    info.compiled ? "" : " (it is not compiled: spindrift_library_compile)");
    }
    const std::vector<std::string>& list = which == EmitterString::name      ? info.emitters
                                           : which == EmitterString::texture ? info.textures
                                                                             : info.meshes;
    return copyOut(list[emitter_index], buffer, buffer_bytes, out_length);
}

} // namespace

extern "C" {

SPINDRIFT_API spindrift_result spindrift_diagnostics_count(spindrift_diagnostics diagnostics,
                                                           uint32_t* out_count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_count, "out_count"); r != SPINDRIFT_OK)
            return r;
        DiagnosticsObject* d;
        if (const spindrift_result r = resolve(diagnostics.id, d); r != SPINDRIFT_OK) return r;
        *out_count = static_cast<uint32_t>(d->records.size());
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_diagnostics_error_count(spindrift_diagnostics diagnostics,
                                                                 uint32_t* out_count) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_count, "out_count"); r != SPINDRIFT_OK)
            return r;
        DiagnosticsObject* d;
        if (const spindrift_result r = resolve(diagnostics.id, d); r != SPINDRIFT_OK) return r;
        uint32_t errors = 0;
        for (size_t i = 0; i < d->records.size(); ++i)
            errors += d->records[i].severity == SPINDRIFT_SEVERITY_ERROR ? 1u : 0u;
        *out_count = errors;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_diagnostics_get(spindrift_diagnostics diagnostics,
                                                         uint32_t index,
                                                         spindrift_diagnostic* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        DiagnosticsObject* d;
        if (const spindrift_result r = resolve(diagnostics.id, d); r != SPINDRIFT_OK) return r;
        if (index >= d->records.size()) {
            return fail(SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE, "index %u: the list has %zu", index,
                        d->records.size());
        }
        const DiagnosticRecord& r = d->records[index];
        const char* text = d->text.data();
        out->severity = r.severity;
        out->file = text + r.file;
        out->line = r.line;
        out->column = r.column;
        out->byte_offset = r.byte_offset;
        out->path = text + r.path;
        out->message = text + r.message;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_diagnostics_destroy(spindrift_diagnostics diagnostics) {
    return guarded(__func__, [&] {
        if (diagnostics.id == 0) return SPINDRIFT_OK;
        void* object = nullptr;
        const HandleLookup lookup =
            unregisterObject(diagnostics.id, ObjectKind::diagnostics, object);
        if (lookup != HandleLookup::live)
            return handleError(lookup, ObjectKind::diagnostics, diagnostics.id);
        hostDelete(static_cast<DiagnosticsObject*>(object));
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_validate_file(const char* path,
                                                       spindrift_diagnostics* out_diagnostics) {
    return guarded(__func__, [&] {
        if (out_diagnostics != nullptr) out_diagnostics->id = 0;
        if (const spindrift_result r = requirePointer(path, "path"); r != SPINDRIFT_OK) return r;
        CompiledEffect effect;
        std::vector<Diagnostic> diagnostics;
        const bool ok = loadCompiledEffect(path, effect, diagnostics);
        return validated(path, ok, diagnostics, out_diagnostics);
    });
}

SPINDRIFT_API spindrift_result spindrift_validate_text(const char* text, size_t text_bytes,
                                                       const char* file_name,
                                                       spindrift_diagnostics* out_diagnostics) {
    return guarded(__func__, [&] {
        if (out_diagnostics != nullptr) out_diagnostics->id = 0;
        if (text == nullptr && text_bytes > 0)
            return fail(SPINDRIFT_ERROR_NULL_POINTER, "text is NULL");
        const std::string file = file_name != nullptr ? file_name : "<memory>";
        CompiledEffect effect;
        std::vector<Diagnostic> diagnostics;
        const bool ok = compileEffectText(std::string_view(text == nullptr ? "" : text, text_bytes),
                                          file, effect, diagnostics);
        return validated(file, ok, diagnostics, out_diagnostics);
    });
}

SPINDRIFT_API spindrift_result spindrift_library_create(spindrift_library* out_library) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_library, "out_library");
            r != SPINDRIFT_OK)
            return r;
        return makeObject<LibraryObject>(out_library->id);
    });
}

SPINDRIFT_API spindrift_result spindrift_library_destroy(spindrift_library library) {
    return guarded(__func__, [&] {
        if (library.id == 0) return SPINDRIFT_OK;
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        if (const uint32_t worlds = lib->worlds.load(); worlds != 0) {
            return fail(SPINDRIFT_ERROR_IN_USE,
                        "library handle 0x%016llx is used by %u world(s): destroy them first",
                        static_cast<unsigned long long>(library.id), worlds);
        }
        void* object = nullptr;
        const HandleLookup lookup = unregisterObject(library.id, ObjectKind::library, object);
        if (lookup != HandleLookup::live)
            return handleError(lookup, ObjectKind::library, library.id);
        hostDelete(static_cast<LibraryObject*>(object));
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_library_add_file(spindrift_library library,
                                                          const char* path,
                                                          spindrift_effect_id* out_effect) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_effect, "out_effect"); r != SPINDRIFT_OK)
            return r;
        *out_effect = 0;
        if (const spindrift_result r = requirePointer(path, "path"); r != SPINDRIFT_OK) return r;
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        if (path[0] == '\0') return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "path is empty");
        *out_effect = lib->library.add(path).value;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_library_add_text(spindrift_library library,
                                                          const char* name, const char* text,
                                                          size_t text_bytes,
                                                          spindrift_effect_id* out_effect) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_effect, "out_effect"); r != SPINDRIFT_OK)
            return r;
        *out_effect = 0;
        if (const spindrift_result r = requirePointer(name, "name"); r != SPINDRIFT_OK) return r;
        if (text == nullptr && text_bytes > 0)
            return fail(SPINDRIFT_ERROR_NULL_POINTER, "text is NULL");
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        if (name[0] == '\0') return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT, "name is empty");
        const EffectId id =
            lib->library.addText(name, std::string_view(text == nullptr ? "" : text, text_bytes));
        if (id.value == 0) {
            return fail(SPINDRIFT_ERROR_INVALID_ARGUMENT,
                        "'%s' is already registered as a file (spindrift_library_add_file)", name);
        }
        *out_effect = id.value;
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_library_compile(spindrift_library library,
                                                         spindrift_effect_id effect) {
    return guarded(__func__, [&] {
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        const RuntimeError error = lib->library.compile(EffectId{effect});
        if (error == RuntimeError::none) return SPINDRIFT_OK;
        EffectInfo info;
        if (error == RuntimeError::unknown_effect || !lib->library.info(EffectId{effect}, info))
            return fail(SPINDRIFT_ERROR_UNKNOWN_EFFECT, "effect id %u is not in the library",
                        effect);
        return effectFailed(info.path, info.diagnostics);
    });
}

SPINDRIFT_API spindrift_result spindrift_library_effect_info(spindrift_library library,
                                                             spindrift_effect_id effect,
                                                             spindrift_effect_info* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        EffectInfo info;
        if (const spindrift_result r = effectInfo(*lib, effect, info); r != SPINDRIFT_OK) return r;
        out->compiled = info.compiled;
        out->failed = info.failed;
        out->version = info.version;
        out->emitter_count = static_cast<uint32_t>(info.emitters.size());
        out->parameter_count = static_cast<uint32_t>(info.parameters.size());
        out->diagnostic_count = static_cast<uint32_t>(info.diagnostics.size());
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_library_emitter_name(spindrift_library library,
                                                              spindrift_effect_id effect,
                                                              uint32_t emitter_index, char* buffer,
                                                              size_t buffer_bytes,
                                                              size_t* out_length) {
    return guarded(__func__, [&] {
        return emitterString(library, effect, emitter_index, EmitterString::name, buffer,
                             buffer_bytes, out_length);
    });
}

SPINDRIFT_API spindrift_result spindrift_library_emitter_texture(spindrift_library library,
                                                                 spindrift_effect_id effect,
                                                                 uint32_t emitter_index,
                                                                 char* buffer, size_t buffer_bytes,
                                                                 size_t* out_length) {
    return guarded(__func__, [&] {
        return emitterString(library, effect, emitter_index, EmitterString::texture, buffer,
                             buffer_bytes, out_length);
    });
}

SPINDRIFT_API spindrift_result spindrift_library_emitter_mesh(spindrift_library library,
                                                              spindrift_effect_id effect,
                                                              uint32_t emitter_index, char* buffer,
                                                              size_t buffer_bytes,
                                                              size_t* out_length) {
    return guarded(__func__, [&] {
        return emitterString(library, effect, emitter_index, EmitterString::mesh, buffer,
                             buffer_bytes, out_length);
    });
}

SPINDRIFT_API spindrift_result spindrift_library_parameter_info(spindrift_library library,
                                                                spindrift_effect_id effect,
                                                                uint32_t parameter_index,
                                                                spindrift_parameter_info* out) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        EffectInfo info;
        if (const spindrift_result r = effectInfo(*lib, effect, info); r != SPINDRIFT_OK) return r;
        if (parameter_index >= info.parameters.size()) {
            return fail(SPINDRIFT_ERROR_INDEX_OUT_OF_RANGE, "parameter index %u: '%s' has %zu",
                        parameter_index, info.path.c_str(), info.parameters.size());
        }
        const ParameterInfo& p = info.parameters[parameter_index];
        static_assert(SPINDRIFT_MAX_NAME_BYTES == kMaxNameBytes);
        out->kind = static_cast<uint32_t>(p.kind);
        const size_t n =
            p.name.size() < SPINDRIFT_MAX_NAME_BYTES ? p.name.size() : SPINDRIFT_MAX_NAME_BYTES;
        p.name.copy(out->name, n);
        out->name[n] = '\0';
        out->default_value = {p.default_value.r, p.default_value.g, p.default_value.b,
                              p.default_value.a};
        out->min = {p.min.r, p.min.g, p.min.b, p.min.a};
        out->max = {p.max.r, p.max.g, p.max.b, p.max.a};
        return SPINDRIFT_OK;
    });
}

SPINDRIFT_API spindrift_result spindrift_library_effect_diagnostics(
    spindrift_library library, spindrift_effect_id effect, spindrift_diagnostics* out_diagnostics) {
    return guarded(__func__, [&] {
        if (const spindrift_result r = requirePointer(out_diagnostics, "out_diagnostics");
            r != SPINDRIFT_OK)
            return r;
        out_diagnostics->id = 0;
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        EffectInfo info;
        if (const spindrift_result r = effectInfo(*lib, effect, info); r != SPINDRIFT_OK) return r;
        return makeDiagnostics(info.diagnostics, out_diagnostics);
    });
}

SPINDRIFT_API spindrift_result
spindrift_library_poll_changes(spindrift_library library, spindrift_reload_report* out,
                               spindrift_diagnostics* out_diagnostics) {
    return guarded(__func__, [&] {
        if (out_diagnostics != nullptr) out_diagnostics->id = 0;
        if (out != nullptr) {
            if (const spindrift_result r = requireStruct(out, "out"); r != SPINDRIFT_OK) return r;
        }
        LibraryObject* lib;
        if (const spindrift_result r = resolve(library.id, lib); r != SPINDRIFT_OK) return r;
        const ReloadReport report = lib->library.pollChanges();
        if (out != nullptr) {
            out->files_checked = report.files_checked;
            out->files_changed = report.files_changed;
            out->files_reloaded = report.files_reloaded;
            out->files_rejected = report.files_rejected;
        }
        return makeDiagnostics(report.diagnostics, out_diagnostics);
    });
}

} // extern "C"
