// `spindrift edit [FILE|DIR] [--port N]`: the browser effect editor's server (docs/editor.md).
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <pthread.h>
#include <thread>

#include "commands.h"
#include "editor/editor_server.h"

namespace spindrift::cli {

int runEdit(const EditOptions& options) {
    namespace fs = std::filesystem;
    editor::ServerConfig config;
    config.port = static_cast<uint16_t>(options.port);
    config.device = options.device;
    const std::string input = options.input.empty() ? "." : options.input;
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
        config.folder = input;
    } else if (fs::is_regular_file(input, ec)) {
        const fs::path path(input);
        config.folder = path.has_parent_path() ? path.parent_path().string() : ".";
        config.initial_file = path.filename().string();
        if (path.extension() != ".json") {
            std::fprintf(stderr, "error: %s: the editor opens effect files (.json)\n",
                         input.c_str());
            return 1;
        }
    } else {
        std::fprintf(stderr, "error: %s: no such file or folder\n", input.c_str());
        return 1;
    }

    // SIGINT and SIGTERM are waited for on this thread (sigwait), so every thread the server
    // starts inherits them blocked and the server stops cleanly.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    std::string error;
    std::unique_ptr<editor::EditorServer> server = editor::EditorServer::create(config, error);
    if (!server) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        return 1;
    }
    std::printf("spindrift edit: serving %s at %s\n", fs::canonical(config.folder).c_str(),
                server->url().c_str());
    std::printf("Open that address in a browser; Ctrl+C stops the server.\n");
    std::fflush(stdout);
    std::thread serving([&server] { server->run(); });
    int received = 0;
    sigwait(&signals, &received);
    server->stop();
    serving.join();
    return 0;
}

} // namespace spindrift::cli
