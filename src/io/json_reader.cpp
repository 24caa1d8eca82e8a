// The positioned JSON reader: strict RFC 8259, hand-written, with an explicit stack so that
// nesting costs heap, not call depth, and every rejection is one Diagnostic that names where
// (line:column, byte offset, JSON path) and what was found.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "io/json_value.h"
#include "io/utf8.h"

namespace spindrift::json {
namespace {

// Objects with more members than this get a hash index for the duplicate-key check, so a
// 64 MB object of distinct keys costs O(n), not O(n^2).
constexpr size_t kLinearKeyScanLimit = 16;
// Literals, words and keys longer than this are cut in messages.
constexpr size_t kMaxTextInMessage = 40;

std::string hexByte(unsigned char byte) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "0x";
    out += kDigits[byte >> 4];
    out += kDigits[byte & 15];
    return out;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Long literals and keys are cut in messages so one diagnostic stays one line.
std::string shortText(std::string_view text) {
    if (text.size() <= kMaxTextInMessage) return std::string(text);
    return std::string(text.substr(0, kMaxTextInMessage)) + "...";
}

// Escapes '"', '\\' and control characters as JSON does; other bytes pass through.
void appendEscaped(std::string& out, std::string_view text) {
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (byte < 0x20 || byte == 0x7F) {
            out += "\\u00";
            out += hexByte(byte).substr(2);
        } else {
            out += c;
        }
    }
}

// A key as it would be written in JSON, for messages: "na\"me".
std::string quoted(std::string_view text) {
    std::string out = "\"";
    size_t cut = std::min(text.size(), kMaxTextInMessage);
    // Cut on a character boundary so the message stays UTF-8.
    while (cut < text.size() && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;
    }
    appendEscaped(out, text.substr(0, cut));
    if (cut < text.size()) out += "...";
    return out + "\"";
}

// from_chars reports result_out_of_range both for overflow and for values whose nearest
// float is zero; only overflow is an error (1e-400 is a valid literal, and 0 its nearest
// double). The two are told apart by the decimal exponent of the first significant digit:
// overflow needs it at or above 38 (float) or 308 (double), underflow below -45 or -323.
// literal is a decimal floating literal as from_chars reads it: -?d*(.d*)?([eE][+-]?d+)?
bool roundsToZero(std::string_view literal) {
    constexpr int64_t kClamp = int64_t{1} << 40; // a 64 MB literal cannot overflow this
    size_t i = 0;
    if (i < literal.size() && literal[i] == '-') ++i;
    int64_t lead = 0; // exponent of the first significant digit, before the 'e' part
    bool significant = false;
    for (; i < literal.size() && isDigit(literal[i]); ++i) {
        if (significant) {
            lead = std::min(lead + 1, kClamp);
        } else if (literal[i] != '0') {
            significant = true;
        }
    }
    if (i < literal.size() && literal[i] == '.') {
        ++i;
        for (int64_t place = -1; i < literal.size() && isDigit(literal[i]); ++i, --place) {
            if (!significant && literal[i] != '0') {
                significant = true;
                lead = std::max(place, -kClamp);
            }
            if (place < -kClamp) place = -kClamp;
        }
    }
    if (!significant) return true;
    int64_t exponent = 0;
    if (i < literal.size() && (literal[i] == 'e' || literal[i] == 'E')) {
        ++i;
        bool negative = false;
        if (i < literal.size() && (literal[i] == '+' || literal[i] == '-')) {
            negative = literal[i] == '-';
            ++i;
        }
        for (; i < literal.size() && isDigit(literal[i]); ++i) {
            exponent = std::min(exponent * 10 + (literal[i] - '0'), kClamp);
        }
        if (negative) exponent = -exponent;
    }
    return lead + exponent < 0;
}

bool isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_';
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// A container being read: the Value so far plus what the duplicate-key check needs.
struct Frame {
    Value value;
    std::unordered_map<std::string, uint32_t> key_index; // filled past kLinearKeyScanLimit
};

class Parser {
public:
    Parser(std::string_view text, std::string_view file, std::vector<Diagnostic>& diagnostics,
           const ParseOptions& options)
        : text_(text), file_(file), diagnostics_(diagnostics), options_(options) {}

