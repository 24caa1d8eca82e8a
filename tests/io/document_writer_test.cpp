#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "io/document_writer.h"
#include "io/json_value.h"

namespace spindrift::json {
namespace {

struct Point {
    float x = 0, y = 0;
    friend bool operator==(const Point&, const Point&) = default;
};

std::string written(void (*write)(DocumentWriter&)) {
    DocumentWriter out;
    out.beginObject();
    write(out);
    out.endObject();
    return out.text();
}

TEST(DocumentWriter, OptionalMembersEqualToTheirDefaultAreLeftOut) {
    EXPECT_EQ(written([](DocumentWriter& out) {
                  out.opt("same", 1.5f, 1.5f);
                  out.opt("changed", 2u, 1u);
                  out.opt("flag", false, true);
                  out.opt("name", std::string("a"), std::string());
              }),
              "{\n  \"changed\": 2,\n  \"flag\": false,\n  \"name\": \"a\"\n}\n");
}

TEST(DocumentWriter, RequiredMembersAreAlwaysWritten) {
    EXPECT_EQ(written([](DocumentWriter& out) { out.req("version", 0u); }),
              "{\n  \"version\": 0\n}\n");
}

TEST(DocumentWriter, NestedObjectEqualToItsDefaultIsLeftOutWhole) {
    EXPECT_EQ(written([](DocumentWriter& out) {
                  auto write = [&](const Point& p) {
                      out.object("p", p, [&](const Point& v, const Point& d) {
                          out.opt("x", v.x, d.x);
                          out.opt("y", v.y, d.y);
                      });
                  };
                  write(Point{});
                  write(Point{0, 3});
              }),
              "{\n  \"p\": {\n    \"y\": 3\n  }\n}\n");
}

TEST(DocumentWriter, EmptyListsAreLeftOutAndObjectListsWriteEachItem) {
    EXPECT_EQ(written([](DocumentWriter& out) {
                  out.list("none", std::vector<float>{}, [&](float f) { out.put(f); });
                  out.objectList("points", std::vector<Point>{{1, 0}, {}},
                                 [&](const Point& v, const Point& d) {
                                     out.opt("x", v.x, d.x);
                                     out.opt("y", v.y, d.y);
                                 });
              }),
              "{\n  \"points\": [\n    {\n      \"x\": 1\n    },\n    {}\n  ]\n}\n");
}

TEST(DocumentWriter, RowsStayOnOneLineEachAndAreWrittenEvenWhenEmpty) {
    EXPECT_EQ(written([](DocumentWriter& out) {
                  const auto row = [](const Point& p) { return std::array{p.x, p.y}; };
                  out.rows("keys", std::vector<Point>{{0, 1}, {0.5f, -2}}, row);
                  out.rows("empty", std::vector<Point>{}, row);
              }),
              "{\n  \"keys\": [\n    [0, 1],\n    [0.5, -2]\n  ],\n  \"empty\": []\n}\n");
}

TEST(DocumentWriter, IntegerPairIsOneLineOnlyWhenBothPrintAsPlainIntegers) {
    auto pair = [](uint32_t a, uint32_t b) {
        DocumentWriter out;
        out.integerPair(a, b);
        return out.text();
    };
    EXPECT_EQ(pair(10, 20), "[10, 20]\n");
    EXPECT_EQ(pair(16, 16777216), "[16, 16777216]\n");
    // 1e5 is the shortest float text of 100000, and an integer may not have an exponent.
    EXPECT_EQ(pair(100000, 7), "[\n  100000,\n  7\n]\n");
    // Not exact in a float; 2^32 - 1 rounds to 2^32, past uint32_t.
    EXPECT_EQ(pair(7, 16777217), "[\n  7,\n  16777217\n]\n");
    EXPECT_EQ(pair(4294967295u, 0), "[\n  4294967295,\n  0\n]\n");
}

TEST(DocumentWriter, IntegerPairTextReadsBackAsTheSameIntegers) {
    for (uint32_t value : {0u, 16u, 8192u, 100000u, 16777217u, 4294967295u}) {
        DocumentWriter out;
        out.integerPair(value, 1);
        Value parsed;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(parse(out.text(), "pair.json", parsed, diagnostics)) << out.text();
        ASSERT_EQ(parsed.items.size(), 2u);
        uint32_t first = 0;
        EXPECT_TRUE(toUint32(parsed.items[0], first)) << out.text();
        EXPECT_EQ(first, value);
    }
}

} // namespace
} // namespace spindrift::json
