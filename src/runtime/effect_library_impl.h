// The effect library's inside (include/spindrift/runtime.h, EffectLibrary): one entry per file,
// its current compiled effect shared by every instance, a version bumped on each successful
// reload, and the file stamp the reload check compares. The world reads entries through this
// header; nothing else does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/runtime.h"

namespace spindrift {

// What a file was when it was compiled: a reload check compares time and size first and reads
// the bytes only when one of them moved (an editor that rewrites the same bytes reloads nothing).
struct FileStamp {
    int64_t modified_ns = 0;
    uint64_t size_bytes = 0;
    uint64_t content_hash = 0;
    bool exists = false;
    // The file was modified within kRacyStampSeconds of when the stamp was taken: a rewrite in the
    // same timestamp tick, with the same size, would look unchanged, so the bytes are compared on
    // every check until the stamp is older (git's "racy clean" rule).
    bool racy = false;
};

inline constexpr double kRacyStampSeconds = 2.0;

struct LibraryEntry {
    std::string path;
    std::shared_ptr<const CompiledEffect> effect; // current version; null until compiled
    uint32_t version = 0;                         // 0: never compiled successfully
    bool attempted = false;                       // a compile was tried (lazy compile once)
    bool failed = false;                          // the last attempt failed
    std::vector<Diagnostic> diagnostics;          // of the last attempt
    std::vector<std::string> emitter_names;       // of the current version
    FileStamp stamp;                              // of the file the current version came from
    // An effect held in memory (EffectLibrary::addText): compiled from `text`, never read from
    // disk; its stamp's content_hash is the hash of the text the current version came from.
    bool in_memory = false;
    std::string text;
};

// Hidden: a member class takes its visibility from EffectLibrary (SPINDRIFT_API), and these
// functions are the library's own, not its API (tests/package/exported_symbols_test.py).
struct __attribute__((visibility("hidden"))) EffectLibrary::Impl {
    std::vector<LibraryEntry> entries; // EffectId value - 1
    std::unordered_map<std::string, uint32_t> by_path;

    LibraryEntry* entry(EffectId id);
    const LibraryEntry* entry(EffectId id) const;
    // Compiles the entry if no compile was attempted yet. none, unknown_effect or effect_failed
    // (an entry whose first compile failed stays failed until a reload succeeds).
    RuntimeError ensureCompiled(EffectId id);
};

// Emitter e's name in a compiled effect.
std::string emitterName(const CompiledEffect& effect, uint32_t e);

} // namespace spindrift