    bool parseDocument(Value& out);

private:
    // --- position and bytes -------------------------------------------------------------
    bool atEnd() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    SourcePos here() const { return at(pos_); }
    SourcePos at(size_t offset) const {
        // Strings cannot hold a raw newline, so every newline before pos_ was counted by
        // skipWhitespace and offset lies on line_.
        SourcePos p;
        p.line = line_;
        p.column = static_cast<uint32_t>(offset - line_start_ + 1);
        p.offset = offset;
        return p;
    }
    void skipWhitespace();
    std::string describeHere() const;

    // --- errors -------------------------------------------------------------------------
    // in_value: the error is inside the value of the innermost pending member or element, so
    // the path names that value; otherwise it names the innermost container.
    bool fail(const SourcePos& p, std::string message, bool in_value);
    std::string currentPath(bool in_value) const;

    // --- pieces -------------------------------------------------------------------------
    bool parseScalar(Value& out);
    bool parseString(std::string& out);
    bool parseEscape(std::string& out);
    bool parseHex4(size_t offset, uint32_t& out);
    bool parseUtf8Sequence(std::string& out);
    bool parseNumber(Value& out);
    bool parseWord(Value& out);
    bool parseKey();
    bool openContainer(Kind kind);

    std::string_view text_;
    std::string_view file_;
    std::vector<Diagnostic>& diagnostics_;
    const ParseOptions& options_;
    uint64_t value_count_ = 0;

