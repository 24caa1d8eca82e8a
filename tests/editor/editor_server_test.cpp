// The server over HTTP on lavapipe: what a hostile page, a confused client or garbage bytes get.
#include <gtest/gtest.h>

#include <httplib.h>

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "editor/editor_server.h"
#include "editor/gizmo_lines.h"
#include "editor/request_guard.h"
#include "image/png_io.h"

namespace spindrift::editor {
namespace {

namespace fs = std::filesystem;

class EditorServerTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        std::string pattern = (fs::temp_directory_path() / "editor-server-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        base_ = pattern;
        fs::create_directories(base_ / "root");
        fs::create_directories(base_ / "outside");
        fs::copy_file(fs::path(SPINDRIFT_SOURCE_DIR) / "src/editor/templates/sparks.json",
                      base_ / "root" / "sparks.json");
        std::ofstream(base_ / "outside" / "secret.json") << "{\"secret_value\": 42}";
        fs::create_symlink(base_ / "outside" / "secret.json", base_ / "root" / "evil.json");
        ServerConfig config;
        config.folder = (base_ / "root").string();
        config.initial_file = "sparks.json";
        std::string error;
        server_ = EditorServer::create(config, error).release();
        ASSERT_NE(server_, nullptr) << error;
        thread_ = new std::thread([] { server_->run(); });
        for (int i = 0; i < 200; ++i) {
            httplib::Client probe("127.0.0.1", server_->port());
            if (probe.Get("/api/info")) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    static void TearDownTestSuite() {
        if (server_) server_->stop();
        if (thread_) thread_->join();
        delete thread_;
        delete server_;
        fs::remove_all(base_);
    }
    static httplib::Client client() {
        httplib::Client c("127.0.0.1", server_->port());
        c.set_read_timeout(60, 0);
        return c;
    }
    static nlohmann::json body(const httplib::Result& r) {
        return nlohmann::json::parse(r->body, nullptr, false);
    }
    static inline fs::path base_;
    static inline EditorServer* server_ = nullptr;
    static inline std::thread* thread_ = nullptr;
};

TEST_F(EditorServerTest, ServesThePageOnLoopbackOnly) {
    EXPECT_EQ(server_->url(), "http://127.0.0.1:" + std::to_string(server_->port()) + "/");
    auto r = client().Get("/");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_NE(r->body.find("editor.js"), std::string::npos);
}

TEST_F(EditorServerTest, RefusesAForeignHostHeader) {
    httplib::Headers headers = {{"Host", "evil.example:" + std::to_string(server_->port())}};
    auto r = client().Get("/api/files", headers);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 403);
    EXPECT_NE(body(r)["error"].get<std::string>().find("Host"), std::string::npos);
}

TEST_F(EditorServerTest, RefusesAForeignOrigin) {
    httplib::Headers headers = {{"Origin", "http://evil.example"}};
    auto r = client().Post("/api/file?path=sparks.json", headers, "{}", "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 403);
    auto same = client().Get("/api/files",
                             {{"Origin", "http://127.0.0.1:" + std::to_string(server_->port())}});
    ASSERT_TRUE(same);
    EXPECT_EQ(same->status, 200);
}

TEST_F(EditorServerTest, RefusesAnOversizedBody) {
    const std::string big(kMaxRequestBodyBytes + 1024, ' ');
    auto r = client().Post("/api/validate", big, "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 413);
    // And still answers.
    auto after = client().Get("/api/info");
    ASSERT_TRUE(after);
    EXPECT_EQ(after->status, 200);
}

TEST_F(EditorServerTest, AnswersMalformedJsonWithDiagnostics) {
    auto r =
        client().Post("/api/validate?path=sparks.json", "{\"version\": 1,,}", "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    const nlohmann::json j = body(r);
    EXPECT_FALSE(j["valid"].get<bool>());
    EXPECT_EQ(j["diagnostics"][0]["line"], 1);
    auto control =
        client().Post("/api/preview/control?action=filter", "{not json", "application/json");
    ASSERT_TRUE(control);
    EXPECT_EQ(control->status, 400);
    auto seek = client().Post("/api/preview/control?action=seek&t=nan", "", "text/plain");
    ASSERT_TRUE(seek);
    EXPECT_EQ(seek->status, 400);
}

TEST_F(EditorServerTest, RefusesPathEscapesThroughTheApi) {
    for (const char* path : {"../outside/secret.json", "%2Fetc%2Fpasswd.json", "evil.json",
                             "..%2Foutside%2Fsecret.json"}) {
        auto r = client().Get(std::string("/api/file?path=") + path);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << path;
        EXPECT_EQ(r->body.find("secret_value"), std::string::npos) << path;
        auto w = client().Post(std::string("/api/file?path=") + path, "{}", "application/json");
        ASSERT_TRUE(w);
        EXPECT_EQ(w->status, 400) << path;
    }
    std::ifstream in(base_ / "outside" / "secret.json");
    std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(kept, "{\"secret_value\": 42}");
}

TEST_F(EditorServerTest, SavesCanonicalJsonAndRefusesAnInvalidDocument) {
    auto read = client().Get("/api/file?path=sparks.json");
    ASSERT_TRUE(read);
    ASSERT_EQ(read->status, 200);
    const std::string text = body(read)["text"];
    auto saved = client().Post("/api/file?path=copy.json", text, "application/json");
    ASSERT_TRUE(saved);
    ASSERT_EQ(saved->status, 200) << saved->body;
    std::ifstream in(base_ / "root" / "copy.json");
    std::string on_disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(on_disk, body(saved)["text"].get<std::string>());
    auto bad = client().Post("/api/file?path=copy.json", "{\"version\": 2}", "application/json");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 422);
    std::ifstream again(base_ / "root" / "copy.json");
    std::string kept((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
    EXPECT_EQ(kept, on_disk);
    auto exists = client().Post("/api/file?path=copy.json&create=1", text, "application/json");
    ASSERT_TRUE(exists);
    EXPECT_EQ(exists->status, 409);
}

TEST_F(EditorServerTest, PreviewsTheLastValidVersionOfAnInvalidDocument) {
    auto read = client().Get("/api/file?path=sparks.json");
    ASSERT_TRUE(read);
    auto set = client().Post("/api/preview/document?path=sparks.json",
                             body(read)["text"].get<std::string>(), "application/json");
    ASSERT_TRUE(set);
    EXPECT_EQ(body(set)["previewing"], "document") << set->body;
    auto frame = client().Get("/api/preview/frame");
    ASSERT_TRUE(frame);
    ASSERT_EQ(frame->status, 200);
    EXPECT_EQ(frame->get_header_value("Content-Type"), "image/png");
    EXPECT_EQ(frame->body.substr(1, 3), "PNG");
    auto broken = client().Post("/api/preview/document?path=sparks.json",
                                "{\"version\": ", "application/json");
    ASSERT_TRUE(broken);
    EXPECT_EQ(body(broken)["previewing"], "last valid version");
    auto still = client().Get("/api/preview/frame");
    ASSERT_TRUE(still);
    EXPECT_EQ(still->status, 200);
    // Exact seek: the time reported is whole fixed steps; back in time is a replay from 0.
    client().Post("/api/preview/control?action=seek&t=1", "", "text/plain");
    client().Get("/api/preview/frame");
    auto seek = client().Post("/api/preview/control?action=seek&t=0.5", "", "text/plain");
    ASSERT_TRUE(seek);
    ASSERT_EQ(seek->status, 200);
    auto after = client().Get("/api/preview/frame");
    ASSERT_TRUE(after);
    const nlohmann::json stats =
        nlohmann::json::parse(after->get_header_value("X-Spindrift-Stats"));
    EXPECT_EQ(stats["steps"], 30);
    EXPECT_TRUE(stats["frame_replayed_from_zero"].get<bool>()); // sent back from where it played
    EXPECT_EQ(stats["frame_steps"], 30);
    // An invalid document of another file does not show this file's last version.
    auto other = client().Post("/api/preview/document?path=other.json", "{", "application/json");
    ASSERT_TRUE(other);
    EXPECT_EQ(body(other)["previewing"], "nothing");
    auto none = client().Get("/api/preview/frame");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->status, 204);
    EXPECT_FALSE(stats["playing"].get<bool>());
    EXPECT_GT(stats["live"].get<uint64_t>(), 0u);
    // The frame's milliseconds per stage: the replay of 30 steps and the draw list inside the
    // simulation's time, the device's time inside the render's.
    const nlohmann::json& ms = stats["ms"];
    for (const char* stage :
         {"simulate", "advance", "draw_list", "render", "gpu", "gpu_post", "encode"}) {
        ASSERT_TRUE(ms.contains(stage)) << stage;
        EXPECT_GE(ms[stage].get<double>(), 0.0) << stage;
    }
    EXPECT_GT(ms["advance"].get<double>(), 0.0);
    EXPECT_GT(ms["draw_list"].get<double>(), 0.0);
    EXPECT_LE(ms["advance"].get<double>() + ms["draw_list"].get<double>(),
              ms["simulate"].get<double>() + 1e-3);
    EXPECT_LE(ms["gpu_post"].get<double>(), ms["gpu"].get<double>() + 1e-6);
    // Inside the 30 steps (World::takeStepTimes): each stage within the step, the steps within
    // the advance, the draw records within the draw list.
    const nlohmann::json& steps = stats["step_ms"];
    ASSERT_TRUE(steps["timed"].get<bool>()) << steps.dump();
    EXPECT_FALSE(steps["gpu_untimed"].get<bool>());
    EXPECT_EQ(steps["steps"], 30);
    double stages = 0;
    for (const char* stage : {"plan", "update", "collision", "deaths", "births"}) {
        ASSERT_TRUE(steps.contains(stage)) << stage;
        EXPECT_GE(steps[stage].get<double>(), 0.0) << stage;
        stages += steps[stage].get<double>();
    }
    EXPECT_GT(steps["update"].get<double>(), 0.0);
    EXPECT_GT(steps["births"].get<double>(), 0.0);
    EXPECT_LE(stages, steps["step"].get<double>() + 1e-6);
    EXPECT_LE(steps["step"].get<double>(), ms["advance"].get<double>());
    EXPECT_GT(steps["draw_records"].get<double>(), 0.0);
    EXPECT_LE(steps["draw_records"].get<double>(), ms["draw_list"].get<double>());
}

// The play head sent back past a seek checkpoint (every 60 steps on the CPU backend) resumes
// from it: the frame replays only the steps after it, not from time 0.
TEST_F(EditorServerTest, ASeekBackwardsResumesFromTheCheckpointBeforeIt) {
    auto read = client().Get("/api/file?path=sparks.json");
    ASSERT_TRUE(read);
    auto set = client().Post("/api/preview/document?path=sparks.json",
                             body(read)["text"].get<std::string>(), "application/json");
    ASSERT_TRUE(set);
    auto statsOfFrame = [&] {
        auto frame = client().Get("/api/preview/frame");
        EXPECT_TRUE(frame);
        EXPECT_EQ(frame->status, 200);
        return nlohmann::json::parse(frame->get_header_value("X-Spindrift-Stats"));
    };
    client().Post("/api/preview/control?action=seek&t=2", "", "text/plain");
    const nlohmann::json forward = statsOfFrame();
    EXPECT_EQ(forward["steps"], 120);
    EXPECT_GE(forward["seek_checkpoints"]["count"].get<uint64_t>(), 2u);
    client().Post("/api/preview/control?action=seek&t=1.5", "", "text/plain");
    const nlohmann::json back = statsOfFrame();
    EXPECT_EQ(back["steps"], 90);
    EXPECT_EQ(back["frame_origin"], "checkpoint");
    EXPECT_EQ(back["frame_resumed_from_step"], 60);
    EXPECT_EQ(back["frame_steps"], 30);
    EXPECT_FALSE(back["frame_replayed_from_zero"].get<bool>());
    // Before the first checkpoint: a replay from time 0.
    client().Post("/api/preview/control?action=seek&t=0.25", "", "text/plain");
    const nlohmann::json start = statsOfFrame();
    EXPECT_EQ(start["frame_origin"], "start");
    EXPECT_TRUE(start["frame_replayed_from_zero"].get<bool>());
    EXPECT_EQ(start["frame_steps"], 15);
}

TEST_F(EditorServerTest, AMissingTextureOrOneOutsideTheFolderIsAClearErrorAtItsPath) {
    auto read = client().Get("/api/file?path=sparks.json");
    ASSERT_TRUE(read);
    nlohmann::json doc = nlohmann::json::parse(body(read)["text"].get<std::string>());
    for (const char* texture : {"missing.png", "../outside/x.png"}) {
        doc["emitters"][0]["render"]["texture"] = texture;
        auto set =
            client().Post("/api/preview/document?path=sparks.json", doc.dump(), "application/json");
        ASSERT_TRUE(set);
        ASSERT_EQ(set->status, 200);
        const nlohmann::json j = body(set);
        EXPECT_FALSE(j["valid"].get<bool>()) << texture;
        ASSERT_FALSE(j["diagnostics"].empty()) << texture;
        EXPECT_EQ(j["diagnostics"][0]["path"], "$.emitters[0].render.texture") << texture;
        EXPECT_NE(j["diagnostics"][0]["message"].get<std::string>().find(texture),
                  std::string::npos);
    }
    // A valid document whose pools would take the server's memory is refused by the preview.
    doc["emitters"][0]["render"].erase("texture");
    doc["emitters"][0]["capacity"] = 134217728;
    doc["capacity"] = 134217728;
    auto huge =
        client().Post("/api/preview/document?path=sparks.json", doc.dump(), "application/json");
    ASSERT_TRUE(huge);
    ASSERT_EQ(huge->status, 200);
    EXPECT_FALSE(body(huge)["valid"].get<bool>()) << huge->body;
    EXPECT_EQ(body(huge)["diagnostics"].back()["path"], "$.emitters[0].capacity");
    auto info = client().Get("/api/info");
    ASSERT_TRUE(info);
    EXPECT_EQ(info->status, 200);
}

TEST_F(EditorServerTest, SwitchesTheBackendAndNamesItPerEmitter) {
    auto read = client().Get("/api/file?path=sparks.json");
    ASSERT_TRUE(read);
    client().Post("/api/preview/document?path=sparks.json", body(read)["text"].get<std::string>(),
                  "application/json");
    auto bad = client().Post("/api/preview/control?action=backend&name=quantum", "", "text/plain");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 400);
    auto gpu = client().Post("/api/preview/control?action=backend&name=gpu", "", "text/plain");
    ASSERT_TRUE(gpu);
    ASSERT_EQ(gpu->status, 200) << gpu->body;
    client().Post("/api/preview/control?action=seek&t=0.5", "", "text/plain");
    auto frame = client().Get("/api/preview/frame");
    ASSERT_TRUE(frame);
    ASSERT_EQ(frame->status, 200);
    const nlohmann::json stats =
        nlohmann::json::parse(frame->get_header_value("X-Spindrift-Stats"));
    EXPECT_EQ(stats["backend"], "gpu");
    EXPECT_EQ(stats["emitters"][0]["backend"], "gpu");
    EXPECT_FALSE(stats["backend_reason"].get<std::string>().empty());
    // The GPU backend's stages are device times, no CPU stage: the replay's steps, taken when
    // their submission finished (the frame's render waited for the queue, so it has).
    const nlohmann::json& steps = stats["step_ms"];
    EXPECT_FALSE(steps["timed"].get<bool>()) << steps.dump();
    EXPECT_FALSE(steps["gpu_untimed"].get<bool>()) << steps.dump();
    EXPECT_FALSE(steps.contains("update"));
    ASSERT_TRUE(steps.contains("gpu")) << steps.dump();
    const nlohmann::json& g = steps["gpu"];
    EXPECT_GT(g["steps"].get<uint64_t>(), 0u) << g.dump();
    EXPECT_GT(g["update"].get<double>(), 0.0) << g.dump();
    EXPECT_GT(g["plan"].get<double>(), 0.0) << g.dump();
    EXPECT_LE(g["update"].get<double>() + g["events"].get<double>() + g["births"].get<double>() +
                  g["order"].get<double>(),
              g["step"].get<double>() * (1 + 1e-9))
        << g.dump();
    auto back = client().Post("/api/preview/control?action=backend&name=cpu", "", "text/plain");
    ASSERT_TRUE(back);
    EXPECT_EQ(back->status, 200);
    auto grey = client().Post("/api/preview/control?action=background&name=grey", "", "text/plain");
    ASSERT_TRUE(grey);
    EXPECT_EQ(grey->status, 200);
}

// Gizmos are drawn by the renderer into the frame only when asked: the selected emitter's and
// the bounds' exact colours are in the PNG while on, and none of them before or after.
TEST_F(EditorServerTest, DrawsGizmosIntoTheFrameOnlyWhenAsked) {
    auto read = client().Get("/api/file?path=sparks.json");
    ASSERT_TRUE(read);
    const std::string text = body(read)["text"].get<std::string>();
    client().Post("/api/preview/document?path=sparks.json", text, "application/json");
    client().Post("/api/preview/control?action=seek&t=0.5", "", "text/plain");
    auto frameWith = [&](uint32_t& selected_pixels, uint32_t& bounds_pixels) {
        auto frame = client().Get("/api/preview/frame");
        ASSERT_TRUE(frame);
        ASSERT_EQ(frame->status, 200);
        Image image;
        std::vector<Diagnostic> d;
        const auto* bytes = reinterpret_cast<const uint8_t*>(frame->body.data());
        ASSERT_TRUE(decodePng({bytes, frame->body.size()}, "frame.png", image, d));
        auto count = [&](const Float3& c) {
            uint32_t n = 0;
            for (size_t i = 0; i + 3 < image.rgba8.size(); i += 4) {
                n += image.rgba8[i] == std::lround(c.x * 255) &&
                             image.rgba8[i + 1] == std::lround(c.y * 255) &&
                             image.rgba8[i + 2] == std::lround(c.z * 255)
                         ? 1
                         : 0;
            }
            return n;
        };
        selected_pixels = count(kGizmoSelected);
        bounds_pixels = count(kGizmoBounds);
    };
    uint32_t selected = 0, bounds = 0;
    frameWith(selected, bounds);
    EXPECT_EQ(selected + bounds, 0u) << "off by default";

    auto bad = client().Post("/api/preview/control?action=gizmos&on=yes", "", "text/plain");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 400);
    EXPECT_NE(bad->body.find("gizmos: on must be 0 or 1"), std::string::npos) << bad->body;
    const std::string long_name(200, 'x');
    auto too_long = client().Post("/api/preview/control?action=gizmos&on=1&selected=" + long_name,
                                  "", "text/plain");
    ASSERT_TRUE(too_long);
    EXPECT_EQ(too_long->status, 400);

    const std::string name = nlohmann::json::parse(text)["emitters"][0]["name"].get<std::string>();
    auto on =
        client().Post("/api/preview/control?action=gizmos&on=1&selected=" + name, "", "text/plain");
    ASSERT_TRUE(on);
    ASSERT_EQ(on->status, 200) << on->body;
    frameWith(selected, bounds);
    EXPECT_GT(selected, 10u) << "the sparks' hemisphere of 5 cm";
    EXPECT_GT(bounds, 100u);
    auto stats = client().Get("/api/preview/stats");
    ASSERT_TRUE(stats);
    EXPECT_TRUE(body(stats)["gizmos"]["on"].get<bool>());
    EXPECT_EQ(body(stats)["gizmos"]["selected"], name);
    EXPECT_GT(body(stats)["gizmos"]["lines"].get<uint64_t>(), 96u);

    client().Post("/api/preview/control?action=gizmos&on=0", "", "text/plain");
    frameWith(selected, bounds);
    EXPECT_EQ(selected + bounds, 0u) << "off again";
}

// The page polls frames one request after another on one keep-alive connection: a request must
// not wait for the client's delayed acknowledgement (Nagle's algorithm, ~30 ms or more a request
// on Linux loopback), which would cap the frame rate whatever the renderer does.
TEST_F(EditorServerTest, AKeepAliveRequestDoesNotWaitForADelayedAcknowledgement) {
    httplib::Client c = client();
    c.set_keep_alive(true);
    std::vector<double> ms;
    for (int i = 0; i < 41; ++i) {
        const auto start = std::chrono::steady_clock::now();
        auto r = c.Get("/api/preview/stats");
        ASSERT_TRUE(r);
        ASSERT_EQ(r->status, 200);
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::nth_element(ms.begin(), ms.begin() + 20, ms.end());
    EXPECT_LT(ms[20], 15.0) << "median ms a request";
}

TEST_F(EditorServerTest, EveryTemplatePreviewsWithParticles) {
    for (const char* name : {"fire", "smoke", "sparks", "trail", "magic_burst"}) {
        auto t = client().Get(std::string("/api/template?name=") + name);
        ASSERT_TRUE(t);
        ASSERT_EQ(t->status, 200) << name;
        auto set = client().Post("/api/preview/document?path=sparks.json",
                                 body(t)["text"].get<std::string>(), "application/json");
        ASSERT_TRUE(set);
        EXPECT_EQ(body(set)["previewing"], "document") << name << ": " << set->body;
        client().Post("/api/preview/control?action=seek&t=0.5", "", "text/plain");
        auto frame = client().Get("/api/preview/frame");
        ASSERT_TRUE(frame);
        ASSERT_EQ(frame->status, 200) << name;
        const nlohmann::json stats =
            nlohmann::json::parse(frame->get_header_value("X-Spindrift-Stats"));
        EXPECT_GT(stats["live"].get<uint64_t>(), 0u) << name;
    }
    auto unknown = client().Get("/api/template?name=..%2Fsecret");
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->status, 404);
}

TEST_F(EditorServerTest, SurvivesGarbageBytesAndDisconnects) {
    for (const std::string& junk :
         {std::string("\x16\x03\x01\x02\x00garbage\r\n\r\n"), std::string("GET /\r\n\r\n"),
          std::string("POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1:") +
              std::to_string(server_->port()) + "\r\nContent-Length: 100000\r\n\r\n{",
          std::string(70000, 'A')}) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        ASSERT_GE(fd, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(server_->port());
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
        (void)!write(fd, junk.data(), junk.size());
        close(fd); // disconnect mid-request
    }
    auto r = client().Get("/api/info");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

} // namespace
} // namespace spindrift::editor
