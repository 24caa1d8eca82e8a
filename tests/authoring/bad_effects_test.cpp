// The bad-effect corpus: tests/data/bad_effects/ holds one file per mistake, and expected.txt
// one line per file (the format of tests/support/bad_corpus.h). Each file must give exactly one
// error through loadEffectFile, that one.
//
// Two files are generated: too_many_emitters.json (65 emitters "e0".."e64", capacity 100000)
// and deeply_nested_arrays.json (10000 '[' and nothing else, e.g. `printf '[%.0s' {1..10000}`).
// The other too_many_*.json hold one element past their list's limit, written out by hand or by
// a loop. Lists of millions of elements, which no file here should hold, are generated in memory
// by effect_limits_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "spindrift/effect_json.h"
#include "support/bad_corpus.h"

namespace spindrift {
namespace {

const std::filesystem::path kDir =
    std::filesystem::path(SPINDRIFT_SOURCE_DIR) / "tests/data/bad_effects";

TEST(BadEffects, CorpusHasAtLeastThirtyDifferentFiles) {
    test::expectCorpusSize(kDir, 30);
}

TEST(BadEffects, EveryFileInTheDirectoryIsListedAndEveryListedFileExists) {
    test::expectCorpusListsEveryFile(kDir);
}

TEST(BadEffects, EachFileGivesExactlyTheOneExpectedError) {
    test::expectEachFileGivesItsOneError(
        kDir, [](const std::string& path, std::vector<Diagnostic>& diagnostics) {
            EffectDesc effect;
            return loadEffectFile(path, effect, diagnostics);
        });
}

} // namespace
} // namespace spindrift
