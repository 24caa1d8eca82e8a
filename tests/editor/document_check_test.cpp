#include <gtest/gtest.h>

#include "editor/document_check.h"
#include "editor/web_assets.h"
#include "spindrift/effect_json.h"

namespace spindrift::editor {
namespace {

TEST(DocumentCheck, MalformedJsonIsInvalidWithLineAndColumn) {
    const DocumentCheck check = checkDocument("{\n  \"version\": 1,\n  \"name\": \n}", "x.json");
    EXPECT_FALSE(check.valid);
    ASSERT_FALSE(check.diagnostics.empty());
    EXPECT_EQ(check.diagnostics[0].line, 4u);
    EXPECT_GT(check.diagnostics[0].column, 0u);
    const nlohmann::json json = diagnosticsJson(check.diagnostics);
    EXPECT_EQ(json[0]["severity"], "error");
    EXPECT_EQ(json[0]["line"], 4);
}

TEST(DocumentCheck, RuleErrorsCarryTheJsonPath) {
    const char* text = R"({"version": 1, "name": "x", "emitters": [
        {"name": "a", "spawn": {"rate_per_s": -5}}]})";
    const DocumentCheck check = checkDocument(text, "x.json");
    EXPECT_FALSE(check.valid);
    bool found = false;
    for (const Diagnostic& d : check.diagnostics)
        found = found || d.path == "$.emitters[0].spawn.rate_per_s";
    EXPECT_TRUE(found);
}

TEST(DocumentCheck, GarbageNeverThrows) {
    for (const char* text : {"", "\xff\xfe", "[", "nul", "{\"emitters\": [[[[[[[[]]]]]]]]}",
                             "{\"version\": 1e999}", "\"just a string\""}) {
        const DocumentCheck check = checkDocument(text, "x.json");
        EXPECT_FALSE(check.valid) << text;
        EXPECT_FALSE(check.diagnostics.empty()) << text;
    }
}

TEST(DocumentCheck, EveryEmbeddedTemplateIsValidAndSavesCanonically) {
    int templates = 0;
    for (const WebAsset& asset : webAssets()) {
        const std::string path = asset.path;
        if (path.rfind("/templates/", 0) != 0) continue;
        ++templates;
        const DocumentCheck check = checkDocument(asset.text(), path);
        EXPECT_TRUE(check.valid) << path;
        for (const Diagnostic& d : check.diagnostics)
            EXPECT_NE(d.severity, Severity::error) << path << ": " << formatDiagnostic(d);
        // Canonical text round-trips byte for byte.
        const std::string canonical = saveEffect(check.effect);
        EffectDesc again;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(loadEffect(canonical, path, again, diagnostics));
        EXPECT_EQ(saveEffect(again), canonical);
    }
    EXPECT_EQ(templates, 5); // fire, smoke, sparks, trail, magic_burst
}

// The templates are samples of examples/effects/ without their textures (so they preview in any
// folder): a sample that changes must change its template too.
TEST(DocumentCheck, EveryTemplateIsItsSampleWithoutTextures) {
    const std::pair<const char*, const char*> pairs[] = {{"fire", "campfire"},
                                                         {"smoke", "smoke_plume"},
                                                         {"sparks", "spark_burst"},
                                                         {"trail", "sword_trail"},
                                                         {"magic_burst", "magic_orb"}};
    for (const auto& [name, sample] : pairs) {
        EffectDesc expected;
        std::vector<Diagnostic> diagnostics;
        ASSERT_TRUE(loadEffectFile(std::string(SPINDRIFT_SOURCE_DIR) + "/examples/effects/" +
                                       sample + ".json",
                                   expected, diagnostics))
            << sample;
        expected.name = name;
        for (EmitterDesc& e : expected.emitters) {
            e.render.texture.clear();
            e.render.billboard.flipbook = {};
        }
        const WebAsset* asset = findWebAsset(std::string("/templates/") + name + ".json");
        ASSERT_NE(asset, nullptr) << name;
        const DocumentCheck check = checkDocument(asset->text(), name);
        ASSERT_TRUE(check.valid) << name;
        EXPECT_TRUE(check.effect == expected)
            << name << " differs from examples/effects/" << sample
            << ".json without textures: regenerate it from the sample";
    }
}

TEST(WebAssets, ThePageTheSchemaAndTheTemplatesAreEmbedded) {
    for (const char* path : {"/index.html", "/editor.js", "/editor.css", "/editor_document.js",
                             "/schema_form.js", "/curve_editors.js", "/preview.js",
                             "/schema/effect.schema.json", "/templates/fire.json"}) {
        const WebAsset* asset = findWebAsset(path);
        ASSERT_NE(asset, nullptr) << path;
        EXPECT_GT(asset->size, 100u) << path;
    }
    EXPECT_EQ(findWebAsset("/../etc/passwd"), nullptr);
    // Nothing loaded from elsewhere: no http(s) URL in the page.
    for (const char* path : {"/index.html", "/editor.js", "/editor.css", "/editor_document.js",
                             "/schema_form.js", "/curve_editors.js", "/preview.js"}) {
        const std::string_view text = findWebAsset(path)->text();
        EXPECT_EQ(text.find("http://"), std::string_view::npos) << path;
        EXPECT_EQ(text.find("https://"), std::string_view::npos) << path;
    }
}

} // namespace
} // namespace spindrift::editor
