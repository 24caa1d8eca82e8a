// The editor's HTTP server (`spindrift edit`, docs/editor.md): the page and its API on
// 127.0.0.1 only. Every request passes the request guard first (request_guard.h: Host and Origin,
// refused with 403); bodies are bounded (kMaxRequestBodyBytes, 413 past it); every handler
// answers bad input with a JSON {"error": ...} and a 4xx status, and an unexpected exception in a
// handler becomes a 500, never a crash. One lock serialises the handlers: the preview session
// and the files are touched by one request at a time.
//
// API (JSON unless said):
//   GET  /api/info                     root folder name, the file given, templates, port
//   GET  /api/files                    the effect files under the folder
//   GET  /api/file?path=P              {path, text, modified_ns}
//   GET  /api/file/stat?path=P         {exists, modified_ns}: the page polls it for changes
//   POST /api/file?path=P[&create=1]   body: the document; saved as canonical JSON, atomically;
//                                      422 with the diagnostics when it does not validate
//   GET  /api/template?name=N          a template's text
//   POST /api/validate?path=P          body: the document; {valid, diagnostics}
//   POST /api/preview/document?path=P  body: the document; {valid, previewing, diagnostics}
//   POST /api/preview/control?action=A play, pause, restart, step, seek&t=, time_scale&value=,
//                                      camera&yaw=&pitch=&distance=, frame, ground&on=0|1,
//                                      gizmos&on=0|1[&selected=NAME],
//                                      backend&name=cpu|gpu|auto, filter (body {muted, solo})
//   GET  /api/preview/frame            image/png; the statistics in X-Spindrift-Stats
//   GET  /api/preview/stats            the statistics
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace spindrift::editor {

struct ServerConfig {
    std::string folder;       // the folder whose effect files may be edited
    std::string initial_file; // relative to folder; "" for none
    uint16_t port = 0;        // 0: a free port the system picks
    std::string device;       // the renderer's Vulkan device (RendererConfig::device)
};

class EditorServer {
public:
    // Opens the folder, starts the renderer and binds 127.0.0.1. nullptr with the reason.
    static std::unique_ptr<EditorServer> create(const ServerConfig& config, std::string& error);
    ~EditorServer();
    uint16_t port() const;
    std::string url() const;
    // Serves until stop() (from another thread or a signal handler's thread).
    void run();
    void stop();

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

} // namespace spindrift::editor
