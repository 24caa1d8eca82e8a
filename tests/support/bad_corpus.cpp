#include "support/bad_corpus.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

namespace spindrift::test {

namespace {

std::set<std::string> listedFiles(const std::vector<BadFileExpectation>& expectations) {
    std::set<std::string> names;
    for (const BadFileExpectation& e : expectations) names.insert(e.file);
    return names;
}

std::string formatAll(const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (const Diagnostic& d : diagnostics) all += formatDiagnostic(d) + "\n";
    return all;
}

} // namespace

std::vector<BadFileExpectation> readBadCorpus(const std::filesystem::path& dir) {
    std::ifstream in(dir / "expected.txt");
    EXPECT_TRUE(in.is_open()) << "cannot read " << (dir / "expected.txt").string();
    std::vector<BadFileExpectation> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        BadFileExpectation e;
        std::istringstream fields(line);
        std::getline(fields, e.file, '|');
        std::getline(fields, e.position, '|');
        std::getline(fields, e.path, '|');
        std::getline(fields, e.message); // the rest of the line: it may hold '|' itself
        // Fewer than four fields leave the message empty, and an empty one would match any.
        EXPECT_FALSE(e.message.empty())
            << "expected <file>|<line>:<col>|<path>|<message>, found: " << line;
        out.push_back(e);
    }
    return out;
}

void expectCorpusSize(const std::filesystem::path& dir, size_t min_files) {
    const std::vector<BadFileExpectation> expectations = readBadCorpus(dir);
    EXPECT_GE(expectations.size(), min_files);
    EXPECT_EQ(listedFiles(expectations).size(), expectations.size()) << "a file is listed twice";
}

void expectCorpusListsEveryFile(const std::filesystem::path& dir) {
    std::set<std::string> present;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name != "expected.txt") present.insert(name);
    }
    EXPECT_EQ(listedFiles(readBadCorpus(dir)), present);
}

void expectEachFileGivesItsOneError(const std::filesystem::path& dir,
                                    const LoadDocumentFile& load) {
    for (const BadFileExpectation& expected : readBadCorpus(dir)) {
        SCOPED_TRACE(expected.file);
        const std::string file = (dir / expected.file).string();
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(load(file, diagnostics));
        std::vector<Diagnostic> errors;
        std::copy_if(diagnostics.begin(), diagnostics.end(), std::back_inserter(errors),
                     [](const Diagnostic& d) { return d.severity == Severity::error; });
        ASSERT_EQ(errors.size(), 1u) << formatAll(errors);
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

} // namespace spindrift::test
