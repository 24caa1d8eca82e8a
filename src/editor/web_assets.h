// The files `spindrift edit` serves: the page (index.html, editor.js, editor.css), the effect
// schema the page builds its form from, and the effect templates. They are embedded in the
// executable at build time (src/editor/embed_web.cmake), so the server needs no install folder
// and the page loads nothing from anywhere else.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace spindrift::editor {

struct WebAsset {
    const char* path; // the URL path: "/index.html", "/schema/effect.schema.json",
                      // "/templates/fire.json"
    const char* mime;
    const unsigned char* data;
    size_t size;
    std::string_view text() const { return {reinterpret_cast<const char*>(data), size}; }
};

std::span<const WebAsset> webAssets();

// The asset served at path, or nullptr.
const WebAsset* findWebAsset(std::string_view path);

} // namespace spindrift::editor
