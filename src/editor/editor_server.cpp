#include "editor/editor_server.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "editor/document_check.h"
#include "editor/file_root.h"
#include "editor/preview_session.h"
#include "editor/request_guard.h"
#include "editor/web_assets.h"
#include "spindrift/effect_desc.h"
#include "spindrift/effect_json.h"

namespace spindrift::editor {

namespace {

constexpr const char* kTemplates[] = {"fire", "smoke", "sparks", "trail", "magic_burst"};

void sendJson(httplib::Response& res, const nlohmann::json& body, int status = 200) {
    res.status = status;
    // ensure_ascii: file names and messages may hold any UTF-8; the bytes stay valid either way.
    res.set_content(body.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace),
                    "application/json");
}

void sendError(httplib::Response& res, int status, const std::string& message) {
    sendJson(res, {{"error", message}}, status);
}

// A finite number from the query, or false.
bool numberParam(const httplib::Request& req, const char* name, double& out) {
    if (!req.has_param(name)) return false;
    const std::string text = req.get_param_value(name);
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size() && std::isfinite(out);
}

} // namespace

struct EditorServer::Impl {
    ServerConfig config;
    FileRoot root;
    std::unique_ptr<PreviewSession> preview;
    httplib::Server server;
    uint16_t port = 0;
    std::mutex lock; // one handler at a time touches the preview and the files
    // run() and stop() on different threads (stop): each sets its flag before it reads the other's.
    std::atomic<bool> run_started{false};
    std::atomic<bool> stop_requested{false};
    std::atomic<bool> run_returned{false};

    void routes();
    void control(const httplib::Request& req, httplib::Response& res);
};

