// Hostile effect documents (issue 13, families 4 and 5): lists far past their limits, more JSON
// values than the format needs, millions of mistakes, control characters in names and paths.
// Every input is generated in memory. Each refusal must be short (a bounded number of
// diagnostics) and its cost must not follow the input: the tests check deterministic stand-ins
// for time and memory (how many values the reader recorded, where the parser stopped), never
// the clock.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "authoring/effect_reader.h"
#include "io/json_value.h"
#include "io/read_context.h"
#include "spindrift/effect_json.h"
#include "support/list_document.h"

namespace spindrift {
namespace {

std::string dumpLimits(const std::vector<Diagnostic>& diagnostics) {
    std::string all;
    for (size_t i = 0; i < diagnostics.size() && i < 5; ++i) {
        all += formatDiagnostic(diagnostics[i]) + "\n";
    }
    return all;
}

using test::document;

// One list of the format: the document around it, one element, its limit and its path.
struct ListCase {
    const char* name;
    std::string prefix, item, suffix;
    size_t min, max;
    const char* what;
    const char* path;
};

const std::string kHead = R"({"version": 1, "name": "x", "emitters": [{"name": "a", )";

std::vector<ListCase> listCases() {
    return {
        {"emitters", R"({"version": 1, "name": "x", "emitters": )", R"({"name": "a"})", "}", 1,
         kMaxEmitters, "emitters", "$.emitters"},
        {"update modules", kHead + R"("update": )", R"({"type": "drag"})", "}]}", 0,
         kMaxUpdateModules, "update modules", "$.emitters[0].update"},
        {"bursts", kHead + R"("spawn": {"bursts": )", R"({"count": 1})", "}}]}", 0, kMaxBursts,
         "bursts", "$.emitters[0].spawn.bursts"},
        {"mesh points", kHead + R"("shape": {"type": "mesh", "points": )", "[0,0,0,0,0,1]", "}}]}",
         1, kMaxMeshPoints, "mesh points", "$.emitters[0].shape.points"},
        {"curve keys", kHead + R"("update": [{"type": "size_over_life", "curve": {"keys": )",
         "[0,1]", "}}]}]}", 1, kMaxCurveKeys, "curve keys", "$.emitters[0].update[0].curve.keys"},
        {"colour keys",
         kHead + R"("update": [{"type": "color_over_life", "gradient": {"color_keys": )",
         "[0,1,1,1]", "}}]}]}", 1, kMaxGradientKeys, "colour keys",
         "$.emitters[0].update[0].gradient.color_keys"},
        {"alpha keys", kHead + R"("init": {"color": {"gradient": {"alpha_keys": )", "[0,1]",
         "}}}}]}", 1, kMaxGradientKeys, "alpha keys",
         "$.emitters[0].init.color.gradient.alpha_keys"},
        {"sub-emitters", kHead + R"("sub_emitters": )", R"({"emitter": "b"})",
         R"(}, {"name": "b"}]})", 0, kMaxSubEmitters, "sub-emitters", "$.emitters[0].sub_emitters"},
        {"planes", kHead + R"("update": [{"type": "collision", "planes": )", "{}", "}]}]}", 0,
         kMaxColliders, "planes", "$.emitters[0].update[0].planes"},
        {"spheres", kHead + R"("update": [{"type": "collision", "spheres": )", "{}", "}]}]}", 0,
         kMaxColliders, "spheres", "$.emitters[0].update[0].spheres"},
        {"boxes", kHead + R"("update": [{"type": "collision", "boxes": )", "{}", "}]}]}", 0,
         kMaxColliders, "boxes", "$.emitters[0].update[0].boxes"},
    };
}

std::string expectedCount(const ListCase& c, size_t found) {
    const std::string expected = c.min == 0
                                     ? "at most " + std::to_string(c.max)
                                     : std::to_string(c.min) + " to " + std::to_string(c.max);
    return "expected " + expected + " " + c.what + ", found " + std::to_string(found);
}

// How many paths the reader recorded reading text: what reading it cost, deterministically.
size_t recordedPaths(const std::string& text) {
    json::Value root;
    std::vector<Diagnostic> diagnostics;
    json::ParseOptions options;
    options.max_values = kMaxEffectJsonValues;
    EXPECT_TRUE(json::parse(text, "t.json", root, diagnostics, options)) << dumpLimits(diagnostics);
    ReadContext ctx;
    ctx.file = "t.json";
    ctx.diagnostics = &diagnostics;
    EffectDesc effect;
    EXPECT_TRUE(readEffect(ctx, root, effect));
    return ctx.positions.size();
}

TEST(EffectLimits, ListAtItsLimitLoads) {
    for (const ListCase& c : listCases()) {
        SCOPED_TRACE(c.name);
        if (c.max > 64) continue; // mesh points: checked below, the values cap allows them
        EffectDesc effect;
        std::vector<Diagnostic> diagnostics;
        // Names must be unique and sub-emitter targets exist; everything else is valid as is.
        if (std::string(c.name) == "emitters") {
            std::string text = c.prefix + "[";
            for (size_t i = 0; i < c.max; ++i) {
                text += (i ? "," : "") + std::string(R"({"name": "e)") + std::to_string(i) +
                        "\", \"capacity\": 16}";
            }
            text += "]}";
            EXPECT_TRUE(loadEffect(text, "t.json", effect, diagnostics)) << dumpLimits(diagnostics);
            continue;
        }
        const bool keyed = std::string(c.what).find("keys") != std::string::npos;
        if (keyed) continue; // key times must increase: a list of equal keys is a rule error
        EXPECT_TRUE(
            loadEffect(document(c.prefix, c.item, c.max, c.suffix), "t.json", effect, diagnostics))
            << dumpLimits(diagnostics);
    }
}

TEST(EffectLimits, ListPastItsLimitIsOneDiagnosticAtTheList) {
    for (const ListCase& c : listCases()) {
        for (const size_t count : {c.max + 1, size_t{100000}}) {
            SCOPED_TRACE(std::string(c.name) + " x " + std::to_string(count));
            EffectDesc effect;
            std::vector<Diagnostic> diagnostics;
            EXPECT_FALSE(loadEffect(document(c.prefix, c.item, count, c.suffix), "t.json", effect,
                                    diagnostics));
            ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
            EXPECT_EQ(diagnostics[0].path, c.path);
            EXPECT_EQ(diagnostics[0].message, expectedCount(c, count));
            EXPECT_EQ(diagnostics[0].line, 1u);
            EXPECT_GT(diagnostics[0].column, 1u);
        }
    }
}

// The reader stops at the list: reading 100,000 elements records exactly what reading one past
// the limit does, so its time and memory do not follow the list's length.
TEST(EffectLimits, ListPastItsLimitIsNotRead) {
    for (const ListCase& c : listCases()) {
        SCOPED_TRACE(c.name);
        const size_t just_over = recordedPaths(document(c.prefix, c.item, c.max + 1, c.suffix));
        const size_t far_over = recordedPaths(document(c.prefix, c.item, 100000, c.suffix));
        EXPECT_EQ(far_over, just_over);
        EXPECT_LT(far_over, 20u);
    }
}

TEST(EffectLimits, ListPastItsLimitLeavesTheDescriptionsListAlone) {
    json::Value root;
    std::vector<Diagnostic> diagnostics;
    const std::string text =
        document(kHead + R"("update": )", R"({"type": "drag"})", kMaxUpdateModules + 1, "}]}");
    ASSERT_TRUE(json::parse(text, "t.json", root, diagnostics));
    ReadContext ctx;
    ctx.diagnostics = &diagnostics;
    EffectDesc effect;
    ASSERT_TRUE(readEffect(ctx, root, effect));
    ASSERT_EQ(effect.emitters.size(), 1u);
    EXPECT_TRUE(effect.emitters[0].update.empty());
    EXPECT_EQ(diagnostics.size(), 1u);
}

// The reported case: 12 MB listing four million emitters took 83 s and 6.8 GB and printed
// 500 MB of errors. The parser now stops once the document holds more values than an effect
// can need: one diagnostic, and no more than about kMaxEffectJsonValues values' text was read.
TEST(EffectLimits, FourMillionEmittersStopTheParserAtTheValueLimit) {
    const std::string text =
        document(R"({"version": 1, "name": "x", "emitters": )", "{}", 4000000, "}");
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffect(text, "t.json", effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
    EXPECT_EQ(diagnostics[0].path, "$.emitters");
    EXPECT_NE(diagnostics[0].message.find("more than 1048576 values in an effect document"),
              std::string::npos)
        << diagnostics[0].message;
    // Each "{}," is 3 bytes: the parser stopped at value kMaxEffectJsonValues + 1.
    EXPECT_LT(diagnostics[0].byte_offset, 3 * kMaxEffectJsonValues + 64);
    EXPECT_TRUE(effect.emitters.empty());
}

TEST(EffectLimits, TextLongerThanTheFileLimitIsRefusedUnread) {
    const std::string text(kMaxEffectFileBytes + 1, ' ');
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffect(text, "t.json", effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].message, "input is 33554433 bytes, more than the limit of 33554432 "
                                      "bytes for an effect document");
}

// A file past kMaxEffectFileBytes is refused by its size, before a byte of it is read (the file
// here is sparse: it takes no disk space).
TEST(EffectLimits, FileLargerThanTheLimitIsRefusedBeforeItIsRead) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("spindrift_big_effect_" +
         std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".json");
    { std::ofstream(path) << "{"; }
    std::filesystem::resize_file(path, kMaxEffectFileBytes + 1);
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffectFile(path.string(), effect, diagnostics));
    std::filesystem::remove(path);
    ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
    EXPECT_EQ(diagnostics[0].file, path.string());
    EXPECT_EQ(diagnostics[0].message, "the file is 33554433 bytes; effect files are limited to "
                                      "33554432 bytes (32 MiB)");
}

