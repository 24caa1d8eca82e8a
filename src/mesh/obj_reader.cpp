#include "mesh/obj_reader.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <unordered_map>

#include <tiny_obj_loader.h>

namespace spindrift {

namespace {

// tinyobjloader keeps a face's vertex count in an unsigned char.
constexpr size_t kMaxFaceVertices = 255;

Diagnostic objError(std::string_view file, uint32_t line, std::string message) {
    Diagnostic d;
    d.severity = Severity::error;
    d.file = std::string(file);
    d.line = line;
    d.message = std::move(message);
    return d;
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

// The whitespace-separated tokens of one line.
std::vector<std::string_view> tokens(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isSpace(line[i])) ++i;
        const size_t start = i;
        while (i < line.size() && !isSpace(line[i])) ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

std::string quoted(std::string_view token) {
    constexpr size_t kShown = 32;
    return "'" + std::string(token.substr(0, kShown)) + (token.size() > kShown ? "...'" : "'");
}

// Counts of what the lines above the current one defined, for face-index checks.
struct ScanState {
    int64_t positions = 0;
    int64_t texcoords = 0;
    int64_t normals = 0;
    uint64_t triangles = 0;
};

// One number of a v / vn / vt line: a decimal that is finite as a float (the mesh's type).
bool finiteNumber(std::string_view token) {
    double value = 0;
    const char* end = token.data() + token.size();
    auto [ptr, ec] = std::from_chars(token.data(), end, value);
    return ec == std::errc() && ptr == end &&
           std::fabs(value) <= double(std::numeric_limits<float>::max());
}

// A face index as OBJ writes it: 1-based, or negative counting back from the last one defined.
// Empty where the face leaves it out (v//vn). An error message when it is not a valid index
// into `defined` elements.
std::string checkIndex(std::string_view text, int64_t defined, const char* what, bool required) {
    if (text.empty()) return required ? std::string("a face vertex without a ") + what : "";
    int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end) {
        return std::string(what) + " index " + quoted(text) + " is not an integer";
    }
    if (value == 0) return std::string(what) + " index 0 (OBJ indices start at 1)";
    const int64_t resolved = value > 0 ? value - 1 : defined + value;
    if (resolved < 0 || resolved >= defined) {
        return std::string(what) + " index " + std::to_string(value) +
               " is out of range: " + std::to_string(defined) + " " + what +
               (defined == 1 ? "" : "s") + " defined above this line";
    }
    return "";
}

// One face vertex, v, v/vt, v//vn or v/vt/vn.
std::string checkFaceVertex(std::string_view token, const ScanState& s) {
    const size_t slash1 = token.find('/');
    const std::string_view v = token.substr(0, slash1);
    std::string_view vt;
    std::string_view vn;
    if (slash1 != std::string_view::npos) {
        const std::string_view rest = token.substr(slash1 + 1);
        const size_t slash2 = rest.find('/');
        vt = rest.substr(0, slash2);
        if (slash2 != std::string_view::npos) {
            vn = rest.substr(slash2 + 1);
            if (vn.find('/') != std::string_view::npos) {
                return "face vertex " + quoted(token) + " has more than three parts";
            }
        }
    }
    std::string error = checkIndex(v, s.positions, "position", true);
    if (error.empty()) error = checkIndex(vt, s.texcoords, "texture coordinate", false);
    if (error.empty()) error = checkIndex(vn, s.normals, "normal", false);
    return error;
}

// The statements read, each checked strictly before tinyobjloader sees the text (it turns a
// malformed number into 0 and an out-of-range index into a wild one): an error message for line
// `words`, or "" when it is fine.
std::string checkLine(const std::vector<std::string_view>& words, ScanState& s) {
    const std::string_view keyword = words[0];
    const size_t values = words.size() - 1;
    auto numbers = [&](size_t least, size_t most, const char* what) -> std::string {
        if (values < least || values > most) {
            return std::string(what) + " has " + std::to_string(values) + " numbers; expected " +
                   (least == most ? std::to_string(least)
                                  : std::to_string(least) + " to " + std::to_string(most));
        }
        for (size_t i = 1; i < words.size(); ++i) {
            if (!finiteNumber(words[i])) {
                return std::string(what) + ": " + quoted(words[i]) + " is not a finite number";
            }
        }
        return "";
    };
    if (keyword == "v") {
        ++s.positions;
        return numbers(3, 7, "a position (v)"); // x y z, then w or a colour r g b
    }
    if (keyword == "vn") {
        ++s.normals;
        return numbers(3, 3, "a normal (vn)");
    }
    if (keyword == "vt") {
        ++s.texcoords;
        return numbers(1, 3, "a texture coordinate (vt)");
    }
    if (keyword == "f") {
        if (values < 3) {
            return "a face (f) has " + std::to_string(values) + " vertices; it needs at least 3";
        }
        if (values > kMaxFaceVertices) {
            return "a face (f) has " + std::to_string(values) + " vertices; at most " +
                   std::to_string(kMaxFaceVertices) + " are read";
        }
        for (size_t i = 1; i < words.size(); ++i) {
            std::string error = checkFaceVertex(words[i], s);
            if (!error.empty()) return error;
        }
        s.triangles += values - 2;
        if (s.triangles > kMaxMeshTriangles) {
            return "more than " + std::to_string(kMaxMeshTriangles) +
                   " triangles (kMaxMeshTriangles): too large for a particle mesh";
        }
        return "";
    }
    // Read by tinyobjloader and ignored here: names, groups, materials, smoothing groups, lines
    // and points.
    for (const char* ignored : {"o", "g", "s", "usemtl", "mtllib", "l", "p"}) {
        if (keyword == ignored) return "";
    }
    return "unknown statement " + quoted(keyword) +
           " (read: v, vn, vt, f, s, o, g, usemtl, mtllib, l, p and # comments)";
}

// Checks every line. On an error appends it (with its line number) and returns false.
bool scanObj(std::string_view text, std::string_view file, std::vector<Diagnostic>& diagnostics) {
    if (text.find('\0') != std::string_view::npos) {
        diagnostics.push_back(objError(file, 0, "a NUL byte: not an OBJ text file"));
        return false;
    }
    ScanState state;
    uint32_t line_number = 0;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        ++line_number;
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        const std::vector<std::string_view> words = tokens(line);
        if (words.empty() || words[0].front() == '#') continue;
        std::string error = checkLine(words, state);
        if (!error.empty()) {
            diagnostics.push_back(objError(file, line_number, std::move(error)));
            return false;
        }
    }
    if (state.triangles == 0) {
        diagnostics.push_back(
            objError(file, 0, "no triangles: a mesh needs at least one face (f) of 3 vertices"));
        return false;
    }
    return true;
}

vec3 attribute(const std::vector<tinyobj::real_t>& values, int index) {
    const size_t i = static_cast<size_t>(index) * 3;
    return vec3(values[i], values[i + 1], values[i + 2]);
}

// The triangle's normal scaled by twice its area (zero for a degenerate triangle).
vec3 areaNormal(vec3 a, vec3 b, vec3 c) {
    return cross(b - a, c - a);
}

vec3 unitOr(vec3 v, vec3 fallback) {
    const float l = length(v);
    return l > 0.0f && std::isfinite(l) ? v / l : fallback;
}

struct Corner {
    int position;
    int normal;   // -1: none
    int texcoord; // -1: none
};

// The triangles of every face (fans around each polygon's first vertex), with their normals.
bool buildTriangles(const tinyobj::attrib_t& attrib, const std::vector<tinyobj::shape_t>& shapes,
                    std::string_view file, MeshData& out, std::vector<Diagnostic>& diagnostics) {
    const int positions = static_cast<int>(attrib.vertices.size() / 3);
    const int normals = static_cast<int>(attrib.normals.size() / 3);
    const int texcoords = static_cast<int>(attrib.texcoords.size() / 2); // (u, v) each
    struct Triangle {
        Corner corners[3];
        unsigned smoothing_group;
    };
    auto fail = [&](const char* why) {
        diagnostics.push_back(objError(file, 0, why));
        return false;
    };
    // Smooth normals: per (smoothing group, position), the sum of the area normals of the
    // group's faces there (each polygon counted once, whatever its number of triangles).
    auto smoothKey = [](unsigned group, int position) {
        return uint64_t{group} << 32 | static_cast<uint32_t>(position);
    };
    // The scan accepted each number as a finite decimal; tinyobjloader's own conversion can
    // still differ on the edges (it reads "0.e7996" as 0 x 10^7996, NaN), so check what it read.
    for (const auto* values : {&attrib.vertices, &attrib.normals, &attrib.texcoords}) {
        for (size_t i = 0; i < values->size(); ++i) {
            if (std::isfinite((*values)[i])) continue;
            const bool uv = values == &attrib.texcoords;
            const char* what = values == &attrib.vertices ? "position "
                               : uv                       ? "texture coordinate "
                                                          : "normal ";
            diagnostics.push_back(objError(file, 0,
                                           std::string(what) +
                                               std::to_string(i / (uv ? 2 : 3) + 1) +
                                               " reads as a number that is not finite"));
            return false;
        }
    }
    std::unordered_map<uint64_t, vec3> smooth;
    std::vector<Triangle> triangles;
    for (const tinyobj::shape_t& shape : shapes) {
        const tinyobj::mesh_t& mesh = shape.mesh;
        size_t offset = 0;
        for (size_t f = 0; f < mesh.num_face_vertices.size(); ++f) {
            const size_t n = mesh.num_face_vertices[f];
            if (n < 3 || offset + n > mesh.indices.size()) {
                return fail("a face the reader could not split");
            }
            // The scan checked every index against what was defined above it; this guards the
            // arrays.
            for (size_t k = 0; k < n; ++k) {
                const tinyobj::index_t& i = mesh.indices[offset + k];
                if (i.vertex_index < 0 || i.vertex_index >= positions || i.normal_index < -1 ||
                    i.normal_index >= normals || i.texcoord_index < -1 ||
                    i.texcoord_index >= texcoords) {
                    return fail("a face index is out of range");
                }
            }
            const unsigned group =
                f < mesh.smoothing_group_ids.size() ? mesh.smoothing_group_ids[f] : 0u;
            auto corner = [&](size_t k) {
                const tinyobj::index_t& i = mesh.indices[offset + k];
                return Corner{i.vertex_index, i.normal_index, i.texcoord_index};
            };
            vec3 face_normal(0.0f);
            for (size_t k = 1; k + 1 < n; ++k) {
                const Triangle t{{corner(0), corner(k), corner(k + 1)}, group};
                face_normal += areaNormal(attribute(attrib.vertices, t.corners[0].position),
                                          attribute(attrib.vertices, t.corners[1].position),
                                          attribute(attrib.vertices, t.corners[2].position));
                triangles.push_back(t);
                if (triangles.size() > kMaxMeshTriangles) {
                    return fail("more than kMaxMeshTriangles triangles");
                }
            }
            if (group != 0) {
                for (size_t k = 0; k < n; ++k)
                    smooth[smoothKey(group, corner(k).position)] += face_normal;
            }
            offset += n;
        }
    }
    if (triangles.empty()) return fail("no triangles: a mesh needs at least one face (f)");

    out.vertices.clear();
    out.vertices.reserve(triangles.size() * 3);
    for (const Triangle& t : triangles) {
        vec3 p[3];
        for (int k = 0; k < 3; ++k) p[k] = attribute(attrib.vertices, t.corners[k].position);
        const vec3 flat = unitOr(areaNormal(p[0], p[1], p[2]), vec3(0.0f, 1.0f, 0.0f));
        const bool authored =
            t.corners[0].normal >= 0 && t.corners[1].normal >= 0 && t.corners[2].normal >= 0;
        for (int k = 0; k < 3; ++k) {
            vec3 n = flat;
            if (authored) {
                n = unitOr(attribute(attrib.normals, t.corners[k].normal), flat);
            } else if (t.smoothing_group != 0) {
                n = unitOr(smooth[smoothKey(t.smoothing_group, t.corners[k].position)], flat);
            }
            // OBJ's v runs up the image; the texture's rows run down (MeshVertex).
            vec2 uv(0.0f);
            if (t.corners[k].texcoord >= 0) {
                const size_t at = size_t(t.corners[k].texcoord) * 2;
                uv = vec2(attrib.texcoords[at], 1.0f - attrib.texcoords[at + 1]);
            }
            out.vertices.push_back({vec4(p[k], uv.x), vec4(n, uv.y)});
        }
    }
    return true;
}

} // namespace

