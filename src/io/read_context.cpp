#include "io/read_context.h"

namespace spindrift {

namespace {

// Cuts the last ".key" or "[index]" off a JSON path; false at the root.
bool toParentPath(std::string& path) {
    // A key that is not an identifier is written ["key"] (json::pathKey) and may hold '.'.
    const bool quoted = path.size() >= 2 && path.compare(path.size() - 2, 2, "\"]") == 0;
    const size_t cut = quoted ? path.rfind("[\"") : path.find_last_of(".[");
    if (cut == std::string::npos || cut == 0) return false;
    path.resize(cut);
    return true;
}

} // namespace

void ReadContext::error(const std::string& path, const json::SourcePos& pos, std::string message) {
    Diagnostic d;
    d.file = file;
    d.line = pos.line;
    d.column = pos.column;
    d.byte_offset = pos.offset;
    d.path = path;
    d.message = std::move(message);
    diagnostics->push_back(std::move(d));
    reported.insert(path);
    if (diagnostics->size() - first >= 2 * kMaxDiagnosticsPerFile) {
        keepEarliestDiagnostics(*diagnostics, first, kMaxDiagnosticsPerFile, dropped);
    }
}

void ReadContext::place(Diagnostic& d) const {
    const json::SourcePos pos = positionOf(d.path);
    d.file = file;
    d.line = pos.line;
    d.column = pos.column;
    d.byte_offset = pos.offset;
}

json::SourcePos ReadContext::positionOf(std::string path) const {
    do {
        auto it = positions.find(path);
        if (it != positions.end()) return it->second;
    } while (toParentPath(path));
    auto root = positions.find("$");
    return root != positions.end() ? root->second : json::SourcePos{};
}

bool ReadContext::isSuppressed(std::string path) const {
    do {
        if (reported.count(path) != 0) return true;
    } while (toParentPath(path));
    return false;
}

} // namespace spindrift
