#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "io/document_load.h"

namespace spindrift {
namespace {

// A reader for the tests: records the position of every value and rejects strings.
void readAll(ReadContext& ctx, const json::Value& v, const std::string& path) {
    ctx.record(path, v.pos);
    if (v.kind == json::Kind::string) ctx.error(path, v.pos, "expected a number");
    for (size_t i = 0; i < v.items.size(); ++i) {
        const bool object = v.kind == json::Kind::object;
        readAll(ctx, v.items[i],
                object ? json::pathKey(path, v.keys[i]) : json::pathIndex(path, i));
    }
}

Diagnostic rule(std::string path, std::string message, Severity severity = Severity::error) {
    Diagnostic d;
    d.severity = severity;
    d.path = std::move(path);
    d.message = std::move(message);
    return d;
}

// Steps whose rules report exactly the given diagnostics.
DocumentSteps stepsReporting(std::vector<Diagnostic> rules) {
    DocumentSteps steps;
    steps.read = [](ReadContext& ctx, const json::Value& root) {
        readAll(ctx, root, "$");
        return true;
    };
    steps.validate = [rules](std::vector<Diagnostic>& out) {
        out.insert(out.end(), rules.begin(), rules.end());
    };
    return steps;
}

std::vector<std::string> paths(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    for (const Diagnostic& d : diagnostics) out.push_back(d.path);
    return out;
}

const char* const kText = "{\n  \"a\": 1,\n  \"b\": {\"c\": 2, \"d\": \"x\"}\n}\n";

TEST(DocumentLoad, PlacesRuleDiagnosticsAtTheirPathsInDocumentOrder) {
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadDocument(kText, "doc.json",
                              stepsReporting({rule("$.b.c", "too big"), rule("$.a", "too small"),
                                              rule("$.b.e", "missing")}),
                              diagnostics));
    // $.b.d is the reader's; $.b.e was never read, so it takes its nearest ancestor's place.
    ASSERT_EQ(paths(diagnostics), (std::vector<std::string>{"$.a", "$.b.e", "$.b.c", "$.b.d"}));
    EXPECT_EQ(diagnostics[0].file, "doc.json");
    EXPECT_EQ(diagnostics[0].line, 2u);
    EXPECT_EQ(diagnostics[0].column, 8u);
    EXPECT_EQ(diagnostics[1].line, 3u);
    EXPECT_EQ(diagnostics[1].column, 8u);
    EXPECT_EQ(diagnostics[2].column, 14u);
}

TEST(DocumentLoad, DropsRuleDiagnosticsAtOrBelowWhatTheReaderRejected) {
    std::vector<Diagnostic> diagnostics;
    const std::string text = "{\"a\": \"x\", \"b\": 1}";
    EXPECT_FALSE(loadDocument(
        text, "doc.json",
        stepsReporting({rule("$.a", "out of range"), rule("$.a.z", "below"), rule("$.b", "bad")}),
        diagnostics));
    EXPECT_EQ(paths(diagnostics), (std::vector<std::string>{"$.a", "$.b"}));
    EXPECT_EQ(diagnostics[0].message, "expected a number");
}

TEST(DocumentLoad, DropsComparisonsWithARejectedValue) {
    DocumentSteps steps = stepsReporting({rule("$.b", "expected b > a")});
    steps.compares_rejected_value = [](const ReadContext& ctx, const Diagnostic& d) {
        return d.path == "$.b" && ctx.reported.count("$.a") != 0;
    };
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadDocument("{\"a\": \"x\", \"b\": 1}", "doc.json", steps, diagnostics));
    EXPECT_EQ(paths(diagnostics), (std::vector<std::string>{"$.a"}));
    diagnostics.clear();
    EXPECT_FALSE(loadDocument("{\"a\": 2, \"b\": 1}", "doc.json", steps, diagnostics));
    EXPECT_EQ(paths(diagnostics), (std::vector<std::string>{"$.b"}));
}

TEST(DocumentLoad, RulesHideNestedOnlyWhenAsked) {
    const std::vector<Diagnostic> rules = {rule("$.b", "too many"), rule("$.b.c", "bad item"),
                                           rule("$.b", "said twice")};
    DocumentSteps steps = stepsReporting(rules);
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadDocument("{\"b\": {\"c\": 1}}", "doc.json", steps, diagnostics));
    EXPECT_EQ(paths(diagnostics), (std::vector<std::string>{"$.b", "$.b", "$.b.c"}));

    steps.rules_hide_nested = true;
    diagnostics.clear();
    EXPECT_FALSE(loadDocument("{\"b\": {\"c\": 1}}", "doc.json", steps, diagnostics));
    ASSERT_EQ(paths(diagnostics), (std::vector<std::string>{"$.b"}));
    EXPECT_EQ(diagnostics[0].message, "too many");
}

