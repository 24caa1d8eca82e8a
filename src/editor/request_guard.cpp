#include "editor/request_guard.h"

namespace spindrift::editor {

GuardVerdict checkRequestHeaders(std::string_view host, std::string_view origin, uint16_t port,
                                 std::string_view fetch_site) {
    const std::string suffix = ":" + std::to_string(port);
    const std::string loopback = "127.0.0.1" + suffix;
    const std::string localhost = "localhost" + suffix;
    if (host != loopback && host != localhost) {
        return {false, "refused: the Host header must be " + loopback + " or " + localhost +
                           " (found '" + std::string(host.substr(0, 200)) + "')"};
    }
    // Browsers send "null" for opaque origins (a sandboxed frame, a file: page): refused too.
    if (!origin.empty() && origin != "http://" + std::string(host)) {
        return {false, "refused: a request from another origin ('" +
                           std::string(origin.substr(0, 200)) + "'); only http://" +
                           std::string(host) + " may call this server"};
    }
    if (!fetch_site.empty() && fetch_site != "same-origin" && fetch_site != "none") {
        return {false, "refused: a request made by another site (Sec-Fetch-Site: " +
                           std::string(fetch_site.substr(0, 40)) + ")"};
    }
    return {true, ""};
}

} // namespace spindrift::editor
