// A fresh directory for a test's files, shared by the tests that write files (scene player, video
// writer).
#pragma once

#include <filesystem>
#include <string>

namespace spindrift::test {

// spindrift_<suite>_test_<name> under the system's temporary directory, emptied: what an earlier
// run left there is removed.
inline std::filesystem::path scratchDir(const std::string& suite, const std::string& name) {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("spindrift_" + suite + "_test_" + name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

} // namespace spindrift::test