void EditorServer::Impl::routes() {
    // SO_REUSEADDR only: cpp-httplib's default also sets SO_REUSEPORT, with which a second
    // process of the same user could listen on the same port and take half the connections.
    server.set_socket_options([](socket_t sock) {
        int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    // No Nagle: a response is written as its header, then its body, and with Nagle's algorithm
    // the body waited for the client's delayed acknowledgement of the header, 28 ms a request on
    // a keep-alive connection, which capped the page's frame polling (docs/benchmarks.md, "Editor
    // frame transport"). The accepted sockets get it too (measured: 0.5 ms a request).
    server.set_tcp_nodelay(true);
    server.set_payload_max_length(kMaxRequestBodyBytes);
    server.set_read_timeout(10, 0);
    server.set_write_timeout(10, 0);
    server.set_keep_alive_timeout(2);

    server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        const GuardVerdict verdict =
            checkRequestHeaders(req.get_header_value("Host"), req.get_header_value("Origin"), port,
                                req.get_header_value("Sec-Fetch-Site"));
        if (!verdict.allowed) {
            sendError(res, 403, verdict.reason);
            return httplib::Server::HandlerResponse::Handled;
        }
        res.set_header("X-Content-Type-Options", "nosniff");
        res.set_header("Cache-Control", "no-store");
        return httplib::Server::HandlerResponse::Unhandled;
    });
    server.set_exception_handler(
        [](const httplib::Request&, httplib::Response& res, std::exception_ptr e) {
            std::string what = "unexpected error";
            try {
                if (e) std::rethrow_exception(e);
            } catch (const std::exception& x) {
                what = x.what();
            } catch (...) {
            }
            sendError(res, 500, "the server could not handle the request: " + what);
        });
    server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (res.body.empty()) {
            const char* what = res.status == 413   ? "the request body is too large"
                               : res.status == 404 ? "no such page"
                                                   : "bad request";
            sendError(res, res.status, what);
        }
    });

    server.Get("/", [](const httplib::Request&, httplib::Response& res) {
        const WebAsset* page = findWebAsset("/index.html");
        res.set_content(std::string(page->text()), page->mime);
    });
    server.Get(R"(/([a-z_]+\.(js|css)|schema/effect\.schema\.json|templates/[a-z_]+\.json))",
               [](const httplib::Request& req, httplib::Response& res) {
                   const WebAsset* asset = findWebAsset(req.path);
                   if (!asset) return sendError(res, 404, "no such file");
                   res.set_content(std::string(asset->text()), asset->mime);
               });

    server.Get("/api/info", [this](const httplib::Request&, httplib::Response& res) {
        nlohmann::json templates = nlohmann::json::array();
        for (const char* t : kTemplates) templates.push_back(t);
        sendJson(res, {{"folder", root.root().filename().string()},
                       {"file", config.initial_file},
                       {"port", port},
                       {"templates", templates}});
    });
    server.Get("/api/template", [](const httplib::Request& req, httplib::Response& res) {
        const WebAsset* asset = findWebAsset("/templates/" + req.get_param_value("name") + ".json");
        if (!asset) return sendError(res, 404, "no template of that name");
        sendJson(res, {{"text", std::string(asset->text())}});
    });
    server.Get("/api/files", [this](const httplib::Request&, httplib::Response& res) {
        std::lock_guard<std::mutex> guard(lock);
        nlohmann::json files = nlohmann::json::array();
        for (const FileEntry& f : root.list())
            files.push_back({{"path", f.path}, {"modified_ns", std::to_string(f.modified_ns)}});
        sendJson(res, {{"files", files}});
    });
    server.Get("/api/file", [this](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard<std::mutex> guard(lock);
        std::string text, error;
        int64_t modified = 0;
        const std::string path = req.get_param_value("path");
        if (!root.read(path, text, modified, error)) return sendError(res, 400, error);
        sendJson(res, {{"path", path}, {"text", text}, {"modified_ns", std::to_string(modified)}});
    });
    server.Get("/api/file/stat", [this](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard<std::mutex> guard(lock);
        std::string error;
        bool exists = false;
        int64_t modified = 0;
        if (!root.stat(req.get_param_value("path"), exists, modified, error))
            return sendError(res, 400, error);
        sendJson(res, {{"exists", exists}, {"modified_ns", std::to_string(modified)}});
    });
    server.Post("/api/file", [this](const httplib::Request& req, httplib::Response& res) {
        std::lock_guard<std::mutex> guard(lock);
        const std::string path = req.get_param_value("path");
        std::filesystem::path resolved;
        std::string error;
        if (!root.resolve(path, resolved, error)) return sendError(res, 400, error);
        const DocumentCheck check = checkDocument(req.body, path);
        if (!check.valid) {
            return sendJson(res,
                            {{"error", "the document has errors: fix them before saving"},
                             {"diagnostics", diagnosticsJson(check.diagnostics)}},
                            422);
        }
        const std::string canonical = saveEffect(check.effect);
        int64_t modified = 0;
        if (!root.write(path, canonical, req.get_param_value("create") == "1", modified, error))
            return sendError(res, 409, error);
        sendJson(res,
                 {{"path", path}, {"text", canonical}, {"modified_ns", std::to_string(modified)}});
    });
    server.Post("/api/validate", [](const httplib::Request& req, httplib::Response& res) {
        const std::string path = req.has_param("path") ? req.get_param_value("path") : "document";
        const DocumentCheck check = checkDocument(req.body, path);
        sendJson(res,
                 {{"valid", check.valid}, {"diagnostics", diagnosticsJson(check.diagnostics)}});
    });
    server.Post("/api/preview/document",
                [this](const httplib::Request& req, httplib::Response& res) {
                    std::lock_guard<std::mutex> guard(lock);
                    const std::string path = req.get_param_value("path");
                    std::filesystem::path resolved;
                    std::string error;
                    if (!root.resolve(path, resolved, error)) return sendError(res, 400, error);
                    sendJson(res, preview->setDocument(req.body, path));
                });
    server.Post("/api/preview/control",
                [this](const httplib::Request& req, httplib::Response& res) { control(req, res); });
    server.Get("/api/preview/frame", [this](const httplib::Request&, httplib::Response& res) {
        std::lock_guard<std::mutex> guard(lock);
        std::vector<uint8_t> png;
        nlohmann::json stats;
        std::string error;
        if (!preview->hasEffect()) {
            // Nothing valid opened yet: no content, not an error the page should log.
            res.status = 204;
            return;
        }
        if (!preview->frame(png, stats, error)) return sendError(res, 409, error);
        res.set_header("X-Spindrift-Stats",
                       stats.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
        res.set_content(std::string(png.begin(), png.end()), "image/png");
    });
    server.Get("/api/preview/stats", [this](const httplib::Request&, httplib::Response& res) {
        std::lock_guard<std::mutex> guard(lock);
        sendJson(res, preview->stats());
    });
}

