// The canonical JSON writer. Canonical means one text per document: the same values always give
// the same bytes, so saved effects diff cleanly and load -> save reproduces a canonical file.
#include "io/json_writer.h"

#include <cassert>
#include <charconv>
#include <cmath>

#include "io/utf8.h"

namespace spindrift::json {
namespace {

constexpr size_t kIndentSpaces = 2;

// RFC 8259 section 7. The five control characters with a short escape use it (as RFC 8785
// canonical JSON does); the other controls are written \u00XX.
void appendString(std::string& out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD"; // U+FFFD
    out += '"';
    size_t i = 0;
    while (i < text.size()) {
        auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            switch (byte) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (byte < 0x20) {
                    out += "\\u00";
                    out += kHex[byte >> 4];
                    out += kHex[byte & 15];
                } else {
                    out += static_cast<char>(byte);
                }
            }
            ++i;
            continue;
        }
        // Strings built in code may hold bytes that are not UTF-8; JSON text must be UTF-8, so
        // each ill-formed sequence becomes U+FFFD (Unicode 15, section 3.9, "maximal subpart")
        // and the output always reads back.
        const utf8::Sequence sequence = utf8::firstSequence(text.substr(i));
        if (sequence.length != 0) {
            out.append(text.substr(i, sequence.length));
            i += sequence.length;
        } else {
            out += kReplacement;
            i += sequence.good == 0 ? 1 : sequence.good;
        }
    }
    out += '"';
}

} // namespace

std::string formatFloat(float f) {
    assert(std::isfinite(f) && "formatFloat needs a finite value");
    // std::to_chars without a format or precision gives the shortest text that reads back to
    // the same float (C++17 [charconv.to.chars]); integral values come out as "2", -0 as "-0".
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), f);
    std::string text(buffer, result.ptr);
    // Canonical exponent: "1e+20" -> "1e20", "1.5e-07" -> "1.5e-7".
    size_t e = text.find('e');
    if (e != std::string::npos) {
        size_t digits = e + 1;
        if (digits < text.size() && text[digits] == '+') text.erase(digits, 1);
        if (digits < text.size() && text[digits] == '-') ++digits;
        while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
    }
    return text;
}

void Writer::newline() {
    out_ += '\n';
    out_.append(is_object_.size() * kIndentSpaces, ' ');
}

// Places what comes next: after "key": nothing; in an array a ',' (unless first) and a new
// line; at the top level nothing.
void Writer::beforeValue() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (is_object_.empty()) return;
    assert(!is_object_.back() && "a value in an object needs a key first");
    if (has_members_.back()) out_ += ',';
    has_members_.back() = true;
    newline();
}

void Writer::beginObject() {
    beforeValue();
    out_ += '{';
    has_members_.push_back(false);
    is_object_.push_back(true);
}

void Writer::endObject() {
    assert(!is_object_.empty() && is_object_.back() && !after_key_);
    bool had_members = has_members_.back();
    has_members_.pop_back();
    is_object_.pop_back();
    if (had_members) newline();
    out_ += '}';
    if (is_object_.empty()) out_ += '\n';
}

void Writer::beginArray() {
    beforeValue();
    out_ += '[';
    has_members_.push_back(false);
    is_object_.push_back(false);
}

void Writer::endArray() {
    assert(!is_object_.empty() && !is_object_.back());
    bool had_members = has_members_.back();
    has_members_.pop_back();
    is_object_.pop_back();
    if (had_members) newline();
    out_ += ']';
    if (is_object_.empty()) out_ += '\n';
}

void Writer::key(std::string_view name) {
    assert(!is_object_.empty() && is_object_.back() && !after_key_);
    if (has_members_.back()) out_ += ',';
    has_members_.back() = true;
    newline();
    appendString(out_, name);
    out_ += ": ";
    after_key_ = true;
}

void Writer::value(std::string_view text) {
    beforeValue();
    appendString(out_, text);
    if (is_object_.empty()) out_ += '\n';
}

void Writer::value(bool b) {
    beforeValue();
    out_ += b ? "true" : "false";
    if (is_object_.empty()) out_ += '\n';
}

void Writer::value(float f) {
    beforeValue();
    // JSON has no NaN or infinity. A non-finite float here is a caller bug (validated data is
    // finite); null keeps the text parseable and the reader then names the place.
    out_ += std::isfinite(f) ? formatFloat(f) : "null";
    if (is_object_.empty()) out_ += '\n';
}

void Writer::value(uint32_t u) {
    beforeValue();
    out_ += std::to_string(u);
    if (is_object_.empty()) out_ += '\n';
}

void Writer::value(int64_t i) {
    beforeValue();
    out_ += std::to_string(i);
    if (is_object_.empty()) out_ += '\n';
}

void Writer::null() {
    beforeValue();
    out_ += "null";
    if (is_object_.empty()) out_ += '\n';
}

void Writer::inlineArray(const float* values, size_t count) {
    beforeValue();
    out_ += '[';
    for (size_t i = 0; i < count; ++i) {
        if (i != 0) out_ += ", ";
        out_ += std::isfinite(values[i]) ? formatFloat(values[i]) : "null";
    }
    out_ += ']';
    if (is_object_.empty()) out_ += '\n';
}

} // namespace spindrift::json