// The largest mesh-point list the format allows loads: the value limit leaves room for it.
TEST(EffectLimits, TheMostMeshPointsOfOneEmitterLoad) {
    const std::string text = document(kHead + R"("shape": {"type": "mesh", "points": )",
                                      "[0,0,0,0,0,1]", kMaxMeshPoints, "}}]}");
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffect(text, "t.json", effect, diagnostics)) << dumpLimits(diagnostics);
    EXPECT_EQ(effect.emitters[0].shape.points.size(), kMaxMeshPoints);
}

// 64 emitters of 32 modules, each with one mistake: 2048 errors, the first 100 in document
// order shown, then one line that counts the rest.
TEST(EffectLimits, DiagnosticsStopAtTheLimitPerFileAndCountTheRest) {
    std::string text = R"({"version": 1, "name": "x", "capacity": 1024, "emitters": [)";
    for (int e = 0; e < 64; ++e) {
        text += (e ? "," : "") + std::string(R"({"name": "e)") + std::to_string(e) +
                R"(", "capacity": 16, "update": )";
        text += document("", R"({"type": "drag", "coefficient_per_s": -1})", 32, "}");
    }
    text += "]}";
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffect(text, "t.json", effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), kMaxDiagnosticsPerFile + 1);
    for (size_t i = 1; i < kMaxDiagnosticsPerFile; ++i) {
        EXPECT_LT(diagnostics[i - 1].byte_offset, diagnostics[i].byte_offset);
    }
    EXPECT_EQ(diagnostics[0].path, "$.emitters[0].update[0].coefficient_per_s");
    EXPECT_EQ(diagnostics[99].path, "$.emitters[3].update[3].coefficient_per_s");
    const Diagnostic& last = diagnostics.back();
    EXPECT_EQ(last.severity, Severity::error);
    EXPECT_EQ(last.file, "t.json");
    EXPECT_EQ(last.line, 0u);
    EXPECT_EQ(last.message,
              "1948 more errors not shown (at most 100 diagnostics are listed per file)");
}

