// Hostile scene documents (issue 13, families 4 and 5), generated in memory: lists far past
// their limits, more JSON values than a scene can need, millions of mistakes, control
// characters in paths and names. As in tests/authoring/effect_limits_test.cpp, the cost of a
// refusal is checked through deterministic stand-ins (paths recorded, where the parser stopped).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/json_value.h"
#include "io/read_context.h"
#include "scene/scene_reader.h"
#include "scene/scene_test_util.h"
#include "spindrift/scene_json.h"
#include "support/list_document.h"

namespace spindrift {
namespace {

using test::document;

// Each element is itself wrong (a missing required key, a key of the wrong width): read, every
// one would be a diagnostic of its own.
struct ListCase {
    const char* name;
    std::string prefix, item, suffix;
    std::string message_head; // the message up to "found"
    const char* path;
};

std::vector<ListCase> listCases() {
    return {
        {"primitives", R"({"version": 1, "primitives": )", "{}", "}",
         "expected at most 64 primitives, found ", "$.primitives"},
        {"effect instances", R"({"version": 1, "effects": )", "{}", "}",
         "expected at most 64 effect instances, found ", "$.effects"},
        {"path keys", R"({"version": 1, "effects": [{"effect": "a.json", "path": {"keys": )", "[0]",
         "}}]}", "expected 2 to 1024 path keys, found ", "$.effects[0].path.keys"},
    };
}

size_t limitOf(const ListCase& c) {
    return std::string(c.name) == "path keys" ? kMaxMotionPathKeys : 64;
}

size_t recordedPaths(const std::string& text) {
    json::Value root;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(json::parse(text, "t.json", root, diagnostics)) << dump(diagnostics);
    ReadContext ctx;
    ctx.diagnostics = &diagnostics;
    SceneDesc scene;
    EXPECT_TRUE(readScene(ctx, root, scene));
    return ctx.positions.size();
}

TEST(SceneLimits, ListPastItsLimitIsOneDiagnosticAtTheList) {
    for (const ListCase& c : listCases()) {
        for (const size_t count : {limitOf(c) + 1, size_t{100000}}) {
            SCOPED_TRACE(std::string(c.name) + " x " + std::to_string(count));
            SceneDesc scene;
            std::vector<Diagnostic> diagnostics;
            EXPECT_FALSE(loadScene(document(c.prefix, c.item, count, c.suffix), "t.json", scene,
                                   diagnostics));
            ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
            EXPECT_EQ(diagnostics[0].path, c.path);
            EXPECT_EQ(diagnostics[0].message, c.message_head + std::to_string(count));
            EXPECT_EQ(diagnostics[0].line, 1u);
        }
    }
}

TEST(SceneLimits, ListPastItsLimitIsNotRead) {
    for (const ListCase& c : listCases()) {
        SCOPED_TRACE(c.name);
        const size_t just_over =
            recordedPaths(document(c.prefix, c.item, limitOf(c) + 1, c.suffix));
        const size_t far_over = recordedPaths(document(c.prefix, c.item, 100000, c.suffix));
        EXPECT_EQ(far_over, just_over);
        EXPECT_LT(far_over, 10u);
    }
}

// Four million primitives or instances (12 MB): the parser stops at the scene's value limit.
TEST(SceneLimits, FourMillionElementsStopTheParserAtTheValueLimit) {
    for (const char* key : {"primitives", "effects"}) {
        SCOPED_TRACE(key);
        const std::string text =
            document(std::string(R"({"version": 1, ")") + key + "\": ", "{}", 4000000, "}");
        SceneDesc scene;
        std::vector<Diagnostic> diagnostics;
        EXPECT_FALSE(loadScene(text, "t.json", scene, diagnostics));
        ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
        EXPECT_NE(diagnostics[0].message.find("more than 524288 values in a scene document"),
                  std::string::npos)
            << diagnostics[0].message;
        EXPECT_LT(diagnostics[0].byte_offset, 3 * kMaxSceneJsonValues + 64);
    }
}

TEST(SceneLimits, FileLargerThanTheLimitIsRefusedBeforeItIsRead) {
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() /
        ("spindrift_big_scene_" +
         std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".json");
    { std::ofstream(path) << "{"; }
    std::filesystem::resize_file(path, kMaxSceneFileBytes + 1); // sparse
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadSceneFile(path.string(), scene, diagnostics));
    std::filesystem::remove(path);
    ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
    EXPECT_EQ(diagnostics[0].message, "the file is 16777217 bytes; scene files are limited to "
                                      "16777216 bytes (16 MiB)");
}

// The largest valid scene's lists fit within the value limit: 64 instances of 1024 path keys.
TEST(SceneLimits, EveryListAtItsLimitLoads) {
    std::string keys;
    for (uint32_t k = 0; k < kMaxMotionPathKeys; ++k) {
        keys += (k ? "," : "") + std::string("[") + std::to_string(k) + ", 1.25, -2.5, 0.125]";
    }
    std::string text = R"({"version": 1, "primitives": )";
    text += document("", R"({"type": "sphere", "center": [0, 1, 0], "radius": 0.5})",
                     kMaxScenePrimitives, "");
    text += R"(, "effects": [)";
    for (uint32_t i = 0; i < kMaxSceneEffects; ++i) {
        text += (i ? "," : "") + std::string(R"({"effect": "a.json", "name": "i)") +
                std::to_string(i) + R"(", "path": {"keys": [)" + keys + "]}}";
    }
    text += "]}";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    ASSERT_TRUE(loadScene(text, "t.json", scene, diagnostics)) << dump(diagnostics);
    EXPECT_EQ(scene.effects.size(), kMaxSceneEffects);
    EXPECT_LT(text.size(), kMaxSceneFileBytes);
}

