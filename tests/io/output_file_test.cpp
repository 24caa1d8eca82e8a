// Writing outputs safely (io/output_file.h): whole files or nothing, never onto an input, never
// onto a directory, a device, a FIFO or a socket, and no temporary file left behind.
#include <gtest/gtest.h>

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "io/output_file.h"

namespace fs = std::filesystem;

namespace spindrift {
namespace {

fs::path scratchDir(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("spindrift_output_file_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<uint8_t> bytesOf(const std::string& text) {
    return {text.begin(), text.end()};
}

// The names in dir, sorted: what a test expects to find after a write, temporaries included.
std::vector<std::string> namesIn(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

InputFiles inputsOf(std::vector<std::string> paths) {
    return resolveInputFiles(paths);
}

TEST(OutputFile, WritesANewFileAndLeavesNoTemporary) {
    const fs::path dir = scratchDir("new");
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(writeFileAtomically((dir / "a.bin").string(), bytesOf("hello"), diagnostics));
    EXPECT_TRUE(diagnostics.empty());
    EXPECT_EQ(readText(dir / "a.bin"), "hello");
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"a.bin"});
}

TEST(OutputFile, ReplacesAFileKeepingItsPermissions) {
    const fs::path dir = scratchDir("replace");
    const fs::path target = dir / "a.bin";
    std::ofstream(target) << "old contents, longer than the new ones";
    fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(writeFileAtomically(target.string(), bytesOf("new"), diagnostics));
    EXPECT_EQ(readText(target), "new");
    EXPECT_EQ(fs::status(target).permissions(),
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"a.bin"});
}

TEST(OutputFile, WritesThroughASymbolicLinkToARegularFile) {
    const fs::path dir = scratchDir("symlink");
    std::ofstream(dir / "real.bin") << "old";
    fs::create_symlink("real.bin", dir / "link.bin");
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(writeFileAtomically((dir / "link.bin").string(), bytesOf("new"), diagnostics));
    EXPECT_TRUE(fs::is_symlink(dir / "link.bin")) << "the link stays a link";
    EXPECT_EQ(readText(dir / "real.bin"), "new");
    EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"link.bin", "real.bin"}));
}

// A directory, a character device, a FIFO, a socket and a dangling link are refused by both the
// check and the write, with one error naming the path and what it is, and stay as they were.
TEST(OutputFile, RefusesEverythingThatIsNotARegularFileOrANewName) {
    const fs::path dir = scratchDir("special");
    fs::create_directories(dir / "folder");
    ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
    // A reader, so that a writer that opens the FIFO does not block: the test fails, not hangs.
    const int fifo_reader = ::open((dir / "fifo").c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(fifo_reader, 0);
    fs::create_symlink("missing", dir / "dangling");
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string socket_path = (dir / "socket").string();
    ASSERT_LT(socket_path.size(), sizeof address.sun_path);
    std::copy(socket_path.begin(), socket_path.end(), address.sun_path);
    ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);

    // A character device: a copy of /dev/null's node where we may make one (root), so that a
    // regression replaces the copy; /dev/null itself is only checked, never written.
    const fs::path device = dir / "null";
    const bool have_device = ::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    std::vector<std::pair<std::string, std::string>> cases = {
        {(dir / "folder").string(), "a directory"},
        {"/dev/null", "a character device"},
        {(dir / "fifo").string(), "a FIFO"},
        {socket_path, "a socket"},
        {(dir / "dangling").string(), "a symbolic link to a missing file"},
    };
    if (have_device) cases.push_back({device.string(), "a character device"});
    for (const auto& [path, kind] : cases) {
        std::vector<Diagnostic> check;
        EXPECT_FALSE(checkOutputKind(path, check)) << path;
        ASSERT_EQ(check.size(), 1u) << path;
        EXPECT_EQ(check[0].file, path);
        EXPECT_NE(check[0].message.find(kind), std::string::npos) << check[0].message;
        if (path == "/dev/null") continue;
        std::vector<Diagnostic> write;
        EXPECT_FALSE(writeFileAtomically(path, bytesOf("x"), write)) << path;
        EXPECT_EQ(write.size(), 1u) << path;
    }
    ::close(sock);
    char byte = 0;
    EXPECT_LE(::read(fifo_reader, &byte, 1), 0) << "nothing was written into the FIFO";
    ::close(fifo_reader);
    if (have_device) {
        EXPECT_TRUE(fs::is_character_file(device)) << "the device node stays";
        fs::remove(device);
    }
    EXPECT_TRUE(fs::is_directory(dir / "folder"));
    EXPECT_TRUE(fs::is_empty(dir / "folder"));
    EXPECT_TRUE(fs::is_fifo(dir / "fifo"));
    EXPECT_TRUE(fs::is_socket(dir / "socket"));
    EXPECT_TRUE(fs::is_symlink(dir / "dangling"));
    EXPECT_FALSE(fs::exists(dir / "missing"));
    EXPECT_EQ(namesIn(dir), (std::vector<std::string>{"dangling", "fifo", "folder", "socket"}));
}

