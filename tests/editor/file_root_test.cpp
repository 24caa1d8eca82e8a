#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "editor/file_root.h"

namespace spindrift::editor {
namespace {

namespace fs = std::filesystem;

// A folder to edit (root/) beside a folder that must stay out of reach (outside/).
class FileRootTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "editor-root-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        base_ = pattern;
        fs::create_directories(base_ / "root" / "sub");
        fs::create_directories(base_ / "outside");
        write(base_ / "root" / "a.json", "{}");
        write(base_ / "root" / "sub" / "b.json", "{}");
        write(base_ / "outside" / "secret.json", "{\"secret\": 1}");
        std::string error;
        ASSERT_TRUE(root_.open((base_ / "root").string(), error)) << error;
    }
    void TearDown() override { fs::remove_all(base_); }
    static void write(const fs::path& p, const std::string& text) {
        std::ofstream(p, std::ios::binary) << text;
    }
    std::string refusal(const std::string& relative) {
        fs::path out;
        std::string error;
        EXPECT_FALSE(root_.resolve(relative, out, error)) << relative;
        return error;
    }
    fs::path base_;
    FileRoot root_;
};

TEST_F(FileRootTest, ResolvesFilesInsideTheFolder) {
    fs::path out;
    std::string error;
    ASSERT_TRUE(root_.resolve("sub/b.json", out, error)) << error;
    EXPECT_EQ(out, fs::canonical(base_ / "root" / "sub" / "b.json"));
    ASSERT_TRUE(root_.resolve("new.json", out, error)) << error; // not there yet: allowed
    ASSERT_TRUE(root_.resolve("./sub/./b.json", out, error)) << error;
}

TEST_F(FileRootTest, RefusesDotDotAbsoluteAndOtherKinds) {
    EXPECT_NE(refusal("../outside/secret.json").find(".."), std::string::npos);
    EXPECT_NE(refusal("sub/../../outside/secret.json").find(".."), std::string::npos);
    EXPECT_NE(refusal((base_ / "outside" / "secret.json").string()).find("absolute"),
              std::string::npos);
    EXPECT_NE(refusal("/etc/passwd.json").find("absolute"), std::string::npos);
    EXPECT_NE(refusal("a.txt").find(".json"), std::string::npos);
    EXPECT_NE(refusal("").find("no file"), std::string::npos);
    EXPECT_FALSE(refusal(std::string("a\0.json", 7)).empty());
    EXPECT_FALSE(refusal("sub\\..\\..\\x.json").empty());
}

TEST_F(FileRootTest, RefusesSymbolicLinksThatLeadOut) {
    fs::create_directory_symlink(base_ / "outside", base_ / "root" / "linkdir");
    fs::create_symlink(base_ / "outside" / "secret.json", base_ / "root" / "evil.json");
    EXPECT_NE(refusal("linkdir/secret.json").find("symbolic link"), std::string::npos);
    EXPECT_NE(refusal("evil.json").find("symbolic link"), std::string::npos);
    std::string text, error;
    int64_t modified = 0;
    EXPECT_FALSE(root_.read("evil.json", text, modified, error));
    EXPECT_TRUE(text.empty());
    EXPECT_FALSE(root_.write("linkdir/new.json", "{}", false, modified, error));
    EXPECT_FALSE(root_.write("evil.json", "{}", false, modified, error));
    EXPECT_FALSE(fs::exists(base_ / "outside" / "new.json"));
    std::ifstream in(base_ / "outside" / "secret.json");
    std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(kept, "{\"secret\": 1}");
    // Nor does the listing show them.
    for (const FileEntry& f : root_.list()) {
        EXPECT_NE(f.path, "evil.json");
        EXPECT_EQ(f.path.find("linkdir"), std::string::npos);
    }
}

TEST_F(FileRootTest, FollowsSymbolicLinksThatStayInside) {
    fs::create_symlink(base_ / "root" / "a.json", base_ / "root" / "alias.json");
    fs::path out;
    std::string error;
    ASSERT_TRUE(root_.resolve("alias.json", out, error)) << error;
    EXPECT_EQ(out, fs::canonical(base_ / "root" / "a.json"));
}

TEST_F(FileRootTest, ListsTheEffectFilesSorted) {
    write(base_ / "root" / "notes.txt", "x");
    std::vector<std::string> paths;
    for (const FileEntry& f : root_.list()) paths.push_back(f.path);
    EXPECT_EQ(paths, (std::vector<std::string>{"a.json", "sub/b.json"}));
}

TEST_F(FileRootTest, WritesAtomicallyAndLeavesNoTemporaryFile) {
    std::string error, text;
    int64_t modified = 0;
    ASSERT_TRUE(root_.write("a.json", "{\"version\": 1}\n", false, modified, error)) << error;
    ASSERT_TRUE(root_.read("a.json", text, modified, error)) << error;
    EXPECT_EQ(text, "{\"version\": 1}\n");
    EXPECT_GT(modified, 0);
    ASSERT_TRUE(root_.write("sub/c.json", "{}", true, modified, error)) << error;
    // create_only refuses an existing file and leaves it as it was.
    EXPECT_FALSE(root_.write("a.json", "{}", true, modified, error));
    EXPECT_NE(error.find("exists"), std::string::npos);
    ASSERT_TRUE(root_.read("a.json", text, modified, error));
    EXPECT_EQ(text, "{\"version\": 1}\n");
    // A target that cannot be replaced (a folder named like a file) fails whole: nothing left.
    fs::create_directory(base_ / "root" / "dir.json");
    EXPECT_FALSE(root_.write("dir.json", "{}", false, modified, error));
    EXPECT_TRUE(fs::is_directory(base_ / "root" / "dir.json"));
    for (const auto& entry : fs::recursive_directory_iterator(base_ / "root"))
        EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
}

TEST_F(FileRootTest, StatsAFileThatMayNotExist) {
    bool exists = true;
    int64_t modified = 0;
    std::string error;
    ASSERT_TRUE(root_.stat("missing.json", exists, modified, error));
    EXPECT_FALSE(exists);
    ASSERT_TRUE(root_.stat("a.json", exists, modified, error));
    EXPECT_TRUE(exists);
    EXPECT_FALSE(root_.stat("../outside/secret.json", exists, modified, error));
}

} // namespace
} // namespace spindrift::editor
