#include "viewer/file_watch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace spindrift::viewer {
namespace {

namespace fs = std::filesystem;

class FileWatchTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("spindrift_file_watch_" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        file_ = (dir_ / "effect.json").string();
        write("{}");
    }
    void TearDown() override { fs::remove_all(dir_); }
    void write(const char* text) {
        std::ofstream(file_, std::ios::binary | std::ios::trunc) << text;
    }
    fs::path dir_;
    std::string file_;
};

TEST_F(FileWatchTest, QuietWhileNothingChanges) {
    FileWatch watch;
    watch.watch({file_});
    EXPECT_FALSE(watch.poll());
    EXPECT_FALSE(watch.poll());
}

TEST_F(FileWatchTest, NoticesANewSizeOnceItHasSettled) {
    FileWatch watch;
    watch.watch({file_});
    write("{\"emitters\": []}");
    EXPECT_FALSE(watch.poll()); // still being written, perhaps
    EXPECT_TRUE(watch.poll());
    EXPECT_FALSE(watch.poll());
}

TEST_F(FileWatchTest, WaitsWhileTheFileKeepsChanging) {
    FileWatch watch;
    watch.watch({file_});
    write("{");
    EXPECT_FALSE(watch.poll());
    write("{\"emitters\"");
    EXPECT_FALSE(watch.poll());
    write("{\"emitters\": []}");
    EXPECT_FALSE(watch.poll());
    EXPECT_TRUE(watch.poll());
}

TEST_F(FileWatchTest, NoticesANewTimeWithTheSameSize) {
    FileWatch watch;
    watch.watch({file_});
    write("[]");
    fs::last_write_time(file_, fs::last_write_time(file_) + std::chrono::seconds(2));
    EXPECT_FALSE(watch.poll());
    EXPECT_TRUE(watch.poll());
}

TEST_F(FileWatchTest, NoticesRemovalAndReturn) {
    FileWatch watch;
    watch.watch({file_});
    fs::remove(file_);
    EXPECT_FALSE(watch.poll());
    EXPECT_TRUE(watch.poll());
    write("{}");
    EXPECT_FALSE(watch.poll());
    EXPECT_TRUE(watch.poll());
}

} // namespace
} // namespace spindrift::viewer