TEST(OutputFile, RefusesAnOutputThatIsAnInputByPathOrIdentity) {
    const fs::path dir = scratchDir("inputs");
    fs::create_directories(dir / "sub");
    const fs::path input = dir / "effect.json";
    std::ofstream(input) << "{}";
    fs::create_symlink("effect.json", dir / "link.json");
    fs::create_hard_link(input, dir / "hard.json");
    fs::create_directory_symlink(dir, dir / "sub" / "up");
    const InputFiles inputs = inputsOf({(dir / "other.png").string(), input.string()});
    const std::string same[] = {
        input.string(),
        (dir / "." / "effect.json").string(),
        (dir / "sub" / ".." / "effect.json").string(),
        (dir / "sub" / "up" / "effect.json").string(),
        (dir / "link.json").string(),
        (dir / "hard.json").string(),
    };
    for (const std::string& output : same) {
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(checkOutputPath(output, inputs, diagnostics)) << output;
        ASSERT_EQ(diagnostics.size(), 1u) << output;
        EXPECT_EQ(diagnostics[0].file, output);
        EXPECT_NE(diagnostics[0].message.find(input.string()), std::string::npos)
            << diagnostics[0].message;
    }
    // A relative name resolves against the working directory.
    const fs::path cwd = fs::current_path();
    fs::current_path(dir);
    std::vector<Diagnostic> relative;
    EXPECT_FALSE(checkOutputPath("effect.json", inputs, relative));
    EXPECT_FALSE(checkOutputPath("./effect.json", inputs, relative));
    fs::current_path(cwd);
    EXPECT_EQ(relative.size(), 2u);

    // An input that does not exist (yet) is still an input, by its resolved path.
    std::vector<Diagnostic> missing;
    EXPECT_FALSE(checkOutputPath((dir / "sub" / ".." / "other.png").string(), inputs, missing));
    EXPECT_EQ(missing.size(), 1u);

    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(checkOutputPath((dir / "effect.sfx").string(), inputs, diagnostics));
    std::ofstream(dir / "old.sfx") << "x";
    EXPECT_TRUE(checkOutputPath((dir / "old.sfx").string(), inputs, diagnostics));
    EXPECT_TRUE(diagnostics.empty());
    EXPECT_EQ(readText(input), "{}");
}

TEST(OutputFile, DiscardingLeavesTheTargetAsItWasAndNoTemporary) {
    const fs::path dir = scratchDir("discard");
    std::ofstream(dir / "kept.png") << "old";
    std::vector<Diagnostic> diagnostics;
    {
        AtomicOutput output;
        ASSERT_TRUE(output.open((dir / "kept.png").string(), diagnostics, ".mp4"));
        // Beside the target, named after it, with the extension asked for.
        const fs::path temp(output.tempPath());
        EXPECT_EQ(temp.parent_path(), dir);
        EXPECT_EQ(temp.filename().string().rfind("kept.png.", 0), 0u) << temp;
        EXPECT_EQ(temp.extension(), ".mp4");
        EXPECT_TRUE(fs::exists(temp));
        ASSERT_TRUE(output.write(bytesOf("partial"), diagnostics));
    }
    {
        AtomicOutput output;
        ASSERT_TRUE(output.open((dir / "never.png").string(), diagnostics));
        ASSERT_TRUE(output.write(bytesOf("partial"), diagnostics));
        output.discard();
    }
    EXPECT_EQ(readText(dir / "kept.png"), "old");
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"kept.png"});
}

// A long render: the target checked at open can change before the rename.
TEST(OutputFile, CommitRefusesATargetThatBecameAFifo) {
    const fs::path dir = scratchDir("changed");
    std::vector<Diagnostic> diagnostics;
    AtomicOutput output;
    ASSERT_TRUE(output.open((dir / "out.png").string(), diagnostics));
    ASSERT_TRUE(output.write(bytesOf("data"), diagnostics));
    ASSERT_EQ(::mkfifo((dir / "out.png").c_str(), 0644), 0);
    EXPECT_FALSE(output.commit(diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("a FIFO"), std::string::npos);
    EXPECT_TRUE(fs::is_fifo(dir / "out.png"));
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"out.png"});
}

TEST(OutputFile, AMissingFolderIsAnErrorNamingTheOutput) {
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(writeFileAtomically("/nonexistent/spindrift/out.sfx", bytesOf("x"), diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, "/nonexistent/spindrift/out.sfx");
    EXPECT_NE(diagnostics[0].message.find("No such file or directory"), std::string::npos)
        << diagnostics[0].message;
}

// A real write error, as root too: a file size limit (RLIMIT_FSIZE) in a child process with
// SIGXFSZ ignored makes write() fail with EFBIG, as a full disk fails with ENOSPC.
TEST(OutputFile, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
    const fs::path dir = scratchDir("efbig");
    const fs::path target = dir / "frame.png";
    const std::string old(100, 'o');
    std::ofstream(target) << old;
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{1000, 1000};
        if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(3);
        std::vector<Diagnostic> diagnostics;
        const bool ok =
            writeFileAtomically(target.string(), std::vector<uint8_t>(5000, 'n'), diagnostics);
        const bool named = diagnostics.size() == 1 && diagnostics[0].file == target.string() &&
                           diagnostics[0].message.find("File too large") != std::string::npos;
        ::_exit(ok ? 0 : named ? 1 : 2);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1) << "0: the write succeeded; 2: the error was not reported";
    EXPECT_EQ(readText(target), old);
    EXPECT_EQ(namesIn(dir), std::vector<std::string>{"frame.png"});
}

} // namespace
} // namespace spindrift