    size_t pos_ = 0;
    uint32_t line_ = 1;
    size_t line_start_ = 0;
    std::vector<Frame> stack_;
};

void Parser::skipWhitespace() {
    while (pos_ < text_.size()) {
        char c = text_[pos_];
        if (c == '\n') {
            ++line_;
            line_start_ = pos_ + 1;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            return;
        }
        ++pos_;
    }
}

std::string Parser::describeHere() const {
    if (atEnd()) return "end of input";
    auto byte = static_cast<unsigned char>(peek());
    if (byte >= 0x21 && byte <= 0x7E) return std::string("'") + peek() + "'";
    if (byte < 0x20 || byte == 0x7F) return "control character " + hexByte(byte);
    return "byte " + hexByte(byte);
}

std::string Parser::currentPath(bool in_value) const {
    std::string path = "$";
    for (size_t i = 0; i < stack_.size(); ++i) {
        const Value& v = stack_[i].value;
        bool is_top = i + 1 == stack_.size();
        if (is_top && !in_value) break;
        if (v.kind == Kind::object) {
            // keys runs one ahead of items while a member's value is being read.
            if (v.keys.size() > v.items.size()) path = pathKey(path, v.keys.back());
        } else {
            path = pathIndex(path, v.items.size());
        }
    }
    return path;
}

bool Parser::fail(const SourcePos& p, std::string message, bool in_value) {
    Diagnostic d;
    d.severity = Severity::error;
    d.file = std::string(file_);
    d.line = p.line;
    d.column = p.column;
    d.byte_offset = p.offset;
    d.path = currentPath(in_value);
    d.message = std::move(message);
    diagnostics_.push_back(std::move(d));
    return false;
}

bool Parser::parseDocument(Value& out) {
    if (text_.size() > options_.max_bytes) {
        Diagnostic d;
        d.file = std::string(file_);
        d.message = "input is " + std::to_string(text_.size()) + " bytes, more than the limit of " +
                    std::to_string(options_.max_bytes) + " bytes for " +
                    std::string(options_.document);
        diagnostics_.push_back(std::move(d));
        return false;
    }
    // A UTF-8 byte-order mark is not part of the text; columns on line 1 start after it.
    constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
    if (text_.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
        pos_ = kByteOrderMark.size();
        line_start_ = pos_;
    }
    size_t content_start = pos_;
    skipWhitespace();
    if (atEnd()) {
        return fail(here(), pos_ == content_start ? "empty input" : "empty input (only whitespace)",
                    false);
    }

    Value done; // the value most recently completed, waiting to be attached to its parent
    for (;;) {
        // State: a value is expected at pos_ (whitespace already skipped).
        if (atEnd()) return fail(here(), "unexpected end of input, expected a value", true);
        char c = peek();
        if (c == '{' || c == '[') {
            if (!openContainer(c == '{' ? Kind::object : Kind::array)) return false;
            skipWhitespace();
            char close = c == '{' ? '}' : ']';
            if (!atEnd() && peek() == close) {
                ++pos_;
                done = std::move(stack_.back().value);
                stack_.pop_back();
            } else if (c == '{') {
                if (!parseKey()) return false;
                continue;
            } else {
                continue;
            }
        } else if (!parseScalar(done)) {
            return false;
        }

        // State: `done` is complete; attach it and read what follows, closing containers
        // until a ',' asks for another value.
        for (;;) {
            if (stack_.empty()) {
                skipWhitespace();
                if (!atEnd()) {
                    return fail(here(),
                                "unexpected trailing content after the JSON value: found " +
                                    describeHere(),
                                false);
                }
                out = std::move(done);
                return true;
            }
            Value& parent = stack_.back().value;
            if (++value_count_ > options_.max_values) {
                return fail(here(),
                            "more than " + std::to_string(options_.max_values) + " values in " +
                                std::string(options_.document) +
                                " (the limit; every array element and object member counts)",
                            false);
            }
            parent.items.push_back(std::move(done));
            done = Value();
            skipWhitespace();
            bool is_object = parent.kind == Kind::object;
            char close = is_object ? '}' : ']';
            if (!atEnd() && peek() == ',') {
                ++pos_;
                skipWhitespace();
                if (!atEnd() && peek() == close) {
                    return fail(here(),
                                std::string("trailing comma: expected ") +
                                    (is_object ? "another member" : "another element") +
                                    " after ',', found '" + close + "'",
                                false);
                }
                if (is_object && !parseKey()) return false;
                break;
            }
            if (!atEnd() && peek() == close) {
                ++pos_;
                done = std::move(parent);
                stack_.pop_back();
                continue;
            }
            if (atEnd()) {
                return fail(here(),
                            std::string("unexpected end of input inside ") +
                                (is_object ? "an object" : "an array") + " (opened at " +
                                std::to_string(parent.pos.line) + ":" +
                                std::to_string(parent.pos.column) + "), expected ',' or '" + close +
                                "'",
                            false);
            }
            return fail(here(),
                        std::string("expected ',' or '") + close + "' after " +
                            (is_object ? "object member" : "array element") + ", found " +
                            describeHere(),
                        false);
        }
        skipWhitespace();
    }
}

bool Parser::openContainer(Kind kind) {
    const uint32_t max_depth = std::min(options_.max_depth, kMaxJsonDepth);
    if (stack_.size() >= max_depth) {
        return fail(here(), "nesting deeper than " + std::to_string(max_depth) + " levels", true);
    }
    Frame frame;
    frame.value.kind = kind;
    frame.value.pos = here();
    stack_.push_back(std::move(frame));
    ++pos_;
    return true;
}

// Reads `"key" :` at pos_ (after whitespace) into the top frame, rejecting duplicates.
bool Parser::parseKey() {
    if (atEnd()) {
        return fail(here(), "unexpected end of input inside an object, expected a string key",
                    false);
    }
    if (peek() != '"') {
        std::string hint;
        if (peek() == '\'') hint = " (JSON strings use double quotes)";
        if (isWordChar(peek())) hint = " (keys must be quoted)";
        return fail(here(), "expected a string key, found " + describeHere() + hint, false);
    }
    SourcePos key_pos = here();
    std::string key;
    if (!parseString(key)) return false;

    Frame& frame = stack_.back();
    Value& object = frame.value;
    size_t count = object.keys.size();
    size_t first = count;
    if (count < kLinearKeyScanLimit) {
        for (size_t i = 0; i < count; ++i) {
            if (object.keys[i] == key) {
                first = i;
                break;
            }
        }
    } else {
        if (frame.key_index.empty()) {
            for (size_t i = 0; i < count; ++i) {
                frame.key_index.emplace(object.keys[i], static_cast<uint32_t>(i));
            }
        }
        auto [it, inserted] = frame.key_index.emplace(key, static_cast<uint32_t>(count));
        if (!inserted) first = it->second;
    }
    if (first != count) {
        const SourcePos& p = object.key_positions[first];
        return fail(key_pos,
                    "duplicate key " + quoted(key) + " (first at " + std::to_string(p.line) + ":" +
                        std::to_string(p.column) + ")",
                    false);
    }
    object.keys.push_back(std::move(key));
    object.key_positions.push_back(key_pos);

    skipWhitespace();
    if (atEnd() || peek() != ':') {
        return fail(here(),
                    "expected ':' after object key " + quoted(object.keys.back()) + ", found " +
                        describeHere(),
                    false);
    }
    ++pos_;
    skipWhitespace();
    return true;
}

bool Parser::parseScalar(Value& out) {
    out = Value();
    out.pos = here();
    char c = peek();
    if (c == '"') {
        out.kind = Kind::string;
        return parseString(out.text);
    }
    if (c == '-' || isDigit(c)) {
        out.kind = Kind::number;
        return parseNumber(out);
    }
    if (isWordChar(c)) return parseWord(out);

    std::string hint;
    if (c == '/') hint = " (comments are not allowed in JSON)";
    if (c == '\'') hint = " (JSON strings use double quotes)";
    if (c == '+') hint = " (JSON numbers have no leading '+')";
    if (c == '.') hint = " (JSON numbers need a digit before '.')";
    if (c == ']' || c == '}') hint = " (a container is closed where a value belongs)";
    return fail(here(), "expected a value, found " + describeHere() + hint, true);
}

// true, false, null; and clear messages for NaN, Infinity and other bare words.
bool Parser::parseWord(Value& out) {
    size_t start = pos_;
    size_t end = pos_;
    while (end < text_.size() && isWordChar(text_[end])) ++end;
    std::string_view word = text_.substr(start, end - start);
    if (word == "true" || word == "false") {
        out.kind = Kind::boolean;
        out.boolean = word == "true";
    } else if (word == "null") {
        out.kind = Kind::null;
    } else if (word == "NaN" || word == "nan" || word == "Infinity" || word == "inf" ||
               word == "infinity") {
        return fail(here(),
                    std::string(word) + " is not valid JSON (only finite numbers are allowed)",
                    true);
    } else {
        return fail(here(), "invalid literal '" + shortText(word) + "', expected a value", true);
    }
    pos_ = end;
    return true;
}

// RFC 8259 section 6: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
bool Parser::parseNumber(Value& out) {
    size_t start = pos_;
    size_t p = pos_;
    auto digitsFrom = [&](size_t q) {
        while (q < text_.size() && isDigit(text_[q])) ++q;
        return q;
    };
    if (text_[p] == '-') {
        ++p;
        if (p < text_.size() && text_[p] == 'I') {
            return fail(here(), "-Infinity is not valid JSON (only finite numbers are allowed)",
                        true);
        }
        if (p >= text_.size() || !isDigit(text_[p])) {
            pos_ = p;
            return fail(here(), "expected a digit after '-', found " + describeHere(), true);
        }
    }
    if (text_[p] == '0' && p + 1 < text_.size() && isDigit(text_[p + 1])) {
        return fail(at(start),
                    "leading zeros are not allowed in number '" +
                        shortText(text_.substr(start, digitsFrom(p) - start)) + "'",
                    true);
    }
    p = text_[p] == '0' ? p + 1 : digitsFrom(p);
    if (p < text_.size() && text_[p] == '.') {
        ++p;
        if (p >= text_.size() || !isDigit(text_[p])) {
            std::string literal = shortText(text_.substr(start, p - start));
            pos_ = p;
            return fail(here(),
                        "expected a digit after the decimal point in '" + literal + "', found " +
                            describeHere(),
                        true);
        }
        p = digitsFrom(p);
    }
    if (p < text_.size() && (text_[p] == 'e' || text_[p] == 'E')) {
        ++p;
        if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
        if (p >= text_.size() || !isDigit(text_[p])) {
            std::string literal = shortText(text_.substr(start, p - start));
            pos_ = p;
            return fail(here(),
                        "expected a digit in the exponent of '" + literal + "', found " +
                            describeHere(),
                        true);
        }
        p = digitsFrom(p);
    }
    out.text.assign(text_.substr(start, p - start));

    double value = 0;
    auto result = std::from_chars(out.text.data(), out.text.data() + out.text.size(), value);
    if (result.ec == std::errc::result_out_of_range && !roundsToZero(out.text)) {
        return fail(at(start),
                    "number " + shortText(out.text) + " is out of range (beyond a double)", true);
    }
    pos_ = p;
    return true;
}

bool Parser::parseHex4(size_t offset, uint32_t& out) {
    out = 0;
    for (size_t i = 0; i < 4; ++i) {
        if (offset + i >= text_.size()) {
            pos_ = offset + i;
            return fail(here(), "unexpected end of input inside a \\u escape", true);
        }
        int digit = hexValue(text_[offset + i]);
        if (digit < 0) {
            pos_ = offset + i;
            return fail(here(),
                        "invalid \\u escape: expected 4 hex digits, found " + describeHere(), true);
        }
        out = out * 16 + static_cast<uint32_t>(digit);
    }
    return true;
}

// At a backslash inside a string.
bool Parser::parseEscape(std::string& out) {
    size_t escape_start = pos_;
    ++pos_;
    if (atEnd()) return fail(here(), "unexpected end of input inside a string", true);
    char c = peek();
    switch (c) {
    case '"':
        out += '"';
        break;
    case '\\':
        out += '\\';
        break;
    case '/':
        out += '/';
        break;
    case 'b':
        out += '\b';
        break;
    case 'f':
        out += '\f';
        break;
    case 'n':
        out += '\n';
        break;
    case 'r':
        out += '\r';
        break;
    case 't':
        out += '\t';
        break;
    case 'u': {
        uint32_t unit = 0;
        if (!parseHex4(pos_ + 1, unit)) return false;
        pos_ += 5;
        if (unit >= 0xDC00 && unit <= 0xDFFF) {
            pos_ = escape_start;
            return fail(here(),
                        "invalid \\u escape: unpaired low surrogate \\u" +
                            std::string(text_.substr(escape_start + 2, 4)),
                        true);
        }
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            // RFC 8259 section 7: a character outside the BMP is a \uD8xx\uDCxx pair.
            uint32_t low = 0;
            if (pos_ + 1 >= text_.size() || text_[pos_] != '\\' || text_[pos_ + 1] != 'u') {
                pos_ = escape_start;
                return fail(here(),
                            "invalid \\u escape: high surrogate \\u" +
                                std::string(text_.substr(escape_start + 2, 4)) +
                                " is not followed by a \\u low surrogate",
                            true);
            }
            if (!parseHex4(pos_ + 2, low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) {
                return fail(at(pos_),
                            "invalid \\u escape: high surrogate \\u" +
                                std::string(text_.substr(escape_start + 2, 4)) +
                                " is followed by \\u" + std::string(text_.substr(pos_ + 2, 4)) +
                                ", not a low surrogate",
                            true);
            }
            pos_ += 6;
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
        }
        appendUtf8(out, unit);
        return true;
    }
    default:
        pos_ = escape_start;
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) {
            return fail(here(),
                        "invalid escape: '\\' followed by byte " +
                            hexByte(static_cast<unsigned char>(c)),
                        true);
        }
        return fail(here(),
                    std::string("invalid escape '\\") + c +
                        "' (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                    true);
    }
    ++pos_;
    return true;
}

// At a byte >= 0x80 inside a string. Unicode 15, table 3-7: the well-formed UTF-8 sequences.
bool Parser::parseUtf8Sequence(std::string& out) {
    const utf8::Sequence sequence = utf8::firstSequence(text_.substr(pos_));
    const auto lead = static_cast<unsigned char>(peek());
    if (sequence.expected == 0) {
        const char* why = lead < 0xC0   ? " (a continuation byte without a lead byte)"
                          : lead < 0xC2 ? " (overlong encoding)"
                                        : " (not used in UTF-8)";
        return fail(here(), "invalid UTF-8 byte " + hexByte(lead) + " in string" + why, true);
    }
    if (sequence.length == 0) {
        const size_t p = pos_ + sequence.good;
        pos_ = p;
        if (p >= text_.size()) {
            return fail(here(),
                        "unexpected end of input inside a string (truncated UTF-8 "
                        "sequence)",
                        true);
        }
        return fail(here(),
                    "invalid UTF-8 byte " + hexByte(static_cast<unsigned char>(text_[p])) +
                        " in string (after lead byte " + hexByte(lead) + ")",
                    true);
    }
    out.append(text_.substr(pos_, sequence.length));
    pos_ += sequence.length;
    return true;
}

// At the opening quote. On success pos_ is past the closing quote.
bool Parser::parseString(std::string& out) {
    SourcePos start = here();
    ++pos_;
    for (;;) {
        // Copy the plain run in one go; most strings have no escapes and no non-ASCII.
        size_t run = pos_;
        while (run < text_.size()) {
            auto byte = static_cast<unsigned char>(text_[run]);
            if (byte == '"' || byte == '\\' || byte < 0x20 || byte >= 0x80) break;
            ++run;
        }
        out.append(text_.substr(pos_, run - pos_));
        pos_ = run;
        if (atEnd()) {
            return fail(here(),
                        "unexpected end of input inside a string (the string starts at " +
                            std::to_string(start.line) + ":" + std::to_string(start.column) + ")",
                        true);
        }
        auto byte = static_cast<unsigned char>(peek());
        if (byte == '"') {
            ++pos_;
            return true;
        }
        if (byte == '\\') {
            if (!parseEscape(out)) return false;
        } else if (byte < 0x20) {
            std::string hint = byte == '\n'   ? " (a string cannot span lines; write \\n)"
                               : byte == '\t' ? " (write \\t)"
                                              : " (write it as \\u00XX)";
            return fail(here(),
                        "unescaped control character " + hexByte(byte) + " in string" + hint, true);
        } else if (!parseUtf8Sequence(out)) {
            return false;
        }
    }
}

bool isIdentifier(std::string_view key) {
    if (key.empty() || isDigit(key[0])) return false;
    for (char c : key) {
        if (!isWordChar(c)) return false;
    }
    return true;
}

bool isIntegerLiteral(std::string_view text) {
    return !text.empty() && text.find_first_of(".eE") == std::string_view::npos;
}

} // namespace

