#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "io/json_value.h"

namespace spindrift::json {
namespace {

struct Parsed {
    bool ok = false;
    Value value;
    std::vector<Diagnostic> diagnostics;
};

Parsed parseText(std::string_view text, const ParseOptions& options = {}) {
    Parsed p;
    p.ok = parse(text, "in.json", p.value, p.diagnostics, options);
    return p;
}

// Parses text that must be rejected and checks the one diagnostic it gives.
void expectRejected(std::string_view text, uint32_t line, uint32_t column,
                    const std::string& message, const std::string& path = "$") {
    SCOPED_TRACE(std::string("input: ") + std::string(text.substr(0, 80)));
    Parsed p = parseText(text);
    EXPECT_FALSE(p.ok);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    const Diagnostic& d = p.diagnostics[0];
    EXPECT_EQ(d.severity, Severity::error);
    EXPECT_EQ(d.file, "in.json");
    EXPECT_EQ(d.line, line);
    EXPECT_EQ(d.column, column);
    EXPECT_EQ(d.message, message);
    EXPECT_EQ(d.path, path);
}

Value numberValue(std::string text) {
    Value v;
    v.kind = Kind::number;
    v.text = std::move(text);
    return v;
}

uint32_t bitsOf(float f) {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
}

// --- accepted documents and positions ------------------------------------------------------

TEST(JsonReader, ReadsEveryKindAndKeepsNumberLiterals) {
    Parsed p = parseText(R"({"n": null, "t": true, "f": false, "x": -12.50e+3, "s": "hi",)"
                         R"( "a": [], "o": {}})");
    ASSERT_TRUE(p.ok);
    const Value& v = p.value;
    ASSERT_EQ(v.kind, Kind::object);
    ASSERT_EQ(v.keys.size(), 7u);
    ASSERT_EQ(v.items.size(), 7u);
    EXPECT_EQ(v.find("n")->kind, Kind::null);
    EXPECT_EQ(v.find("t")->kind, Kind::boolean);
    EXPECT_TRUE(v.find("t")->boolean);
    EXPECT_FALSE(v.find("f")->boolean);
    EXPECT_EQ(v.find("x")->kind, Kind::number);
    EXPECT_EQ(v.find("x")->text, "-12.50e+3");
    EXPECT_EQ(v.find("s")->text, "hi");
    EXPECT_EQ(v.find("a")->kind, Kind::array);
    EXPECT_TRUE(v.find("a")->items.empty());
    EXPECT_EQ(v.find("o")->kind, Kind::object);
    EXPECT_EQ(v.find("missing"), nullptr);
    EXPECT_EQ(v.items[0].find("n"), nullptr); // find on a non-object
}

TEST(JsonReader, RecordsLineColumnAndOffsetOfNestedValuesAndKeys) {
    // Byte offsets: line 1 "{\n" = 0..1, line 2 starts at 2, line 3 at 2+len(line 2)+1.
    const std::string text = "{\n"
                             "  \"emitters\": [\n"
                             "    {\"rate\": 5, \"name\" : \"a\"},\n"
                             "\t[true]\n"
                             "  ]\n"
                             "}\n";
    Parsed p = parseText(text);
    ASSERT_TRUE(p.ok);
    const Value& root = p.value;
    EXPECT_EQ(root.pos.line, 1u);
    EXPECT_EQ(root.pos.column, 1u);
    EXPECT_EQ(root.pos.offset, 0u);
    EXPECT_EQ(root.key_positions[0].line, 2u);
    EXPECT_EQ(root.key_positions[0].column, 3u);
    EXPECT_EQ(root.key_positions[0].offset, 4u);

    const Value& emitters = root.items[0];
    EXPECT_EQ(emitters.pos.line, 2u);
    EXPECT_EQ(emitters.pos.column, 15u);
    EXPECT_EQ(emitters.pos.offset, text.find('['));

    const Value& first = emitters.items[0];
    EXPECT_EQ(first.pos.line, 3u);
    EXPECT_EQ(first.pos.column, 5u);
    EXPECT_EQ(first.key_positions[0].column, 6u); // "rate"
    EXPECT_EQ(first.items[0].pos.column, 14u);    // 5
    EXPECT_EQ(first.items[0].pos.offset, text.find('5'));
    EXPECT_EQ(first.key_positions[1].column, 17u); // "name"
    EXPECT_EQ(first.items[1].pos.column, 26u);     // "a", after " : "

    const Value& second = emitters.items[1];
    EXPECT_EQ(second.pos.line, 4u);
    EXPECT_EQ(second.pos.column, 2u); // a tab is one byte
    EXPECT_EQ(second.items[0].pos.line, 4u);
    EXPECT_EQ(second.items[0].pos.column, 3u);
    EXPECT_EQ(second.items[0].pos.offset, text.find("true"));
}

TEST(JsonReader, CountsCrLfAsOneLine) {
    Parsed p = parseText("[\r\n1,\r\n  2]");
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.value.items[0].pos.line, 2u);
    EXPECT_EQ(p.value.items[0].pos.column, 1u);
    EXPECT_EQ(p.value.items[1].pos.line, 3u);
    EXPECT_EQ(p.value.items[1].pos.column, 3u);
    EXPECT_EQ(p.value.items[1].pos.offset, 9u);
}

TEST(JsonReader, SkipsByteOrderMarkAndCountsColumnsAfterIt) {
    Parsed p = parseText("\xEF\xBB\xBF[7]");
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.value.pos.column, 1u);
    EXPECT_EQ(p.value.pos.offset, 3u);
    EXPECT_EQ(p.value.items[0].pos.column, 2u);
    EXPECT_EQ(p.value.items[0].text, "7");
}

