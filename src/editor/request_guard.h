// Which HTTP requests the editor's server answers at all. The server listens on 127.0.0.1 only,
// but a page on any web site can still make the user's browser send requests there: a DNS
// rebinding attack names the server by a hostile host name that resolves to 127.0.0.1, and a
// cross-site form or fetch carries the hostile site's Origin. So every request must name the
// server itself in Host (127.0.0.1:PORT or localhost:PORT, exactly), and an Origin, when the
// browser sends one, must be that same origin (http://HOST). A browser's Sec-Fetch-Site, when
// sent, must say same-origin or none (typed in the address bar): an <img> or <script> of another
// site carries no Origin but does carry Sec-Fetch-Site: cross-site. Everything else is refused
// before any handler runs (docs/editor.md, "Security").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace spindrift::editor {

// The most bytes of a request body (a document, a control message); larger ones get 413.
inline constexpr size_t kMaxRequestBodyBytes = 4u << 20;

struct GuardVerdict {
    bool allowed = false;
    std::string reason; // why refused, in words; empty when allowed
};

// host: the Host header ("" when absent); origin: the Origin header ("" when absent);
// fetch_site: the Sec-Fetch-Site header ("" when absent); port: the port the server listens on.
GuardVerdict checkRequestHeaders(std::string_view host, std::string_view origin, uint16_t port,
                                 std::string_view fetch_site = "");

} // namespace spindrift::editor
