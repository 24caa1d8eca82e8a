// `spindrift edit` as a user runs it: what it refuses before serving, and that it stops cleanly.
#include <gtest/gtest.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "editor/editor_server.h"

namespace spindrift::editor {
namespace {

namespace fs = std::filesystem;

struct RunResult {
    int exit_code = -1;
    std::string output;
};

RunResult runCli(const std::string& args) {
    const std::string command = std::string(SPINDRIFT_CLI) + " " + args + " 2>&1";
    RunResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    std::array<char, 4096> buffer{};
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        result.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

TEST(EditCommand, RefusesAMissingInputAFileThatIsNotAnEffectAndABadPort) {
    RunResult r = runCli("edit /nonexistent/folder/for/spindrift");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.output.find("no such file or folder"), std::string::npos) << r.output;
    const fs::path dir = fs::temp_directory_path() / "spindrift_edit_command_test";
    fs::create_directories(dir);
    std::ofstream(dir / "notes.txt") << "x";
    r = runCli("edit " + (dir / "notes.txt").string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.output.find(".json"), std::string::npos) << r.output;
    r = runCli("edit " + dir.string() + " --port 70000");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.output.find("--port"), std::string::npos) << r.output;
    fs::remove_all(dir);
}

TEST(EditCommand, RefusesAPortInUse) {
    ServerConfig config;
    config.folder = fs::temp_directory_path().string();
    std::string error;
    std::unique_ptr<EditorServer> server = EditorServer::create(config, error);
    ASSERT_NE(server, nullptr) << error;
    std::thread serving([&server] { server->run(); }); // a listening socket: the port is taken
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const RunResult r =
        runCli("edit " + config.folder + " --port " + std::to_string(server->port()));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.output.find("in use"), std::string::npos) << r.output;
    server->stop();
    serving.join();
}

TEST(EditCommand, PrintsItsAddressAndStopsOnSigterm) {
    const fs::path dir = fs::temp_directory_path() / "spindrift_edit_command_sigterm";
    fs::create_directories(dir);
    const fs::path log = dir / "log.txt";
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        freopen(log.c_str(), "w", stdout);
        execl(SPINDRIFT_CLI, SPINDRIFT_CLI, "edit", dir.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    std::string text;
    // Up to 30 s: a loaded machine takes a while to bring up the Vulkan device.
    for (int i = 0; i < 1500 && text.find("http://127.0.0.1:") == std::string::npos; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::ifstream in(log);
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    EXPECT_NE(text.find("http://127.0.0.1:"), std::string::npos) << text;
    kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    fs::remove_all(dir);
}

} // namespace
} // namespace spindrift::editor