TEST(JsonReader, ReadsScalarDocuments) {
    Parsed p = parseText("  \"x\"  ");
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.value.kind, Kind::string);
    EXPECT_EQ(p.value.pos.column, 3u);
    Parsed n = parseText("0");
    ASSERT_TRUE(n.ok);
    EXPECT_EQ(n.value.text, "0");
}

TEST(JsonReader, AcceptsEveryNumberForm) {
    for (const char* literal : {"0", "-0", "7", "-7", "10", "0.5", "-0.25", "1e3", "1E3", "1e+3",
                                "1e-3", "1.5E-07", "123456789012345678901234567890",
                                "0e99999999999999999999", "1e-400", "-1e-99999999999"}) {
        SCOPED_TRACE(literal);
        Parsed p = parseText(literal);
        ASSERT_TRUE(p.ok);
        EXPECT_EQ(p.value.kind, Kind::number);
        EXPECT_EQ(p.value.text, literal);
    }
}

TEST(JsonReader, DecodesEscapes) {
    Parsed p = parseText(R"(["\" \\ \/ \b \f \n \r \t", "\u0041\u00e9\u20AC", "\u0000"])");
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.value.items[0].text, "\" \\ / \b \f \n \r \t");
    EXPECT_EQ(p.value.items[1].text, "A\xC3\xA9\xE2\x82\xAC"); // A, e-acute, euro sign
    EXPECT_EQ(p.value.items[2].text, std::string(1, '\0'));
}

TEST(JsonReader, DecodesSurrogatePairsToFourByteUtf8) {
    // U+1F600 = D83D DE00; U+10000 = D800 DC00; U+10FFFF = DBFF DFFF.
    Parsed p = parseText(R"(["\ud83d\ude00", "\uD800\uDC00", "\udbff\udfff"])");
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.value.items[0].text, "\xF0\x9F\x98\x80");
    EXPECT_EQ(p.value.items[1].text, "\xF0\x90\x80\x80");
    EXPECT_EQ(p.value.items[2].text, "\xF4\x8F\xBF\xBF");
}

TEST(JsonReader, AcceptsWellFormedUtf8OfEveryLength) {
    // Boundary characters of each row of Unicode table 3-7.
    const std::string chars[] = {"\xC2\x80",         "\xDF\xBF",         "\xE0\xA0\x80",
                                 "\xED\x9F\xBF",     "\xEE\x80\x80",     "\xEF\xBF\xBF",
                                 "\xF0\x90\x80\x80", "\xF3\xBF\xBF\xBF", "\xF4\x8F\xBF\xBF"};
    for (const std::string& c : chars) {
        Parsed p = parseText("\"" + c + "\"");
        ASSERT_TRUE(p.ok) << (p.diagnostics.empty() ? "" : p.diagnostics[0].message);
        EXPECT_EQ(p.value.text, c);
    }
}

TEST(JsonReader, AcceptsNestingUpToTheLimit) {
    std::string text = std::string(64, '[') + std::string(64, ']');
    Parsed p = parseText(text);
    ASSERT_TRUE(p.ok);
    const Value* v = &p.value;
    int depth = 1;
    while (!v->items.empty()) {
        v = &v->items[0];
        ++depth;
    }
    EXPECT_EQ(depth, 64);
}