// Reader errors (here 65536 mesh points with a zero normal, a list within its limit) are cut
// to the same limit.
TEST(EffectLimits, ReaderErrorsStopAtTheLimitPerFileToo) {
    const std::string text = document(kHead + R"("shape": {"type": "mesh", "points": )",
                                      "[0,0,0,0,0,0]", kMaxMeshPoints, "}}]}");
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffect(text, "t.json", effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), kMaxDiagnosticsPerFile + 1);
    EXPECT_EQ(diagnostics[0].path, "$.emitters[0].shape.points[0]");
    EXPECT_EQ(diagnostics[99].path, "$.emitters[0].shape.points[99]");
    EXPECT_EQ(diagnostics.back().message,
              "65436 more errors not shown (at most 100 diagnostics are listed per file)");
}

TEST(EffectLimits, HundredsOfThousandsOfUnknownKeysAreAShortReport) {
    std::string text = R"({"version": 1, "name": "x", "emitters": [{"name": "a"}])";
    for (int i = 0; i < 300000; ++i) text += ",\"k" + std::to_string(i) + "\": 0";
    text += "}";
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadEffect(text, "t.json", effect, diagnostics));
    ASSERT_EQ(diagnostics.size(), kMaxDiagnosticsPerFile + 1);
    EXPECT_EQ(diagnostics[0].path, "$.k0");
    EXPECT_EQ(diagnostics[99].path, "$.k99");
    EXPECT_EQ(diagnostics.back().message,
              "299900 more errors not shown (at most 100 diagnostics are listed per file)");
}

