// The bad-input corpus checks shared by the effect and scene tests. A corpus is a directory
// (tests/data/bad_effects/, tests/data/bad_scenes/) holding one file per mistake and expected.txt,
// one line per file:
//     <file>|<line>:<col>|<path>|<substring of the message>
// with '-' where the mistake has no position or path. Each file must give exactly one error,
// that one. The checks report through GoogleTest (EXPECT/ASSERT), so call them from a TEST.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "spindrift/diagnostic.h"

namespace spindrift::test {

struct BadFileExpectation {
    std::string file, position, path, message;
};

// The lines of dir/expected.txt, blank lines skipped. A missing file, or a line without its four
// fields or with an empty message, is a test failure.
std::vector<BadFileExpectation> readBadCorpus(const std::filesystem::path& dir);

// At least min_files lines, and no file listed twice.
void expectCorpusSize(const std::filesystem::path& dir, size_t min_files);

// The files listed are exactly the files in dir (expected.txt aside).
void expectCorpusListsEveryFile(const std::filesystem::path& dir);

// Loads a document file, appending its diagnostics; false when it has an error.
using LoadDocumentFile =
    std::function<bool(const std::string& path, std::vector<Diagnostic>& diagnostics)>;

// Each listed file fails to load with exactly one error, in that file, at the listed position
// and path, its message containing the listed text. Warnings are allowed.
void expectEachFileGivesItsOneError(const std::filesystem::path& dir, const LoadDocumentFile& load);

} // namespace spindrift::test
