// The bad-scene corpus: tests/data/bad_scenes/ holds one file per mistake, and expected.txt one
// line per file: <file>|<line>:<col>|<path>|<substring of the message> ('-' where the mistake
// has no position or path), the format of tests/data/bad_effects/expected.txt. Each file must
// give exactly one error through loadSceneFile, that one.
//
// too_many_primitives.json is generated: 65 boxes with centers [i, 0.5, 0], i = 0..64, on one
// line (python3: json.dumps).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "scene/scene_test_util.h"
#include "spindrift/scene_json.h"

namespace spindrift {
namespace {

const std::filesystem::path kDir =
    std::filesystem::path(SPINDRIFT_SOURCE_DIR) / "tests/data/bad_scenes";

struct Expectation {
    std::string file, position, path, message;
};

std::vector<Expectation> readExpectations() {
    std::ifstream in(kDir / "expected.txt");
    std::vector<Expectation> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        Expectation e;
        std::istringstream fields(line);
        std::getline(fields, e.file, '|');
        std::getline(fields, e.position, '|');
        std::getline(fields, e.path, '|');
        std::getline(fields, e.message);
        out.push_back(e);
    }
    return out;
}

TEST(BadScenes, CorpusHasAtLeastTwelveDifferentFiles) {
    const auto expectations = readExpectations();
    std::set<std::string> names;
    for (const auto& e : expectations) names.insert(e.file);
    EXPECT_GE(expectations.size(), 12u);
    EXPECT_EQ(names.size(), expectations.size()) << "a file is listed twice";
}

TEST(BadScenes, EveryFileInTheDirectoryIsListedAndEveryListedFileExists) {
    std::set<std::string> listed;
    for (const auto& e : readExpectations()) listed.insert(e.file);
    std::set<std::string> present;
    for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
        const std::string name = entry.path().filename().string();
        if (name != "expected.txt") present.insert(name);
    }
    EXPECT_EQ(listed, present);
}

TEST(BadScenes, EachFileGivesExactlyTheOneExpectedError) {
    for (const Expectation& expected : readExpectations()) {
        SCOPED_TRACE(expected.file);
        const std::string file = (kDir / expected.file).string();
        SceneDesc scene;
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(loadSceneFile(file, scene, diagnostics));
        std::vector<Diagnostic> errors;
        std::copy_if(diagnostics.begin(), diagnostics.end(), std::back_inserter(errors),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
        ASSERT_EQ(errors.size(), 1u) << dump(errors);
        const Diagnostic& d = errors[0];
        EXPECT_EQ(d.file, file);
        const std::string position =
            d.line == 0 ? "-" : std::to_string(d.line) + ":" + std::to_string(d.column);
        EXPECT_EQ(position, expected.position);
        EXPECT_EQ(d.path.empty() ? "-" : d.path, expected.path);
        EXPECT_NE(d.message.find(expected.message), std::string::npos)
            << "message: " << d.message << "\nexpected to contain: " << expected.message;
    }
}

} // namespace
} // namespace spindrift