TEST(DocumentLoad, CheckAfterSeesTheRulesPathsAndItsFindingsAreSorted) {
    DocumentSteps steps = stepsReporting({rule("$.b", "rule")});
    steps.rules_hide_nested = true;
    std::vector<bool> suppressed;
    steps.check_after = [&](const ReadContext& ctx, std::vector<Diagnostic>& out) {
        suppressed = {ctx.isSuppressed("$.a"), ctx.isSuppressed("$.b.c")};
        Diagnostic d = rule("$.a", "file not found");
        ctx.place(d);
        out.push_back(d);
    };
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadDocument("{\"a\": 1, \"b\": {\"c\": 1}}", "doc.json", steps, diagnostics));
    EXPECT_EQ(suppressed, (std::vector<bool>{false, true}));
    EXPECT_EQ(paths(diagnostics), (std::vector<std::string>{"$.a", "$.b"}));
    EXPECT_EQ(diagnostics[0].column, 7u);
}

TEST(DocumentLoad, WarningsAloneLoad) {
    std::vector<Diagnostic> diagnostics = {rule("", "an earlier error of another document")};
    EXPECT_TRUE(loadDocument("{\"a\": 1}", "doc.json",
                             stepsReporting({rule("$.a", "unusual", Severity::warning)}),
                             diagnostics));
    EXPECT_EQ(diagnostics.size(), 2u);
}

TEST(DocumentLoad, StopsAfterAFailedParseOrAStoppedRead) {
    bool validated = false;
    DocumentSteps steps;
    steps.read = [](ReadContext&, const json::Value&) { return false; };
    steps.validate = [&](std::vector<Diagnostic>&) { validated = true; };
    std::vector<Diagnostic> diagnostics;
    EXPECT_FALSE(loadDocument("{\"a\": 1}", "doc.json", steps, diagnostics));
    EXPECT_FALSE(validated);

    EXPECT_FALSE(loadDocument("{\"a\": ", "doc.json", steps, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].file, "doc.json");
    EXPECT_FALSE(validated);
}

// A document of count strings: the test reader rejects each one.
std::string stringsDocument(size_t count) {
    std::string text = "[";
    for (size_t i = 0; i < count; ++i) text += i == 0 ? "\"x\"" : ",\"x\"";
    return text + "]";
}

TEST(DocumentLoad, KeepsTheFirstDiagnosticsInDocumentOrderAndCountsTheRest) {
    std::vector<Diagnostic> diagnostics = {rule("", "an earlier error of another document")};
    // The rules report in reverse document order; the first 100 by position are kept.
    std::vector<Diagnostic> rules;
    for (size_t i = 0; i < 250; ++i) {
        rules.push_back(rule("$[" + std::to_string(249 - i) + "]", "rule", Severity::warning));
    }
    DocumentSteps steps = stepsReporting(rules);
    steps.read = [](ReadContext& ctx, const json::Value& root) {
        readAll(ctx, root, "$");
        return true;
    };
    std::string text = "[";
    for (size_t i = 0; i < 250; ++i) text += i == 0 ? "1" : ",1";
    text += "]";
    EXPECT_TRUE(loadDocument(text, "doc.json", steps, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1 + kMaxDiagnosticsPerFile + 1);
    EXPECT_EQ(diagnostics[0].message, "an earlier error of another document");
    EXPECT_EQ(diagnostics[1].path, "$[0]");
    EXPECT_EQ(diagnostics[100].path, "$[99]");
    EXPECT_EQ(diagnostics.back().severity, Severity::warning); // only warnings were left out
    EXPECT_EQ(diagnostics.back().message,
              "150 more warnings not shown (at most 100 diagnostics are listed per file)");
}

// While reading, the reader's diagnostics never pile up: past twice the limit they are cut back,
// so a million mistakes hold at most 2 * kMaxDiagnosticsPerFile diagnostics at any time.
TEST(DocumentLoad, ReaderDiagnosticsStayBoundedWhileReading) {
    size_t most_held = 0;
    DocumentSteps steps;
    steps.read = [&](ReadContext& ctx, const json::Value& root) {
        for (size_t i = 0; i < root.items.size(); ++i) {
            ctx.error(json::pathIndex("$", i), root.items[i].pos, "expected a number");
            most_held = std::max(most_held, ctx.diagnostics->size() - ctx.first);
        }
        return true;
    };
    steps.validate = [](std::vector<Diagnostic>&) {};
    std::vector<Diagnostic> diagnostics = {rule("", "an earlier error of another document")};
    EXPECT_FALSE(loadDocument(stringsDocument(1000000), "doc.json", steps, diagnostics));
    EXPECT_LT(most_held, 2 * kMaxDiagnosticsPerFile);
    ASSERT_EQ(diagnostics.size(), 1 + kMaxDiagnosticsPerFile + 1);
    EXPECT_EQ(diagnostics[0].message, "an earlier error of another document");
    EXPECT_EQ(diagnostics[1].path, "$[0]");
    EXPECT_EQ(diagnostics[100].path, "$[99]");
    EXPECT_EQ(diagnostics.back().message,
              "999900 more errors not shown (at most 100 diagnostics are listed per file)");
    EXPECT_EQ(diagnostics.back().file, "doc.json");
}

TEST(DocumentLoad, UsesTheFormatsParseLimits) {
    DocumentSteps steps = stepsReporting({});
    steps.parse.max_values = 2;
    steps.parse.document = "a test document";
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadDocument("[1, 1]", "doc.json", steps, diagnostics));
    EXPECT_FALSE(loadDocument("[1, 1, 1]", "doc.json", steps, diagnostics));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("more than 2 values in a test document"),
              std::string::npos)
        << diagnostics[0].message;
}

} // namespace
} // namespace spindrift
