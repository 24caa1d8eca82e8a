// The layer rule of docs/architecture.md: the backends (src/cpu, src/gpu) and the driver below
// them (src/driver) never include the runtime above them (src/runtime), which drives them; and
// src/kernels, the maths both backends share, includes nothing but its own headers (and standard
// C++ headers), so no layer above it leaks into a kernel.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace spindrift {
namespace {

namespace fs = std::filesystem;

TEST(Layering, BackendsAndTheDriverDoNotIncludeTheRuntime) {
    const fs::path src = fs::path(SPINDRIFT_SOURCE_DIR) / "src";
    size_t files = 0;
    for (const char* folder : {"cpu", "gpu", "driver"}) {
        for (const fs::directory_entry& entry : fs::recursive_directory_iterator(src / folder)) {
            if (!entry.is_regular_file()) continue;
            std::ifstream in(entry.path());
            std::string line;
            ++files;
            while (std::getline(in, line)) {
                if (line.rfind("#include \"runtime/", 0) != 0) continue;
                ADD_FAILURE() << entry.path().string() << ": " << line;
            }
        }
    }
    EXPECT_GT(files, 10u);
}

TEST(Layering, KernelsIncludeOnlyKernels) {
    const fs::path kernels = fs::path(SPINDRIFT_SOURCE_DIR) / "src" / "kernels";
    size_t files = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(kernels)) {
        if (!entry.is_regular_file()) continue;
        std::ifstream in(entry.path());
        std::string line;
        ++files;
        while (std::getline(in, line)) {
            if (line.rfind("#include \"", 0) != 0) continue;
            const std::string name = line.substr(10, line.find('"', 10) - 10);
            if (name.find('/') == std::string::npos && fs::exists(kernels / name)) continue;
            ADD_FAILURE() << entry.path().string() << ": " << line;
        }
    }
    EXPECT_GT(files, 10u);
}

} // namespace
} // namespace spindrift
