// libFuzzer target for the JSON reader. Any bytes must give either a document or exactly one
// positioned diagnostic. A document, written back with the canonical Writer, must read back to
// the same values, and writing that again must give the same text (the writer is canonical).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_value.h"
#include "io/json_writer.h"

namespace {

using spindrift::Diagnostic;
namespace json = spindrift::json;

void check(bool condition) {
    if (!condition) std::abort();
}

uint32_t bitsOf(float f) {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
}

// Integers that fit int64 are written as integers, other numbers as the nearest float. A
// number beyond float range has no exact Writer form, so it is written as a string of its
// literal; sameValue expects that.
void writeValue(json::Writer& w, const json::Value& v) {
    switch (v.kind) {
    case json::Kind::null:
        w.null();
        break;
    case json::Kind::boolean:
        w.value(v.boolean);
        break;
    case json::Kind::string:
        w.value(std::string_view(v.text));
        break;
    case json::Kind::number: {
        int64_t i = 0;
        float f = 0;
        // "-0" goes through float so the sign survives and the rewrite is stable.
        if (json::toInt64(v, i) && !(i == 0 && v.text[0] == '-')) {
            w.value(i);
        } else if (json::toFloat(v, f)) {
            w.value(f);
        } else {
            w.value(std::string_view(v.text));
        }
        break;
    }
    case json::Kind::array:
        w.beginArray();
        for (const json::Value& item : v.items) writeValue(w, item);
        w.endArray();
        break;
    case json::Kind::object:
        w.beginObject();
        for (size_t i = 0; i < v.items.size(); ++i) {
            w.key(v.keys[i]);
            writeValue(w, v.items[i]);
        }
        w.endObject();
        break;
    }
}

// Recursion is bounded by ParseOptions::max_depth (64).
bool sameValue(const json::Value& original, const json::Value& copy) {
    if (original.kind == json::Kind::number) {
        int64_t a = 0;
        int64_t b = 0;
        float fa = 0;
        float fb = 0;
        if (json::toInt64(original, a)) return json::toInt64(copy, b) && a == b;
        if (json::toFloat(original, fa)) {
            return json::toFloat(copy, fb) && bitsOf(fa) == bitsOf(fb);
        }
        double d = 0;
        check(json::toDouble(original, d)); // the reader refuses what a double cannot hold
        return copy.kind == json::Kind::string && copy.text == original.text;
    }
    if (original.kind != copy.kind) return false;
    switch (original.kind) {
    case json::Kind::null:
        return true;
    case json::Kind::boolean:
        return original.boolean == copy.boolean;
    case json::Kind::string:
        return original.text == copy.text;
    case json::Kind::number:
        return false;
    case json::Kind::array:
    case json::Kind::object:
        if (original.items.size() != copy.items.size() || original.keys != copy.keys) {
            return false;
        }
        for (size_t i = 0; i < original.items.size(); ++i) {
            if (!sameValue(original.items[i], copy.items[i])) return false;
        }
        return true;
    }
    return false;
}

void checkPositions(const json::Value& v, size_t size) {
    check(v.pos.line >= 1 && v.pos.column >= 1 && v.pos.offset < size);
    check(v.keys.size() == v.key_positions.size());
    check(v.kind != json::Kind::object || v.keys.size() == v.items.size());
    for (const json::SourcePos& p : v.key_positions)
        check(p.offset < size && p.offset > v.pos.offset);
    for (const json::Value& item : v.items) {
        check(item.pos.offset > v.pos.offset);
        checkPositions(item, size);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    json::Value value;
    std::vector<Diagnostic> diagnostics;
    bool ok = json::parse(text, "fuzz.json", value, diagnostics);
    if (!ok) {
        check(diagnostics.size() == 1);
        const Diagnostic& d = diagnostics[0];
        check(!d.message.empty() && d.line >= 1 && d.column >= 1 && d.byte_offset <= size);
        check(!d.path.empty() && d.path[0] == '$');
        return 0;
    }
    check(diagnostics.empty());
    checkPositions(value, size);

    json::Writer writer;
    writeValue(writer, value);
    json::Value again;
    check(json::parse(writer.text(), "rewritten.json", again, diagnostics));
    check(sameValue(value, again));

    json::Writer second;
    writeValue(second, again);
    check(second.text() == writer.text());
    return 0;
}