TEST(SceneLimits, DiagnosticsStopAtTheLimitPerFile) {
    std::string text = R"({"version": 1, "effects": [)";
    for (uint32_t i = 0; i < kMaxSceneEffects; ++i) {
        text += (i ? "," : "") + std::string(R"({"effect": "a.json", "path": {"keys": )") +
                document("", "[0, 0, 0, 0]", kMaxMotionPathKeys, "") + "}}";
    }
    text += "]}";
    SceneDesc scene;
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadScene(text, "t.json", scene, diagnostics));
    ASSERT_EQ(diagnostics.size(), kMaxDiagnosticsPerFile + 1);
    // Each instance's keys 1..1023 repeat t = 0.
    EXPECT_EQ(diagnostics[0].path, "$.effects[0].path.keys[1]");
    const uint64_t total = uint64_t{kMaxSceneEffects} * (kMaxMotionPathKeys - 1);
    EXPECT_EQ(diagnostics.back().message,
              std::to_string(total - kMaxDiagnosticsPerFile) +
                  " more errors not shown (at most 100 diagnostics are listed per file)");
}

TEST(SceneLimits, ControlCharactersInPathsAndNamesAreRefusedAtTheirPlace) {
    struct Field {
        const char* path;
        std::string before, after;
    };
    const std::vector<Field> fields = {
        {"$.effects[0].effect", R"({"version": 1, "effects": [{"effect": ")", "\"}]}"},
        {"$.effects[0].name", R"({"version": 1, "effects": [{"effect": "a.json", "name": ")",
         "\"}]}"},
        {"$.transparency", R"({"version": 1, "transparency": ")", "\"}"},
    };
    for (const Field& field : fields) {
        for (const std::string bad : {R"(a\u0000.json)", R"(\t)", R"(a\u001f)", R"(\u007f)"}) {
            SCOPED_TRACE(std::string(field.path) + " = " + bad);
            SceneDesc scene;
            std::vector<Diagnostic> diagnostics;
            EXPECT_FALSE(loadScene(field.before + bad + field.after, "t.json", scene, diagnostics));
            ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
            EXPECT_EQ(diagnostics[0].path, field.path);
            EXPECT_EQ(diagnostics[0].column, field.before.size());
            EXPECT_NE(diagnostics[0].message.find("without control characters"), std::string::npos)
                << diagnostics[0].message;
        }
    }
}

TEST(SceneLimits, ValidateRefusesControlCharactersInCodeBuiltEffectPaths) {
    SceneDesc scene;
    scene.effects.resize(1);
    scene.effects[0].effect = std::string("fire.json\0.png", 14);
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(validateScene(scene, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u) << dump(diagnostics);
    EXPECT_EQ(diagnostics[0].path, "$.effects[0].effect");
    EXPECT_EQ(diagnostics[0].message,
              "expected a path without control characters, found U+0000 at byte 9");
}

} // namespace
} // namespace spindrift
