// libFuzzer target for the cooked-file loader. Any bytes must give either an effect or exactly
// one error diagnostic, never a crash or an out-of-bounds read. A file that loads must cook back
// to exactly the same bytes (the loader accepts only the writer's canonical layout, so nothing
// in a valid file escapes validation).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "cook/sfx_format.h"
#include "cook/sfx_reader.h"
#include "cook/sfx_writer.h"

namespace {

void check(bool condition) {
    if (!condition) std::abort();
}

// Loads bytes; if they load, cooking the effect again must reproduce them exactly.
void loadAndRecook(std::span<const uint8_t> bytes) {
    std::vector<spindrift::Diagnostic> diagnostics;
    spindrift::CompiledEffect effect;
    if (!spindrift::loadCookedEffect(bytes, "fuzz.sfx", effect, diagnostics)) {
        check(diagnostics.size() == 1);
        check(diagnostics[0].severity == spindrift::Severity::error);
        check(!diagnostics[0].message.empty());
        check(effect.emitters.empty());
        return;
    }
    check(diagnostics.empty());
    const std::vector<uint8_t> again = spindrift::cookEffect(effect);
    check(again.size() == bytes.size() &&
          std::memcmp(again.data(), bytes.data(), bytes.size()) == 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    loadAndRecook(std::span<const uint8_t>(data, size));
    // The checksum stops almost every mutation at the header. Loading a copy with file_size and
    // checksum fixed up lets mutations reach the section table and record checks.
    if (size >= sizeof(spindrift::SfxHeader)) {
        std::vector<uint8_t> sealed(data, data + size);
        const uint64_t file_size = size;
        std::memcpy(sealed.data() + offsetof(spindrift::SfxHeader, file_size), &file_size, 8);
        const uint64_t checksum = spindrift::sfxChecksum(sealed);
        std::memcpy(sealed.data() + offsetof(spindrift::SfxHeader, checksum), &checksum, 8);
        loadAndRecook(sealed);
    }
    return 0;
}
