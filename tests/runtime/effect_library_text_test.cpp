// EffectLibrary::addText (include/spindrift/runtime.h): an effect held in memory is compiled like
// a file, named by its name in diagnostics, reloaded by pollChanges when its text is replaced,
// kept at its last good version when the new text is invalid, and never confused with a file.
#include <gtest/gtest.h>

#include <string>

#include "spindrift/runtime.h"

namespace spindrift {
namespace {

constexpr const char* kSpray = R"({
  "version": 1,
  "name": "spray",
  "emitters": [
    {"name": "spray", "capacity": 512, "spawn": {"rate_per_s": 120},
     "init": {"lifetime_s": [0.5, 0.5], "speed": [0, 0]}}
  ]
})";

constexpr double kFrame = 1.0 / 60.0;

std::string withRate(const std::string& rate) {
    std::string text = kSpray;
    text.replace(text.find("120"), 3, rate);
    return text;
}

TEST(EffectLibraryText, CompilesTextHeldInMemoryAndPlaysIt) {
    EffectLibrary library;
    const EffectId id = library.addText("editor/spray.json", kSpray);
    ASSERT_NE(id.value, 0u);
    EXPECT_EQ(library.addText("editor/spray.json", kSpray), id) << "same name, same text";
    EXPECT_EQ(library.find("editor/spray.json"), id);
    EXPECT_EQ(library.compile(id), RuntimeError::none);
    EffectInfo info;
    ASSERT_TRUE(library.info(id, info));
    EXPECT_EQ(info.path, "editor/spray.json");
    EXPECT_EQ(info.emitters, std::vector<std::string>{"spray"});

    World world(library);
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    ASSERT_EQ(world.create(desc, h), RuntimeError::none);
    for (int i = 0; i < 10; ++i) world.update(kFrame);
    InstanceInfo ii;
    world.info(h, ii);
    EXPECT_EQ(ii.live_particles, 20u) << "120 per second for 10 steps";
}

TEST(EffectLibraryText, ReplacedTextReloadsAtTheNextPoll) {
    EffectLibrary library;
    const EffectId id = library.addText("spray.json", kSpray);
    ASSERT_EQ(library.compile(id), RuntimeError::none);
    EXPECT_EQ(library.pollChanges().files_changed, 0u);

    EXPECT_EQ(library.addText("spray.json", withRate("600")), id);
    ReloadReport report = library.pollChanges();
    EXPECT_EQ(report.files_changed, 1u);
    EXPECT_EQ(report.files_reloaded, 1u);
    EffectInfo info;
    library.info(id, info);
    EXPECT_EQ(info.version, 2u);
    EXPECT_EQ(library.pollChanges().files_changed, 0u) << "reloaded once";

    // Invalid text: rejected with positions in the named file; the last good version stays and
    // is not retried until the text changes again.
    library.addText("spray.json", withRate("-5"));
    report = library.pollChanges();
    EXPECT_EQ(report.files_rejected, 1u);
    ASSERT_FALSE(report.diagnostics.empty());
    EXPECT_EQ(report.diagnostics[0].file, "spray.json");
    EXPECT_GT(report.diagnostics[0].line, 0u);
    EXPECT_EQ(report.diagnostics[0].path, "$.emitters[0].spawn.rate_per_s");
    library.info(id, info);
    EXPECT_TRUE(info.failed);
    EXPECT_EQ(info.version, 2u);
    EXPECT_EQ(library.pollChanges().files_changed, 0u);
    library.addText("spray.json", withRate("30"));
    EXPECT_EQ(library.pollChanges().files_reloaded, 1u);
}

TEST(EffectLibraryText, RefusesEmptyNamesAndNamesOfFiles) {
    EffectLibrary library;
    EXPECT_EQ(library.addText("", kSpray).value, 0u);
    const EffectId file = library.add("some/file.json");
    EXPECT_EQ(library.addText("some/file.json", kSpray).value, 0u);
    EXPECT_NE(file.value, 0u);
}

TEST(EffectLibraryText, InvalidFirstTextFailsTheCreateWithItsDiagnostics) {
    EffectLibrary library;
    const EffectId id = library.addText("broken.json", "{\"version\": 1,");
    World world(library);
    InstanceDesc desc;
    desc.effect = id;
    InstanceHandle h;
    EXPECT_EQ(world.create(desc, h), RuntimeError::effect_failed);
    EXPECT_NE(world.lastErrorMessage().find("broken.json:1:"), std::string::npos)
        << world.lastErrorMessage();
}

} // namespace
} // namespace spindrift
