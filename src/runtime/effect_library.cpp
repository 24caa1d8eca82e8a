// The effect library (include/spindrift/runtime.h): files registered by path, compiled on first
// use through loadCompiledEffect (the one reader every host uses), shared by every instance, and
// reloaded when their file changes. A reload that fails keeps the previous version: a host
// editing an effect never loses the running one to a typo.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "compiler/structural_hash.h"
#include "cook/effect_assets.h"
#include "cook/effect_file.h"
#include "runtime/effect_library_impl.h"

namespace spindrift {

namespace {

namespace fs = std::filesystem;

// Time and size of the file (no bytes read); exists false when it cannot be examined.
FileStamp statFile(const std::string& path) {
    FileStamp stamp;
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec) return stamp;
    const auto modified = fs::last_write_time(path, ec);
    if (ec) return stamp;
    stamp.exists = true;
    stamp.size_bytes = size;
    const auto age = fs::file_time_type::clock::now() - modified;
    stamp.racy = age < std::chrono::duration_cast<fs::file_time_type::duration>(
                           std::chrono::duration<double>(kRacyStampSeconds));
    stamp.modified_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(modified.time_since_epoch()).count();
    return stamp;
}

// The bytes' hash; 0 (with exists false) when the file cannot be read. Effect files are small
// (cooked ones are refused past kMaxCookedEffectBytes before this matters).
bool hashContents(const std::string& path, FileStamp& stamp) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    stamp.content_hash = fnv1a64(bytes.data(), bytes.size());
    return true;
}

// Loads and compiles entry's file; on success it becomes the entry's current version. On failure
// the entry keeps what it had (its previous version, or none).
bool compileEntry(LibraryEntry& entry) {
    FileStamp stamp;
    if (entry.in_memory) {
        stamp.exists = true;
        stamp.size_bytes = entry.text.size();
        stamp.content_hash = fnv1a64(entry.text.data(), entry.text.size());
    } else {
        stamp = statFile(entry.path);
        if (stamp.exists) hashContents(entry.path, stamp);
    }
    auto effect = std::make_shared<CompiledEffect>();
    std::vector<Diagnostic> diagnostics;
    const bool ok = entry.in_memory
                        ? compileEffectText(entry.text, entry.path, *effect, diagnostics)
                        : loadCompiledEffect(entry.path, *effect, diagnostics);
    entry.attempted = true;
    entry.failed = !ok;
    entry.diagnostics = std::move(diagnostics);
    if (!ok) return false;
    entry.effect = std::move(effect);
    entry.version += 1;
    entry.stamp = stamp;
    entry.emitter_names.clear();
    for (uint32_t e = 0; e < entry.effect->emitters.size(); ++e)
        entry.emitter_names.push_back(emitterName(*entry.effect, e));
    return true;
}

void reloadInto(LibraryEntry& entry, EffectId id, ReloadReport& report) {
    if (compileEntry(entry)) {
        report.files_reloaded += 1;
        report.reloaded.push_back(id);
        for (const Diagnostic& d : entry.diagnostics) report.diagnostics.push_back(d);
    } else {
        report.files_rejected += 1;
        report.rejected.push_back(id);
        for (const Diagnostic& d : entry.diagnostics) report.diagnostics.push_back(d);
    }
}

} // namespace

std::string emitterName(const CompiledEffect& effect, uint32_t e) {
    const EmitterRecord& r = effect.emitters[e];
    return std::string(stringAt(effect, r.name_offset, r.name_length));
}

LibraryEntry* EffectLibrary::Impl::entry(EffectId id) {
    if (id.value == 0 || id.value > entries.size()) return nullptr;
    return &entries[id.value - 1];
}

const LibraryEntry* EffectLibrary::Impl::entry(EffectId id) const {
    if (id.value == 0 || id.value > entries.size()) return nullptr;
    return &entries[id.value - 1];
}

RuntimeError EffectLibrary::Impl::ensureCompiled(EffectId id) {
    LibraryEntry* e = entry(id);
    if (e == nullptr) return RuntimeError::unknown_effect;
    if (!e->attempted) compileEntry(*e);
    return e->effect ? RuntimeError::none : RuntimeError::effect_failed;
}

EffectLibrary::EffectLibrary() : impl_(std::make_unique<Impl>()) {}
EffectLibrary::~EffectLibrary() = default;

EffectId EffectLibrary::add(std::string_view path) {
    if (path.empty()) return {};
    const std::string key(path);
    if (auto it = impl_->by_path.find(key); it != impl_->by_path.end()) return {it->second};
    LibraryEntry entry;
    entry.path = key;
    impl_->entries.push_back(std::move(entry));
    const auto value = static_cast<uint32_t>(impl_->entries.size());
    impl_->by_path.emplace(key, value);
    return {value};
}