void EditorServer::Impl::control(const httplib::Request& req, httplib::Response& res) {
    std::lock_guard<std::mutex> guard(lock);
    const std::string action = req.get_param_value("action");
    double a = 0, b = 0, c = 0;
    if (action == "play") {
        preview->play();
    } else if (action == "pause") {
        preview->pause();
    } else if (action == "restart") {
        preview->restart();
    } else if (action == "step") {
        preview->step();
    } else if (action == "seek") {
        if (!numberParam(req, "t", a) || !preview->seek(a))
            return sendError(res, 400, "seek: t must be a number of seconds in [0, 600]");
    } else if (action == "time_scale") {
        if (!numberParam(req, "value", a) || !preview->setTimeScale(a))
            return sendError(res, 400, "time_scale: value must be a number in [0, 100]");
    } else if (action == "camera") {
        if (!numberParam(req, "yaw", a) || !numberParam(req, "pitch", b) ||
            !numberParam(req, "distance", c) ||
            !preview->setCamera(static_cast<float>(a), static_cast<float>(b),
                                static_cast<float>(c)))
            return sendError(res, 400,
                             "camera: yaw, pitch in [-89, 89] and distance in (0.01, 1000]");
    } else if (action == "frame") {
        preview->frameEffect();
    } else if (action == "ground") {
        preview->setGround(req.get_param_value("on") != "0");
    } else if (action == "gizmos") {
        // on: 0 or 1; selected: the emitter drawn brighter (a name, or absent for none).
        const std::string on = req.get_param_value("on");
        const std::string selected = req.get_param_value("selected");
        if (on != "0" && on != "1") return sendError(res, 400, "gizmos: on must be 0 or 1");
        if (selected.size() > kMaxNameBytes)
            return sendError(res, 400,
                             "gizmos: selected must be an emitter name of at most " +
                                 std::to_string(kMaxNameBytes) + " bytes");
        preview->setGizmos(on == "1", selected);
    } else if (action == "background") {
        if (!preview->setBackground(req.get_param_value("name")))
            return sendError(res, 400, "background: name must be scene, black, grey or light");
    } else if (action == "backend") {
        bool ok = false;
        const BackendRequest backend = parseBackend(req.get_param_value("name"), ok);
        if (!ok) return sendError(res, 400, "backend: name must be cpu, gpu or auto");
        std::string error;
        if (!preview->setBackend(backend, error)) return sendError(res, 409, error);
    } else if (action == "filter") {
        const nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
        if (body.is_discarded() || !body.is_object() ||
            !body.value("muted", nlohmann::json::array()).is_array() ||
            !body.value("solo", nlohmann::json("")).is_string())
            return sendError(res, 400,
                             "filter: the body must be {\"muted\": [names], \"solo\": name}");
        std::vector<std::string> muted;
        for (const auto& m : body.value("muted", nlohmann::json::array()))
            if (m.is_string()) muted.push_back(m.get<std::string>());
        return sendJson(
            res, preview->setEmitterFilter(std::move(muted), body.value("solo", std::string())));
    } else {
        return sendError(res, 400, "unknown action '" + action.substr(0, 100) + "'");
    }
    sendJson(res, preview->stats());
}

std::unique_ptr<EditorServer> EditorServer::create(const ServerConfig& config, std::string& error) {
    std::unique_ptr<EditorServer> server(new EditorServer());
    server->impl_ = std::make_unique<Impl>();
    Impl& impl = *server->impl_;
    impl.config = config;
    if (!impl.root.open(config.folder, error)) return nullptr;
    PreviewConfig preview_config;
    preview_config.device = config.device;
    impl.preview = PreviewSession::create(impl.root, preview_config, error);
    if (!impl.preview) return nullptr;
    impl.routes();
    if (config.port == 0) {
        const int port = impl.server.bind_to_any_port("127.0.0.1");
        if (port <= 0) {
            error = "cannot listen on 127.0.0.1";
            return nullptr;
        }
        impl.port = static_cast<uint16_t>(port);
    } else {
        if (!impl.server.bind_to_port("127.0.0.1", config.port)) {
            error = "cannot listen on 127.0.0.1:" + std::to_string(config.port) +
                    " (is the port in use?)";
            return nullptr;
        }
        impl.port = config.port;
    }
    return server;
}

EditorServer::~EditorServer() = default;

uint16_t EditorServer::port() const {
    return impl_->port;
}

std::string EditorServer::url() const {
    return "http://127.0.0.1:" + std::to_string(impl_->port) + "/";
}

void EditorServer::run() {
    impl_->run_started = true;
    if (!impl_->stop_requested) impl_->server.listen_after_bind();
    impl_->run_returned = true;
}

// httplib's stop() does nothing until its listen loop is running, so a stop that comes between
// run()'s start and that loop (a SIGTERM right after the address is printed) would be lost and
// the server would serve on. Either run() sees the request and does not listen, or this sees run()
// started and repeats the stop until run() has returned.
void EditorServer::stop() {
    impl_->stop_requested = true;
    if (!impl_->run_started) return;
    while (!impl_->run_returned) {
        impl_->server.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace spindrift::editor
