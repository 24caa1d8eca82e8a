// The layer rule of docs/architecture.md: the backends (src/cpu, src/gpu) and the driver below
// them (src/driver) never include the runtime above them (src/runtime), which drives them. The
// one exception is runtime/ribbon_polyline.h, the strip walk both backends share, which is due to
// move below them (issue 14).
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
                if (line == "#include \"runtime/ribbon_polyline.h\"") continue;
                ADD_FAILURE() << entry.path().string() << ": " << line;
            }
        }
    }
    EXPECT_GT(files, 10u);
}

} // namespace
} // namespace spindrift