TEST(JsonReader, RejectsNestingPastTheLimit) {
    std::string text = std::string(65, '[') + std::string(65, ']');
    Parsed p = parseText(text);
    EXPECT_FALSE(p.ok);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message, "nesting deeper than 64 levels");
    EXPECT_EQ(p.diagnostics[0].column, 65u);
    std::string expected_path = "$"; // the 65th container would be element 0 of the 64th
    for (int i = 0; i < 64; ++i) expected_path += "[0]";
    EXPECT_EQ(p.diagnostics[0].path, expected_path);
}

TEST(JsonReader, RejectsMegabyteOfOpenBracketsWithoutOverflow) {
    std::string text(1 << 20, '[');
    Parsed p = parseText(text);
    EXPECT_FALSE(p.ok);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message, "nesting deeper than 64 levels");
    std::string objects;
    for (int i = 0; i < 200000; ++i) objects += "{\"a\":";
    p = parseText(objects);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message, "nesting deeper than 64 levels");
}

TEST(JsonReader, HonoursACustomDepthAndSizeLimit) {
    ParseOptions options;
    options.max_depth = 2;
    EXPECT_TRUE(parseText("[[1]]", options).ok);
    Parsed p = parseText("[[[1]]]", options);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message, "nesting deeper than 2 levels");

    options.max_bytes = 4;
    EXPECT_TRUE(parseText("[12]", options).ok);
    p = parseText("[123]", options);
    EXPECT_FALSE(p.ok);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message,
              "input is 5 bytes, more than the limit of 4 bytes for the document");
    EXPECT_EQ(p.diagnostics[0].line, 0u); // refused before reading, so no text position
}

TEST(JsonReader, RefusesMoreValuesThanTheLimit) {
    ParseOptions options;
    options.max_values = 3;
    EXPECT_TRUE(parseText("[0, 0, 0]", options).ok);
    Parsed p = parseText("[0, 0, 0, 0]", options);
    EXPECT_FALSE(p.ok);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message,
              "more than 3 values in the document (the limit; every array element and "
              "object member counts)");
    // Members of nested objects count too.
    EXPECT_TRUE(parseText(R"({"a": {"b": 1, "c": 2}})", options).ok);
    EXPECT_FALSE(parseText(R"({"a": {"b": 1, "c": 2}, "d": 3})", options).ok);
}