const char* kindName(Kind kind) {
    switch (kind) {
    case Kind::null:
        return "null";
    case Kind::boolean:
        return "a boolean";
    case Kind::number:
        return "a number";
    case Kind::string:
        return "a string";
    case Kind::array:
        return "an array";
    case Kind::object:
        return "an object";
    }
    return "an unknown kind";
}

const Value* Value::find(std::string_view key) const {
    if (kind != Kind::object) return nullptr;
    for (size_t i = 0; i < keys.size() && i < items.size(); ++i) {
        if (keys[i] == key) return &items[i];
    }
    return nullptr;
}

bool toFloat(const Value& number, float& out) {
    if (number.kind != Kind::number || number.text.empty()) return false;
    const char* first = number.text.data();
    const char* last = first + number.text.size();
    float value = 0;
    // Converted straight to float (not through double) so the result is the correctly rounded
    // float32, with no double-rounding error.
    auto result = std::from_chars(first, last, value);
    if (result.ptr != last) return false;
    if (result.ec == std::errc::result_out_of_range && roundsToZero(number.text)) {
        out = number.text[0] == '-' ? -0.0f : 0.0f;
        return true;
    }
    if (result.ec != std::errc() || !std::isfinite(value)) return false;
    out = value;
    return true;
}

bool toDouble(const Value& number, double& out) {
    if (number.kind != Kind::number || number.text.empty()) return false;
    const char* first = number.text.data();
    const char* last = first + number.text.size();
    double value = 0;
    auto result = std::from_chars(first, last, value);
    if (result.ptr != last) return false;
    if (result.ec == std::errc::result_out_of_range && roundsToZero(number.text)) {
        out = number.text[0] == '-' ? -0.0 : 0.0;
        return true;
    }
    if (result.ec != std::errc() || !std::isfinite(value)) return false;
    out = value;
    return true;
}