bool parseObj(std::span<const char> text, std::string_view file, MeshData& out,
              std::vector<Diagnostic>& diagnostics) {
    out.vertices.clear();
    if (text.size() > kMaxObjBytes) {
        diagnostics.push_back(objError(file, 0,
                                       "the file has " + std::to_string(text.size()) +
                                           " bytes; at most " + std::to_string(kMaxObjBytes) +
                                           " (kMaxObjBytes) are read"));
        return false;
    }
    const std::string_view view(text.data(), text.size());
    if (!scanObj(view, file, diagnostics)) return false;

    tinyobj::ObjReaderConfig config;
    config.triangulate = false; // fans are split here: the same rule for every polygon
    config.vertex_color = false;
    tinyobj::ObjReader reader;
    if (!reader.ParseFromString(std::string(view), std::string(), config)) {
        std::string why = reader.Error();
        while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
        diagnostics.push_back(
            objError(file, 0, "malformed OBJ: " + (why.empty() ? std::string("unknown") : why)));
        return false;
    }
    if (!buildTriangles(reader.GetAttrib(), reader.GetShapes(), file, out, diagnostics)) {
        out.vertices.clear();
        return false;
    }
    return true;
}

bool readObj(std::string_view path, MeshData& out, std::vector<Diagnostic>& diagnostics) {
    out.vertices.clear();
    const std::string name(path);
    std::ifstream in(name, std::ios::binary);
    if (!in) {
        diagnostics.push_back(
            objError(path, 0, std::string("cannot open the OBJ file: ") + std::strerror(errno)));
        return false;
    }
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxObjBytes) {
            diagnostics.push_back(objError(path, 0,
                                           "the file is larger than " +
                                               std::to_string(kMaxObjBytes) +
                                               " bytes (kMaxObjBytes)"));
            return false;
        }
    }
    if (in.bad()) {
        diagnostics.push_back(objError(path, 0, "cannot read the OBJ file"));
        return false;
    }
    return parseObj(text, path, out, diagnostics);
}

} // namespace spindrift