TEST(JsonReader, CapsTheDepthWhateverTheCallerAsks) {
    ParseOptions options;
    options.max_depth = 1u << 30;
    const std::string deep(kMaxJsonDepth + 1, '[');
    Parsed p = parseText(deep, options);
    EXPECT_FALSE(p.ok);
    ASSERT_EQ(p.diagnostics.size(), 1u);
    EXPECT_EQ(p.diagnostics[0].message,
              "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

TEST(JsonReader, ChecksDuplicatesInLargeObjects) {
    // Past the linear-scan limit the check uses a hash index; it must find the same duplicate.
    std::string text = "{";
    for (int i = 0; i < 1000; ++i)
        text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",\n";
    Parsed ok = parseText(text + "\"last\": 0}");
    ASSERT_TRUE(ok.ok);
    EXPECT_EQ(ok.value.keys.size(), 1001u);
    EXPECT_EQ(ok.value.find("k999")->text, "999");

    // "k17" is on line 18 (line 1 holds "{" and k0); the duplicate is on line 1001, column 1.
    expectRejected(text + "\"k17\": 1}", 1001, 1, "duplicate key \"k17\" (first at 18:1)");
}

TEST(JsonReader, FailureLeavesTheOutputUntouched) {
    Value out;
    out.kind = Kind::string;
    out.text = "before";
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(parse("[1,", "f", out, diagnostics));
    EXPECT_EQ(out.kind, Kind::string);
    EXPECT_EQ(out.text, "before");
}

TEST(JsonReader, AppendsToExistingDiagnostics) {
    std::vector<Diagnostic> diagnostics(2);
    Value out;
    EXPECT_FALSE(parse("", "f", out, diagnostics));
    EXPECT_EQ(diagnostics.size(), 3u);
    EXPECT_TRUE(parse("1", "f", out, diagnostics));
    EXPECT_EQ(diagnostics.size(), 3u);
}

// --- every rejection path ------------------------------------------------------------------

TEST(JsonReaderRejects, EmptyInput) {
    expectRejected("", 1, 1, "empty input");
    expectRejected("\xEF\xBB\xBF", 1, 1, "empty input");
    expectRejected(" \n\t ", 2, 3, "empty input (only whitespace)");
}

TEST(JsonReaderRejects, TrailingContent) {
    expectRejected("{} x", 1, 4, "unexpected trailing content after the JSON value: found 'x'");
    expectRejected("1 2", 1, 3, "unexpected trailing content after the JSON value: found '2'");
    expectRejected("[]\n]", 2, 1, "unexpected trailing content after the JSON value: found ']'");
    expectRejected("null\x01", 1, 5,
                   "unexpected trailing content after the JSON value: found control character "
                   "0x01");
}

TEST(JsonReaderRejects, TrailingCommas) {
    expectRejected("[1, 2,]", 1, 7,
                   "trailing comma: expected another element after ',', found ']'");
    expectRejected("{\"a\": 1,\n }", 2, 2,
                   "trailing comma: expected another member after ',', found '}'");
}

TEST(JsonReaderRejects, MissingSeparators) {
    expectRejected("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'");
    expectRejected("{\"a\": 1 \"b\": 2}", 1, 9,
                   "expected ',' or '}' after object member, found '\"'");
    expectRejected("{\"a\": 1]", 1, 8, "expected ',' or '}' after object member, found ']'");
    expectRejected("{\"a\" 1}", 1, 6, "expected ':' after object key \"a\", found '1'");
    expectRejected("{\"a\"", 1, 5, "expected ':' after object key \"a\", found end of input");
}

TEST(JsonReaderRejects, EndOfInputInsideContainers) {
    expectRejected("[1", 1, 3,
                   "unexpected end of input inside an array (opened at 1:1), expected ',' or ']'");
    expectRejected("{\"a\": [1, {\"b\": 2}", 1, 19,
                   "unexpected end of input inside an array (opened at 1:7), expected ',' or ']'",
                   "$.a");
    expectRejected("[1,", 1, 4, "unexpected end of input, expected a value", "$[1]");
    expectRejected("{\"a\":", 1, 6, "unexpected end of input, expected a value", "$.a");
    expectRejected("{", 1, 2, "unexpected end of input inside an object, expected a string key");
    expectRejected("{\"a\":1,", 1, 8,
                   "unexpected end of input inside an object, expected a string key");
}

TEST(JsonReaderRejects, KeysThatAreNotStrings) {
    expectRejected("{a: 1}", 1, 2, "expected a string key, found 'a' (keys must be quoted)");
    expectRejected("{'a': 1}", 1, 2,
                   "expected a string key, found ''' (JSON strings use double quotes)");
    expectRejected("{1: 1}", 1, 2, "expected a string key, found '1' (keys must be quoted)");
    expectRejected("{\"a\": 1, }", 1, 10,
                   "trailing comma: expected another member after ',', found '}'");
}

TEST(JsonReaderRejects, DuplicateKeys) {
    expectRejected("{\n  \"name\": 1,\n  \"x\": 2,\n  \"name\": 3\n}", 4, 3,
                   "duplicate key \"name\" (first at 2:3)");
    // The path names the object that holds the duplicate.
    expectRejected("{\"e\": [{}, {\"a b\": 1, \"a b\": 2}]}", 1, 23,
                   "duplicate key \"a b\" (first at 1:13)", "$.e[1]");
    // Long keys are cut on a character boundary: 39 ASCII bytes, then a 2-byte character.
    const std::string long_key = std::string(39, 'k') + "\xC3\xA9" + "tail";
    expectRejected("{\"" + long_key + "\": 1, \"" + long_key + "\": 2}", 1, 54,
                   "duplicate key \"" + std::string(39, 'k') + "...\" (first at 1:2)");
    // Keys compare after decoding escapes.
    expectRejected(R"({"a": 1, "\u0061": 2})", 1, 10, "duplicate key \"a\" (first at 1:2)");
}

TEST(JsonReaderRejects, ThingsThatAreNotValues) {
    expectRejected("[1, // two\n 2]", 1, 5,
                   "expected a value, found '/' (comments are not allowed in JSON)", "$[1]");
    expectRejected("/* c */ 1", 1, 1,
                   "expected a value, found '/' (comments are not allowed in JSON)");
    expectRejected("['a']", 1, 2, "expected a value, found ''' (JSON strings use double quotes)",
                   "$[0]");
    expectRejected("+1", 1, 1, "expected a value, found '+' (JSON numbers have no leading '+')");
    expectRejected(".5", 1, 1,
                   "expected a value, found '.' (JSON numbers need a digit before '.')");
    expectRejected("{\"a\": }", 1, 7,
                   "expected a value, found '}' (a container is closed where a value belongs)",
                   "$.a");
    expectRejected("[,1]", 1, 2, "expected a value, found ','", "$[0]");
    expectRejected(":", 1, 1, "expected a value, found ':'");
}

TEST(JsonReaderRejects, BinaryGarbage) {
    expectRejected(std::string("\x00\x01\x02", 3), 1, 1,
                   "expected a value, found control character 0x00");
    expectRejected("\xff\xfe\x00", 1, 1, "expected a value, found byte 0xff");
    expectRejected("\x7f", 1, 1, "expected a value, found control character 0x7f");
    expectRejected("\xEF\xBB", 1, 1, "expected a value, found byte 0xef"); // half a BOM
    expectRejected("\x0c 1", 1, 1, "expected a value, found control character 0x0c");
}

TEST(JsonReaderRejects, NonFiniteAndUnknownLiterals) {
    expectRejected("NaN", 1, 1, "NaN is not valid JSON (only finite numbers are allowed)");
    expectRejected("[Infinity]", 1, 2,
                   "Infinity is not valid JSON (only finite numbers are allowed)", "$[0]");
    expectRejected("[1, -Infinity]", 1, 5,
                   "-Infinity is not valid JSON (only finite numbers are allowed)", "$[1]");
    expectRejected("True", 1, 1, "invalid literal 'True', expected a value");
    expectRejected("nul", 1, 1, "invalid literal 'nul', expected a value");
    expectRejected("nullx", 1, 1, "invalid literal 'nullx', expected a value");
    expectRejected(std::string(100, 'z'), 1, 1,
                   "invalid literal '" + std::string(40, 'z') + "...', expected a value");
}

TEST(JsonReaderRejects, MalformedNumbers) {
    expectRejected("-", 1, 2, "expected a digit after '-', found end of input");
    expectRejected("[-a]", 1, 3, "expected a digit after '-', found 'a'", "$[0]");
    expectRejected("012", 1, 1, "leading zeros are not allowed in number '012'");
    expectRejected("-00.5", 1, 1, "leading zeros are not allowed in number '-00'");
    expectRejected("1.", 1, 3,
                   "expected a digit after the decimal point in '1.', found end of input");
    expectRejected("1.e5", 1, 3, "expected a digit after the decimal point in '1.', found 'e'");
    expectRejected("1e", 1, 3, "expected a digit in the exponent of '1e', found end of input");
    expectRejected("[2E+]", 1, 5, "expected a digit in the exponent of '2E+', found ']'", "$[0]");
}

TEST(JsonReaderRejects, NumbersOutOfDoubleRange) {
    expectRejected("1e999", 1, 1, "number 1e999 is out of range (beyond a double)");
    expectRejected("{\"r\": -2e308}", 1, 7, "number -2e308 is out of range (beyond a double)",
                   "$.r");
    const std::string big = "1" + std::string(400, '0');
    expectRejected(big, 1, 1,
                   "number " + big.substr(0, 40) + "... is out of range (beyond a double)");
    expectRejected("0.000001e315", 1, 1, "number 0.000001e315 is out of range (beyond a double)");
}

TEST(JsonReaderRejects, EndOfInputInsideStrings) {
    expectRejected("[\"abc", 1, 6,
                   "unexpected end of input inside a string (the string starts at 1:2)", "$[0]");
    expectRejected("\"a\\", 1, 4, "unexpected end of input inside a string");
    expectRejected("{\"ke", 1, 5,
                   "unexpected end of input inside a string (the string starts at 1:2)");
    expectRejected("\"\xE2\x82", 1, 4,
                   "unexpected end of input inside a string (truncated UTF-8 sequence)");
}

TEST(JsonReaderRejects, ControlCharactersInStrings) {
    expectRejected("\"a\nb\"", 1, 3,
                   "unescaped control character 0x0a in string (a string cannot span lines; "
                   "write \\n)");
    expectRejected("\"a\tb\"", 1, 3, "unescaped control character 0x09 in string (write \\t)");
    expectRejected(std::string("\"\0\"", 3), 1, 2,
                   "unescaped control character 0x00 in string (write it as \\u00XX)");
}

TEST(JsonReaderRejects, BadEscapes) {
    expectRejected(R"("a\x")", 1, 3,
                   R"(invalid escape '\x' (valid: \" \\ \/ \b \f \n \r \t \uXXXX))");
    expectRejected(R"("\U0041")", 1, 2,
                   R"(invalid escape '\U' (valid: \" \\ \/ \b \f \n \r \t \uXXXX))");
    expectRejected("\"\\\xC3\xA9\"", 1, 2, "invalid escape: '\\' followed by byte 0xc3");
    expectRejected(R"("\u12G4")", 1, 6, "invalid \\u escape: expected 4 hex digits, found 'G'");
    expectRejected(R"("\u12")", 1, 6, "invalid \\u escape: expected 4 hex digits, found '\"'");
    expectRejected("\"\\u12", 1, 6, "unexpected end of input inside a \\u escape");
}

TEST(JsonReaderRejects, UnpairedSurrogates) {
    expectRejected(R"("\uDC00")", 1, 2, "invalid \\u escape: unpaired low surrogate \\uDC00");
    expectRejected(R"("x\ud800")", 1, 3,
                   "invalid \\u escape: high surrogate \\ud800 is not followed by a \\u low "
                   "surrogate");
    expectRejected(R"("\ud800\n")", 1, 2,
                   "invalid \\u escape: high surrogate \\ud800 is not followed by a \\u low "
                   "surrogate");
    expectRejected(R"("\ud800\u0041")", 1, 8,
                   "invalid \\u escape: high surrogate \\ud800 is followed by \\u0041, not a low "
                   "surrogate");
    expectRejected(R"("\ud800\ud800")", 1, 8,
                   "invalid \\u escape: high surrogate \\ud800 is followed by \\ud800, not a low "
                   "surrogate");
    expectRejected(R"("\ud800\u00")", 1, 12,
                   "invalid \\u escape: expected 4 hex digits, found '\"'");
}

TEST(JsonReaderRejects, InvalidUtf8) {
    expectRejected("\"\xff\"", 1, 2, "invalid UTF-8 byte 0xff in string (not used in UTF-8)");
    expectRejected("\"ab\x80\"", 1, 4,
                   "invalid UTF-8 byte 0x80 in string (a continuation byte without a lead byte)");
    expectRejected("\"\xC0\xAF\"", 1, 2, "invalid UTF-8 byte 0xc0 in string (overlong encoding)");
    expectRejected("\"\xC1\xBF\"", 1, 2, "invalid UTF-8 byte 0xc1 in string (overlong encoding)");
    expectRejected("\"\xF5\x80\x80\x80\"", 1, 2,
                   "invalid UTF-8 byte 0xf5 in string (not used in UTF-8)");
    // Overlong three-byte form of '/'.
    expectRejected("\"\xE0\x80\xAF\"", 1, 3,
                   "invalid UTF-8 byte 0x80 in string (after lead byte 0xe0)");
    // U+D800 encoded directly.
    expectRejected("\"\xED\xA0\x80\"", 1, 3,
                   "invalid UTF-8 byte 0xa0 in string (after lead byte 0xed)");
    // Overlong four-byte form and a code point above U+10FFFF.
    expectRejected("\"\xF0\x8F\xBF\xBF\"", 1, 3,
                   "invalid UTF-8 byte 0x8f in string (after lead byte 0xf0)");
    expectRejected("\"\xF4\x90\x80\x80\"", 1, 3,
                   "invalid UTF-8 byte 0x90 in string (after lead byte 0xf4)");
    // A lead byte followed by ASCII.
    expectRejected("\"\xC3(\"", 1, 3, "invalid UTF-8 byte 0x28 in string (after lead byte 0xc3)");
    expectRejected("\"\xE2\x82(\"", 1, 4,
                   "invalid UTF-8 byte 0x28 in string (after lead byte 0xe2)");
    // In a key, too.
    expectRejected("{\"\xFE\": 1}", 1, 3, "invalid UTF-8 byte 0xfe in string (not used in UTF-8)");
}

TEST(JsonReaderRejects, NamesTheJsonPathOfTheBadValue) {
    expectRejected("{\"emitters\": [{\"name\": \"a\"}, {\"spawn\": {\"rate_per_s\": 1.}}]}", 1, 57,
                   "expected a digit after the decimal point in '1.', found '}'",
                   "$.emitters[1].spawn.rate_per_s");
    expectRejected("{\"odd key\": [0, 1, tru]}", 1, 20, "invalid literal 'tru', expected a value",
                   "$[\"odd key\"][2]");
}

// --- conversions ---------------------------------------------------------------------------

TEST(JsonConvert, KindNames) {
    EXPECT_STREQ(kindName(Kind::null), "null");
    EXPECT_STREQ(kindName(Kind::boolean), "a boolean");
    EXPECT_STREQ(kindName(Kind::number), "a number");
    EXPECT_STREQ(kindName(Kind::string), "a string");
    EXPECT_STREQ(kindName(Kind::array), "an array");
    EXPECT_STREQ(kindName(Kind::object), "an object");
}

TEST(JsonConvert, ToFloatRoundsTheDecimalDirectlyToFloat) {
    // 1 + 2^-24 is halfway between the floats 1 and 1 + 2^-23. This literal lies a hair above
    // it, so the correctly rounded float is 1 + 2^-23; going through double first would land
    // exactly on the halfway point and then round to even, giving 1.
    float f = 0;
    ASSERT_TRUE(toFloat(numberValue("1.0000000596046447753906251"), f));
    EXPECT_EQ(f, std::nextafter(1.0f, 2.0f));
    ASSERT_TRUE(toFloat(numberValue("1.000000059604644775390625"), f)); // the tie itself
    EXPECT_EQ(f, 1.0f);
}

TEST(JsonConvert, ToFloatRange) {
    float f = 0;
    ASSERT_TRUE(toFloat(numberValue("3.4028235e38"), f));
    EXPECT_EQ(f, std::numeric_limits<float>::max());
    ASSERT_TRUE(toFloat(numberValue("-3.4028235e38"), f));
    EXPECT_EQ(f, std::numeric_limits<float>::lowest());
    ASSERT_TRUE(toFloat(numberValue("1e-45"), f));
    EXPECT_EQ(f, std::numeric_limits<float>::denorm_min());

    f = 5;
    EXPECT_FALSE(toFloat(numberValue("3.4028236e38"), f)); // rounds to infinity
    EXPECT_FALSE(toFloat(numberValue("1e39"), f));
    EXPECT_FALSE(toFloat(numberValue("-1e300"), f));
    EXPECT_FALSE(toFloat(numberValue("1e999"), f));
    EXPECT_EQ(f, 5.0f); // untouched on failure

    // Values below half the smallest subnormal round to zero, keeping their sign.
    ASSERT_TRUE(toFloat(numberValue("1e-50"), f));
    EXPECT_EQ(bitsOf(f), bitsOf(0.0f));
    ASSERT_TRUE(toFloat(numberValue("-1e-400"), f));
    EXPECT_EQ(bitsOf(f), bitsOf(-0.0f));
    ASSERT_TRUE(toFloat(numberValue("0.0000000000000000000000000000000000000000000000001"), f));
    EXPECT_EQ(f, 0.0f);
    ASSERT_TRUE(toFloat(numberValue("-0"), f));
    EXPECT_EQ(bitsOf(f), bitsOf(-0.0f));
}

TEST(JsonConvert, ToFloatRejectsNonNumbersAndNonFiniteText) {
    float f = 5;
    Value s;
    s.kind = Kind::string;
    s.text = "1";
    EXPECT_FALSE(toFloat(s, f));
    EXPECT_FALSE(toFloat(numberValue(""), f));
    EXPECT_FALSE(toFloat(numberValue("inf"), f));
    EXPECT_FALSE(toFloat(numberValue("nan"), f));
    EXPECT_FALSE(toFloat(numberValue("1x"), f));
    EXPECT_EQ(f, 5.0f);
}

TEST(JsonConvert, ToDouble) {
    double d = 0;
    ASSERT_TRUE(toDouble(numberValue("0.1"), d));
    EXPECT_EQ(d, 0.1);
    ASSERT_TRUE(toDouble(numberValue("1.7976931348623157e308"), d));
    EXPECT_EQ(d, std::numeric_limits<double>::max());
    ASSERT_TRUE(toDouble(numberValue("1e-400"), d));
    EXPECT_EQ(d, 0.0);
    d = 3;
    EXPECT_FALSE(toDouble(numberValue("1e309"), d));
    EXPECT_FALSE(toDouble(numberValue("nan"), d));
    EXPECT_EQ(d, 3.0);
}

TEST(JsonConvert, ToUint32) {
    uint32_t u = 0;
    ASSERT_TRUE(toUint32(numberValue("4294967295"), u));
    EXPECT_EQ(u, 4294967295u);
    ASSERT_TRUE(toUint32(numberValue("0"), u));
    EXPECT_EQ(u, 0u);
    u = 9;
    ASSERT_TRUE(toUint32(numberValue("-0"), u));
    EXPECT_EQ(u, 0u);
    u = 9;
    for (const char* bad : {"4294967296", "-1", "1.0", "1e2", "1E2", "0.5", "", "99999999999999"}) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(toUint32(numberValue(bad), u));
    }
    EXPECT_EQ(u, 9u);
}

TEST(JsonConvert, ToInt64) {
    int64_t i = 0;
    ASSERT_TRUE(toInt64(numberValue("-9223372036854775808"), i));
    EXPECT_EQ(i, std::numeric_limits<int64_t>::min());
    ASSERT_TRUE(toInt64(numberValue("9223372036854775807"), i));
    EXPECT_EQ(i, std::numeric_limits<int64_t>::max());
    i = 4;
    for (const char* bad : {"9223372036854775808", "-9223372036854775809", "1.5", "2e3", ""}) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(toInt64(numberValue(bad), i));
    }
    EXPECT_EQ(i, 4);
}

