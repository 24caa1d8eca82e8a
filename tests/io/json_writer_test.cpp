#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "io/json_value.h"
#include "io/json_writer.h"

namespace spindrift::json {
namespace {

uint32_t writerBitsOf(float f) {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof(bits));
    return bits;
}

float floatOf(uint32_t bits) {
    float f = 0;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
}

Value parseOrFail(const std::string& text) {
    Value v;
    std::vector<Diagnostic> diagnostics;
    bool ok = parse(text, "out.json", v, diagnostics);
    EXPECT_TRUE(ok) << (diagnostics.empty() ? "" : formatDiagnostic(diagnostics[0])) << "\n"
                    << text;
    return v;
}

// Writes a parsed document back: integer literals as integers, other numbers as floats (every
// number in these tests is a float32 value).
void writeValue(Writer& w, const Value& v) {
    switch (v.kind) {
    case Kind::null:
        w.null();
        break;
    case Kind::boolean:
        w.value(v.boolean);
        break;
    case Kind::string:
        w.value(std::string_view(v.text));
        break;
    case Kind::number: {
        int64_t i = 0;
        float f = 0;
        if (toInt64(v, i)) {
            w.value(i);
        } else {
            ASSERT_TRUE(toFloat(v, f)) << v.text;
            w.value(f);
        }
        break;
    }
    case Kind::array:
        w.beginArray();
        for (const Value& item : v.items) writeValue(w, item);
        w.endArray();
        break;
    case Kind::object:
        w.beginObject();
        for (size_t i = 0; i < v.items.size(); ++i) {
            w.key(v.keys[i]);
            writeValue(w, v.items[i]);
        }
        w.endObject();
        break;
    }
}

TEST(JsonWriter, WritesTheCanonicalLayout) {
    const float position[] = {1.0f, -0.5f, 3.0f};
    Writer w;
    w.beginObject();
    w.key("name");
    w.value("campfire");
    w.key("seed");
    w.value(uint32_t{7});
    w.key("looping");
    w.value(true);
    w.key("position");
    w.inlineArray(position, 3);
    w.key("emitters");
    w.beginArray();
    w.beginObject();
    w.key("rate");
    w.value(2.5f);
    w.key("tags");
    w.beginArray();
    w.endArray();
    w.key("extra");
    w.beginObject();
    w.endObject();
    w.endObject();
    w.value(int64_t{-3});
    w.null();
    w.value(false);
    w.endArray();
    w.endObject();
    EXPECT_EQ(w.text(), "{\n"
                        "  \"name\": \"campfire\",\n"
                        "  \"seed\": 7,\n"
                        "  \"looping\": true,\n"
                        "  \"position\": [1, -0.5, 3],\n"
                        "  \"emitters\": [\n"
                        "    {\n"
                        "      \"rate\": 2.5,\n"
                        "      \"tags\": [],\n"
                        "      \"extra\": {}\n"
                        "    },\n"
                        "    -3,\n"
                        "    null,\n"
                        "    false\n"
                        "  ]\n"
                        "}\n");
}

TEST(JsonWriter, EndsEveryTopLevelValueWithANewline) {
    Writer object;
    object.beginObject();
    object.endObject();
    EXPECT_EQ(object.text(), "{}\n");
    Writer array;
    array.beginArray();
    array.endArray();
    EXPECT_EQ(array.text(), "[]\n");
    Writer number;
    number.value(2.0f);
    EXPECT_EQ(number.text(), "2\n");
    Writer inline_array;
    inline_array.inlineArray(nullptr, 0);
    EXPECT_EQ(inline_array.text(), "[]\n");
}

TEST(JsonWriter, WritesIntegersInFull) {
    Writer w;
    w.beginArray();
    w.value(std::numeric_limits<uint32_t>::max());
    w.value(std::numeric_limits<int64_t>::min());
    w.value(std::numeric_limits<int64_t>::max());
    w.endArray();
    EXPECT_EQ(w.text(), "[\n  4294967295,\n  -9223372036854775808,\n  9223372036854775807\n]\n");
}

TEST(JsonWriter, InlineArrayKeepsNumbersOnOneLine) {
    const float key[] = {0.25f, 1e20f};
    Writer w;
    w.beginArray();
    w.inlineArray(key, 2);
    w.inlineArray(key, 1);
    w.endArray();
    EXPECT_EQ(w.text(), "[\n  [0.25, 1e20],\n  [0.25]\n]\n");
}

TEST(JsonWriter, WritesNonFiniteFloatsAsNullSoTheTextStaysJson) {
    const float bad[] = {std::numeric_limits<float>::infinity(), 1.0f};
    Writer w;
    w.beginArray();
    w.value(std::numeric_limits<float>::quiet_NaN());
    w.inlineArray(bad, 2);
    w.endArray();
    EXPECT_EQ(w.text(), "[\n  null,\n  [null, 1]\n]\n");
}

TEST(JsonWriter, EscapesStringsPerRfc8259) {
    Writer w;
    w.beginObject();
    w.key("k\"ey");
    w.value(std::string_view("q\" b\\ / \b\f\n\r\t \x01\x1f\x7f \xC3\xA9\xF0\x9F\x98\x80"));
    w.key(std::string_view("nul\0", 4));
    w.value("");
    w.endObject();
    EXPECT_EQ(w.text(), "{\n"
                        "  \"k\\\"ey\": \"q\\\" b\\\\ / \\b\\f\\n\\r\\t \\u0001\\u001f\x7f "
                        "\xC3\xA9\xF0\x9F\x98\x80\",\n"
                        "  \"nul\\u0000\": \"\"\n"
                        "}\n");
    Value v = parseOrFail(w.text());
    ASSERT_EQ(v.keys.size(), 2u);
    EXPECT_EQ(v.keys[0], "k\"ey");
    EXPECT_EQ(v.items[0].text, "q\" b\\ / \b\f\n\r\t \x01\x1f\x7f \xC3\xA9\xF0\x9F\x98\x80");
    EXPECT_EQ(v.keys[1], std::string("nul\0", 4));
}

TEST(JsonWriter, ReplacesBytesThatAreNotUtf8) {
    // Each ill-formed sequence becomes one U+FFFD; a good character after it survives.
    const std::string fffd = "\xEF\xBF\xBD";
    Writer w;
    w.beginArray();
    w.value(std::string_view("a\xFF"
                             "b"));
    w.value(std::string_view("\xE2\x82"
                             "c"));                // truncated 3-byte sequence
    w.value(std::string_view("\xED\xA0\x80"));     // encoded surrogate: 3 maximal subparts
    w.value(std::string_view("\xC3"));             // cut at the end
    w.value(std::string_view("\xC0\xAF\xC3\xA9")); // overlong '/', then e-acute
    w.endArray();
    Value v = parseOrFail(w.text());
    ASSERT_EQ(v.items.size(), 5u);
    EXPECT_EQ(v.items[0].text, "a" + fffd + "b");
    EXPECT_EQ(v.items[1].text, fffd + "c");
    EXPECT_EQ(v.items[2].text, fffd + fffd + fffd);
    EXPECT_EQ(v.items[3].text, fffd);
    EXPECT_EQ(v.items[4].text, fffd + fffd + "\xC3\xA9");
}

TEST(FormatFloat, UsesTheShortestCanonicalForm) {
    EXPECT_EQ(formatFloat(2.0f), "2");
    EXPECT_EQ(formatFloat(0.0f), "0");
    EXPECT_EQ(formatFloat(-0.0f), "-0");
    EXPECT_EQ(formatFloat(0.1f), "0.1");
    EXPECT_EQ(formatFloat(-2.5f), "-2.5");
    EXPECT_EQ(formatFloat(1e20f), "1e20");
    EXPECT_EQ(formatFloat(1.5e-7f), "1.5e-7");
    EXPECT_EQ(formatFloat(std::numeric_limits<float>::max()), "3.4028235e38");
    EXPECT_EQ(formatFloat(std::numeric_limits<float>::denorm_min()), "1e-45");
    EXPECT_EQ(formatFloat(16777216.0f), "16777216");
    EXPECT_EQ(formatFloat(1.0f / 3.0f), "0.33333334");
}

// For finite float bits: formatFloat reads back to the same bits, and (for texts with a fraction
// or exponent) one significant digit fewer does not, so the digits are the shortest.
void checkRoundTrip(uint32_t bits, bool check_shortest) {
    float f = floatOf(bits);
    std::string text = formatFloat(f);
    Value v;
    v.kind = Kind::number;
    v.text = text;
    float back = 0;
    ASSERT_TRUE(toFloat(v, back)) << text;
    ASSERT_EQ(writerBitsOf(back), bits) << text;
    // Integers written in full ("123456792") are shortest in characters, not digits; skip them.
    if (!check_shortest || text.find_first_of(".e") == std::string::npos) return;
    std::string digits;
    for (char c : text.substr(0, text.find('e'))) {
        if (c >= '0' && c <= '9' && !(digits.empty() && c == '0')) digits += c;
    }
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    if (digits.size() <= 1) return;
    char buffer[64];
    auto r = std::to_chars(buffer, buffer + sizeof(buffer), f, std::chars_format::scientific,
                           static_cast<int>(digits.size()) - 2);
    float shorter = 0;
    std::from_chars(buffer, r.ptr, shorter);
    ASSERT_NE(writerBitsOf(shorter), bits) << text << " vs " << std::string(buffer, r.ptr);
}

TEST(FormatFloat, RoundTripsTwoMillionRandomFloats) {
    std::mt19937 random(20240601u);
    int checked = 0;
    for (int i = 0; i < 2'000'000; ++i) {
        uint32_t bits = static_cast<uint32_t>(random());
        if (!std::isfinite(floatOf(bits))) continue;
        checkRoundTrip(bits, i % 16 == 0);
        if (HasFatalFailure()) return;
        ++checked;
    }
    EXPECT_GT(checked, 1'950'000); // 1 in 256 patterns is inf or NaN
}

TEST(FormatFloat, RoundTripsEdgeFloats) {
    const uint32_t kMaxFinite = 0x7F7FFFFFu;
    for (uint32_t sign : {0u, 0x80000000u}) {
        for (uint32_t b = 0; b < 200'000; ++b) checkRoundTrip(sign | b, true); // subnormals
        for (uint32_t b = kMaxFinite - 200'000; b <= kMaxFinite; ++b) {
            checkRoundTrip(sign | b, true);
        }
        for (uint32_t exponent = 0; exponent < 255; ++exponent) {
            for (uint32_t mantissa : {0u, 1u, 0x400000u, 0x7FFFFFu}) {
                checkRoundTrip(sign | exponent << 23 | mantissa, true);
            }
        }
        // Around 1.0, where authored values live.
        for (uint32_t b = 0x3F800000u - 100'000; b < 0x3F800000u + 100'000; ++b) {
            checkRoundTrip(sign | b, true);
        }
        if (HasFatalFailure()) return;
    }
}

TEST(JsonWriter, FloatsSurviveADocumentRoundTrip) {
    std::mt19937 random(7u);
    std::vector<float> values;
    while (values.size() < 20'000) {
        float f = floatOf(static_cast<uint32_t>(random()));
        if (std::isfinite(f)) values.push_back(f);
    }
    Writer w;
    w.beginObject();
    w.key("single");
    w.value(values[0]);
    w.key("many");
    w.inlineArray(values.data(), values.size());
    w.endObject();
    Value v = parseOrFail(w.text());
    const Value* single = v.find("single");
    const Value* many = v.find("many");
    ASSERT_NE(single, nullptr);
    ASSERT_NE(many, nullptr);
    float f = 0;
    ASSERT_TRUE(toFloat(*single, f));
    EXPECT_EQ(writerBitsOf(f), writerBitsOf(values[0]));
    ASSERT_EQ(many->items.size(), values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        ASSERT_TRUE(toFloat(many->items[i], f));
        ASSERT_EQ(writerBitsOf(f), writerBitsOf(values[i])) << many->items[i].text;
    }
}

TEST(JsonWriter, OutputParsesBackToTheSameValues) {
    Writer w;
    w.beginObject();
    w.key("name");
    w.value("sparks \"hot\"");
    w.key("count");
    w.value(uint32_t{4000000000u});
    w.key("offset");
    w.value(int64_t{-12});
    w.key("on");
    w.value(false);
    w.key("nothing");
    w.null();
    w.key("list");
    w.beginArray();
    w.value(0.1f);
    w.beginObject();
    w.key("x y");
    w.value(-0.0f);
    w.endObject();
    w.endArray();
    w.endObject();

    Value v = parseOrFail(w.text());
    ASSERT_EQ(v.kind, Kind::object);
    ASSERT_EQ(v.keys,
              (std::vector<std::string>{"name", "count", "offset", "on", "nothing", "list"}));
    EXPECT_EQ(v.items[0].text, "sparks \"hot\"");
    uint32_t count = 0;
    ASSERT_TRUE(toUint32(v.items[1], count));
    EXPECT_EQ(count, 4000000000u);
    int64_t offset = 0;
    ASSERT_TRUE(toInt64(v.items[2], offset));
    EXPECT_EQ(offset, -12);
    EXPECT_EQ(v.items[3].kind, Kind::boolean);
    EXPECT_FALSE(v.items[3].boolean);
    EXPECT_EQ(v.items[4].kind, Kind::null);
    const Value& list = v.items[5];
    ASSERT_EQ(list.items.size(), 2u);
    float f = 0;
    ASSERT_TRUE(toFloat(list.items[0], f));
    EXPECT_EQ(f, 0.1f);
    ASSERT_TRUE(toFloat(list.items[1].items[0], f));
    EXPECT_EQ(writerBitsOf(f), writerBitsOf(-0.0f));
    EXPECT_EQ(list.items[1].keys[0], "x y");
}

TEST(JsonWriter, ReproducesCanonicalTextByteForByte) {
    const std::string canonical = "{\n"
                                  "  \"effect\": \"fountain\",\n"
                                  "  \"duration_s\": 2.5,\n"
                                  "  \"emitters\": [\n"
                                  "    {\n"
                                  "      \"gravity\": -9.81,\n"
                                  "      \"keys\": [\n"
                                  "        0,\n"
                                  "        1e-7,\n"
                                  "        \"\\u0007\\n\"\n"
                                  "      ],\n"
                                  "      \"none\": {}\n"
                                  "    }\n"
                                  "  ],\n"
                                  "  \"empty\": []\n"
                                  "}\n";
    Value v = parseOrFail(canonical);
    Writer w;
    writeValue(w, v);
    EXPECT_EQ(w.text(), canonical);

    // A non-canonical spelling of the same document comes out canonical.
    Value messy = parseOrFail("\xEF\xBB\xBF{\"effect\":\"fountain\",\"duration_s\":2.50E0,"
                              "\"emitters\":[{\"gravity\":-9.8100,\"keys\":[0,0.0000001,"
                              "\"\\u0007\\u000A\"],\"none\":{ }}],\"empty\":[\r\n]}");
    Writer w2;
    writeValue(w2, messy);
    EXPECT_EQ(w2.text(), canonical);
}

} // namespace
} // namespace spindrift::json