bool toUint32(const Value& number, uint32_t& out) {
    if (number.kind != Kind::number || !isIntegerLiteral(number.text)) return false;
    if (number.text == "-0") {
        out = 0;
        return true;
    }
    const char* first = number.text.data();
    const char* last = first + number.text.size();
    uint32_t value = 0;
    auto result = std::from_chars(first, last, value);
    if (result.ec != std::errc() || result.ptr != last) return false;
    out = value;
    return true;
}

bool toInt64(const Value& number, int64_t& out) {
    if (number.kind != Kind::number || !isIntegerLiteral(number.text)) return false;
    const char* first = number.text.data();
    const char* last = first + number.text.size();
    int64_t value = 0;
    auto result = std::from_chars(first, last, value);
    if (result.ec != std::errc() || result.ptr != last) return false;
    out = value;
    return true;
}

bool parse(std::string_view text, std::string_view file, Value& out,
           std::vector<Diagnostic>& diagnostics, const ParseOptions& options) {
    Parser parser(text, file, diagnostics, options);
    return parser.parseDocument(out);
}

bool topLevelKeys(std::string_view text, std::vector<std::string>& keys) {
    keys.clear();
    size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3; // byte-order mark
    auto skipSpace = [&] {
        while (i < text.size() &&
               (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            ++i;
    };
    skipSpace();
    if (i >= text.size() || text[i] != '{') return false;
    ++i;
    uint64_t depth = 1;
    bool expect_key = true; // at depth 1: the next string is a key
    while (i < text.size()) {
        const char c = text[i];
        if (c == '"') {
            const size_t start = ++i;
            while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
            if (i >= text.size()) return false;
            if (depth == 1 && expect_key) {
                keys.emplace_back(text.substr(start, i - start));
                expect_key = false;
            }
            ++i;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) return true;
        } else if (c == ',' && depth == 1) {
            expect_key = true;
        }
        ++i;
    }
    return false;
}

std::string pathKey(const std::string& parent, std::string_view key) {
    if (isIdentifier(key)) return parent + "." + std::string(key);
    std::string out = parent + "[\"";
    appendEscaped(out, key);
    return out + "\"]";
}

std::string pathIndex(const std::string& parent, size_t index) {
    return parent + "[" + std::to_string(index) + "]";
}

} // namespace spindrift::json