TEST(JsonConvert, ConvertsParsedNumbers) {
    Parsed p = parseText("[12, -3, 2.5]");
    ASSERT_TRUE(p.ok);
    uint32_t u = 0;
    int64_t i = 0;
    float f = 0;
    EXPECT_TRUE(toUint32(p.value.items[0], u));
    EXPECT_EQ(u, 12u);
    EXPECT_FALSE(toUint32(p.value.items[1], u));
    EXPECT_TRUE(toInt64(p.value.items[1], i));
    EXPECT_EQ(i, -3);
    EXPECT_FALSE(toInt64(p.value.items[2], i));
    EXPECT_TRUE(toFloat(p.value.items[2], f));
    EXPECT_EQ(f, 2.5f);
    EXPECT_FALSE(toFloat(p.value, f)); // an array
}

// --- paths ---------------------------------------------------------------------------------

TEST(JsonTopLevelKeys, ListsOnlyTheOutermostObjectsKeys) {
    std::vector<std::string> keys;
    ASSERT_TRUE(topLevelKeys(
        "\xEF\xBB\xBF {\"camera\": {\"emitters\": [1, {\"x\": \"}\"}]}, \"a\\\"b\": \"effects\","
        " \"effects\": [{\"effect\": \"e.json\"}]}  trailing is not looked at",
        keys));
    EXPECT_EQ(keys, (std::vector<std::string>{"camera", "a\\\"b", "effects"}));
    ASSERT_TRUE(topLevelKeys("{}", keys));
    EXPECT_TRUE(keys.empty());
    for (const char* text : {"", "[1]", "\"x\"", "{\"a\": [1, 2", "{\"a\": \"open", "  5"}) {
        EXPECT_FALSE(topLevelKeys(text, keys)) << text;
    }
}