EffectId EffectLibrary::addText(std::string_view name, std::string_view json_text) {
    if (name.empty()) return {};
    const std::string key(name);
    if (auto it = impl_->by_path.find(key); it != impl_->by_path.end()) {
        LibraryEntry& entry = impl_->entries[it->second - 1];
        if (!entry.in_memory) return {};
        entry.text.assign(json_text); // pollChanges compares its hash with the compiled one's
        return {it->second};
    }
    LibraryEntry entry;
    entry.path = key;
    entry.in_memory = true;
    entry.text.assign(json_text);
    impl_->entries.push_back(std::move(entry));
    const auto value = static_cast<uint32_t>(impl_->entries.size());
    impl_->by_path.emplace(key, value);
    return {value};
}

EffectId EffectLibrary::find(std::string_view path) const {
    const auto it = impl_->by_path.find(std::string(path));
    return it == impl_->by_path.end() ? EffectId{} : EffectId{it->second};
}

RuntimeError EffectLibrary::compile(EffectId id) {
    return impl_->ensureCompiled(id);
}

ReloadReport EffectLibrary::pollChanges() {
    ReloadReport report;
    for (uint32_t i = 0; i < impl_->entries.size(); ++i) {
        LibraryEntry& entry = impl_->entries[i];
        if (!entry.attempted) continue; // compiled lazily, from whatever the file is then
        report.files_checked += 1;
        if (entry.in_memory) {
            const uint64_t hash = fnv1a64(entry.text.data(), entry.text.size());
            if (hash == entry.stamp.content_hash) continue;
            report.files_changed += 1;
            reloadInto(entry, {i + 1}, report);
            // A rejected text is not retried every poll: only when it changes again.
            if (entry.failed) entry.stamp.content_hash = hash;
            continue;
        }
        FileStamp now = statFile(entry.path);
        const FileStamp& was = entry.stamp;
        if (now.exists == was.exists && now.modified_ns == was.modified_ns &&
            now.size_bytes == was.size_bytes && !was.racy) {
            continue;
        }
        if (now.exists && hashContents(entry.path, now) && was.exists &&
            now.content_hash == was.content_hash) {
            entry.stamp = now; // touched, not changed
            continue;
        }
        report.files_changed += 1;
        reloadInto(entry, {i + 1}, report);
        // A rejected file is not retried every poll: only when it changes again.
        if (entry.failed) entry.stamp = now;
    }
    return report;
}

ReloadReport EffectLibrary::reload(EffectId id) {
    ReloadReport report;
    LibraryEntry* entry = impl_->entry(id);
    if (entry == nullptr) return report;
    report.files_checked = 1;
    report.files_changed = 1;
    reloadInto(*entry, id, report);
    return report;
}

bool EffectLibrary::info(EffectId id, EffectInfo& out) const {
    const LibraryEntry* entry = impl_->entry(id);
    if (entry == nullptr) return false;
    out.path = entry->path;
    out.compiled = entry->effect != nullptr;
    out.failed = entry->failed;
    out.version = entry->version;
    out.emitters = entry->emitter_names;
    out.diagnostics = entry->diagnostics;
    // Each emitter's texture and mesh as the renderer opens them (draw-list batches name their
    // emitter; a host loads these).
    const size_t emitters = entry->emitter_names.size();
    out.textures.assign(emitters, std::string());
    out.meshes.assign(emitters, std::string());
    if (entry->effect) {
        for (const EffectAsset& asset : effectAssets(*entry->effect, entry->path)) {
            std::vector<std::string>& slot =
                asset.kind == EffectAssetKind::texture ? out.textures : out.meshes;
            slot[asset.emitter_index] = asset.path;
        }
    }
    out.parameters.clear();
    if (entry->effect != nullptr) {
        const CompiledEffect& e = *entry->effect;
        for (const ParameterRecord& p : e.parameters) {
            ParameterInfo info;
            info.name = std::string(stringAt(e, p.name_offset, p.name_length));
            info.kind = static_cast<ParameterKind>(p.type);
            info.default_value = {p.default_value.x, p.default_value.y, p.default_value.z,
                                  p.default_value.w};
            info.min = {p.min.x, p.min.y, p.min.z, p.min.w};
            info.max = {p.max.x, p.max.y, p.max.z, p.max.w};
            out.parameters.push_back(std::move(info));
        }
    }
    return true;
}

} // namespace spindrift