// Family 5: every string of the format is a name, a path or an enum spelling; a control
// character in one (a JSON escape can write any) is refused where it is, not cut at a NUL.
TEST(EffectLimits, ControlCharactersInStringsAreRefusedAtTheirPlace) {
    struct Field {
        const char* path;
        std::string before, after;
    };
    const std::vector<Field> fields = {
        {"$.name", R"({"version": 1, "name": ")", R"(", "emitters": [{"name": "a"}]})"},
        {"$.emitters[0].name", R"({"version": 1, "name": "x", "emitters": [{"name": ")", "\"}]}"},
        {"$.emitters[0].render.texture", kHead + R"("render": {"texture": ")", "\"}}]}"},
        {"$.emitters[0].render.mesh",
         kHead + R"("render": {"type": "mesh", "blend": "opaque", "mesh": ")", "\"}}]}"},
        {"$.emitters[0].sub_emitters[0].emitter", kHead + R"("sub_emitters": [{"emitter": ")",
         R"("}]}, {"name": "b"}]})"},
        {"$.space", R"({"version": 1, "name": "x", "space": ")",
         R"(", "emitters": [{"name": "a"}]})"},
        {"$.emitters[0].update[0].type", kHead + R"("update": [{"type": ")", "\"}]}]}"},
    };
    const std::vector<std::pair<std::string, std::string>> texts = {
        {R"(spark\u0000.png)", "U+0000 at byte 5"}, {R"(\u0000)", "U+0000 at byte 0"},
        {R"(tab\there)", "U+0009 at byte 3"},       {R"(line\n)", "U+000A at byte 4"},
        {R"(esc\u001b[2J)", "U+001B at byte 3"},    {R"(del\u007f)", "U+007F at byte 3"},
    };
    for (const Field& field : fields) {
        for (const auto& [bad, found] : texts) {
            SCOPED_TRACE(std::string(field.path) + " = " + bad);
            const std::string text = field.before + bad + field.after;
            EffectDesc effect;
            std::vector<Diagnostic> diagnostics;
            EXPECT_FALSE(loadEffect(text, "t.json", effect, diagnostics));
            ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
            EXPECT_EQ(diagnostics[0].path, field.path);
            EXPECT_EQ(diagnostics[0].line, 1u);
            EXPECT_EQ(diagnostics[0].column, field.before.size()); // the opening quote
            EXPECT_NE(diagnostics[0].message.find("expected a string without control "
                                                  "characters, found " +
                                                  found),
                      std::string::npos)
                << diagnostics[0].message;
            // The message itself shows no control character.
            for (char ch : diagnostics[0].message) EXPECT_GE(static_cast<unsigned char>(ch), 0x20);
        }
    }
}

TEST(EffectLimits, OtherEscapesInPathsStillLoad) {
    EffectDesc effect;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadEffect(kHead + R"("render": {"texture": "t\u00e9x\/a\"b.png"}}]})", "t.json",
                           effect, diagnostics))
        << dumpLimits(diagnostics);
    EXPECT_EQ(effect.emitters[0].render.texture, "t\xc3\xa9x/a\"b.png");
}

// The same rule for effects built in code, so nothing the reader refuses reaches a backend
// another way (and load(save(e)) == e holds for every valid e).
TEST(EffectLimits, ValidateRefusesControlCharactersInCodeBuiltEffects) {
    EffectDesc e;
    e.name = "fx";
    e.emitters.resize(1);
    e.emitters[0].name = "a";
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(validateEffect(e, diagnostics));

    EffectDesc bad = e;
    bad.emitters[0].render.texture = std::string("spark\0.png", 10);
    diagnostics.clear();
    EXPECT_FALSE(validateEffect(bad, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
    EXPECT_EQ(diagnostics[0].path, "$.emitters[0].render.texture");
    EXPECT_EQ(diagnostics[0].message,
              "expected a path without control characters, found U+0000 at byte 5");

    bad = e;
    bad.emitters[0].render.type = RenderType::mesh;
    bad.emitters[0].render.blend = BlendMode::opaque;
    bad.emitters[0].render.mesh.mesh = "rock\n.obj";
    diagnostics.clear();
    EXPECT_FALSE(validateEffect(bad, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
    EXPECT_EQ(diagnostics[0].path, "$.emitters[0].render.mesh");

    bad = e;
    bad.name = "fire\t";
    diagnostics.clear();
    EXPECT_FALSE(validateEffect(bad, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dumpLimits(diagnostics);
    EXPECT_EQ(diagnostics[0].path, "$.name");
    EXPECT_EQ(diagnostics[0].message,
              "expected a name without control characters, found U+0009 at byte 4");
}

} // namespace
} // namespace spindrift
