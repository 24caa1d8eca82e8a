// The bad-scene corpus: tests/data/bad_scenes/ holds one file per mistake, and expected.txt one
// line per file (the format of tests/support/bad_corpus.h, shared with tests/data/bad_effects/).
// Each file must give exactly one error through loadSceneFile, that one.
//
// too_many_primitives.json is generated: 65 boxes with centers [i, 0.5, 0], i = 0..64, on one
// line (python3: json.dumps). So are too_many_effects.json (65 campfire instances at [i, 0, 0],
// one a line) and too_many_path_keys.json (1025 keys [i, i, 0, 0] on one line). The lists a file
// of this size cannot exceed (millions of elements) are generated in memory by
// scene_reader_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "spindrift/scene_json.h"
#include "support/bad_corpus.h"

namespace spindrift {
namespace {

const std::filesystem::path kDir =
    std::filesystem::path(SPINDRIFT_SOURCE_DIR) / "tests/data/bad_scenes";

TEST(BadScenes, CorpusHasAtLeastTwelveDifferentFiles) {
    test::expectCorpusSize(kDir, 12);
}

TEST(BadScenes, EveryFileInTheDirectoryIsListedAndEveryListedFileExists) {
    test::expectCorpusListsEveryFile(kDir);
}

TEST(BadScenes, EachFileGivesExactlyTheOneExpectedError) {
    test::expectEachFileGivesItsOneError(
        kDir, [](const std::string& path, std::vector<Diagnostic>& diagnostics) {
            SceneDesc scene;
            return loadSceneFile(path, scene, diagnostics);
        });
}

} // namespace
} // namespace spindrift
