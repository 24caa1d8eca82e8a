// libFuzzer target for the effect reader: any bytes give diagnostics or a valid effect, never a
// crash, a hang or a sanitizer report; and an effect that loads survives save -> load unchanged
// (the canonical writer and the reader agree). Seed corpus: fuzz/corpus/effect_json/.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "spindrift/effect_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace spindrift;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    const bool ok = loadEffect(text, "fuzz.json", effect, diagnostics);
    if (ok == hasErrors(diagnostics)) {
        std::fprintf(stderr, "loadEffect returned %d with %zu diagnostics\n", ok,
                     diagnostics.size());
        std::abort();
    }
    if (!ok) return 0;

    std::vector<Diagnostic> rules;
    if (!validateEffect(effect, rules)) {
        std::fprintf(stderr, "a loaded effect fails validateEffect: %s\n",
                     formatDiagnostic(rules.front()).c_str());
        std::abort();
    }
    const std::string saved = saveEffect(effect);
    EffectDesc reloaded;
    std::vector<Diagnostic> reload_diagnostics;
    if (!loadEffect(saved, "saved.json", reloaded, reload_diagnostics)) {
        std::fprintf(stderr, "the saved text does not load: %s\n--- text:\n%s\n",
                     formatDiagnostic(reload_diagnostics.front()).c_str(), saved.c_str());
        std::abort();
    }
    if (!(reloaded == effect)) {
        std::fprintf(stderr, "save -> load changed the effect\n--- text:\n%s\n", saved.c_str());
        std::abort();
    }
    if (saveEffect(reloaded) != saved) {
        std::fprintf(stderr, "the canonical text is not reproduced\n");
        std::abort();
    }
    return 0;
}