// A document far past every parse limit is sniffed in one pass without building it.
TEST(JsonTopLevelKeys, ReadsAHugeDocumentWithoutParsingIt) {
    std::string text = "{\"effects\": [";
    for (int i = 0; i < 2000000; ++i) text += "{},";
    text += "{}], \"camera\": {}}";
    std::vector<std::string> keys;
    ASSERT_TRUE(topLevelKeys(text, keys));
    EXPECT_EQ(keys, (std::vector<std::string>{"effects", "camera"}));
}

TEST(JsonPath, BuildsKeysAndIndices) {
    EXPECT_EQ(pathIndex(pathKey(pathKey("$", "a"), "b"), 3), "$.a.b[3]");
    EXPECT_EQ(pathKey("$", "rate_per_s"), "$.rate_per_s");
    EXPECT_EQ(pathKey("$", "_x9"), "$._x9");
    EXPECT_EQ(pathKey("$", "odd key"), "$[\"odd key\"]");
    EXPECT_EQ(pathKey("$", "9lives"), "$[\"9lives\"]");
    EXPECT_EQ(pathKey("$", "a-b"), "$[\"a-b\"]");
    EXPECT_EQ(pathKey("$", ""), "$[\"\"]");
    EXPECT_EQ(pathKey("$", "q\"b\\s"), "$[\"q\\\"b\\\\s\"]");
    EXPECT_EQ(pathKey("$", "nl\n"), "$[\"nl\\u000a\"]");
    EXPECT_EQ(pathKey("$", "\xC3\xA9t\xC3\xA9"), "$[\"\xC3\xA9t\xC3\xA9\"]");
    EXPECT_EQ(pathIndex("$", 0), "$[0]");
}

} // namespace
} // namespace spindrift::json
