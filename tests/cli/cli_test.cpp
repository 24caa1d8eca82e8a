// Runs the built `spindrift` binary the way a user would and checks exit codes and output.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "image/png_io.h"

namespace fs = std::filesystem;

namespace {

struct RunResult {
    int exit_code = -1;
    std::string output; // stdout and stderr together
};

// Runs the CLI with args; stdout and stderr together unless stdout_only.
RunResult run(const std::string& args, bool stdout_only = false) {
    const std::string command =
        std::string(SPINDRIFT_CLI) + " " + args + (stdout_only ? " 2>/dev/null" : " 2>&1");
    RunResult result;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) return result;
    std::array<char, 4096> buffer{};
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        result.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

std::string source(const std::string& relative) {
    return std::string(SPINDRIFT_SOURCE_DIR) + "/" + relative;
}

fs::path scratchDir(const std::string& name) {
    fs::path dir = fs::temp_directory_path() / ("spindrift_cli_test_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string structuralHashLine(const std::string& inspect_output) {
    std::smatch match;
    const std::regex pattern("structural hash: ([0-9a-f]{16})");
    return std::regex_search(inspect_output, match, pattern) ? match[1].str() : "";
}

} // namespace

TEST(Cli, PrintsVersionAndHelpForEveryCommand) {
    RunResult version = run("--version");
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_NE(version.output.find("spindrift " SPINDRIFT_VERSION), std::string::npos);
    for (const char* command : {"", "validate", "cook", "inspect", "simulate", "render"}) {
        RunResult help = run(std::string(command) + " --help");
        EXPECT_EQ(help.exit_code, 0) << command;
        EXPECT_NE(help.output.find("Usage"), std::string::npos) << command << help.output;
    }
}

TEST(Cli, ValidatesEverySampleEffect) {
    RunResult result = run("validate " + source("examples/effects"));
    EXPECT_EQ(result.exit_code, 0) << result.output;
    EXPECT_EQ(result.output.find("error:"), std::string::npos) << result.output;
    size_t samples = 0;
    for (const auto& entry : fs::directory_iterator(source("examples/effects"))) {
        if (entry.path().extension() == ".json") ++samples;
    }
    EXPECT_GE(samples, 8u);
}

TEST(Cli, ReportsOneDiagnosticPerBadEffectFileAndFails) {
    const fs::path dir = source("tests/data/bad_effects");
    std::set<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() == ".json") files.insert(entry.path().filename().string());
    }
    ASSERT_GE(files.size(), 25u);
    for (const std::string& file : files) {
        RunResult result = run("validate " + (dir / file).string());
        EXPECT_EQ(result.exit_code, 1) << file << "\n" << result.output;
        // Compiler style: "<file>:<line>:<col>: error: <path>: <message>" (or "<file>: error: ..."
        // where the mistake has no position, such as an empty file).
        size_t errors = 0;
        size_t at = 0;
        while ((at = result.output.find(": error: ", at)) != std::string::npos) {
            ++errors;
            ++at;
        }
        EXPECT_EQ(errors, 1u) << file << "\n" << result.output;
        EXPECT_EQ(result.output.rfind((dir / file).string(), 0), 0u) << result.output;
    }
}

TEST(Cli, ValidateFailsClearlyOnAMissingFile) {
    RunResult result = run("validate /nonexistent/effect.json");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("/nonexistent/effect.json"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("error:"), std::string::npos) << result.output;
}

// inspect lists what a host may set and tune: user parameters, the scalability block and the
// cosmetic emitters.
TEST(Cli, InspectListsParametersAndScalability) {
    RunResult params = run("inspect " + source("examples/effects/ember_gust.json"));
    ASSERT_EQ(params.exit_code, 0) << params.output;
    for (const char* expected :
         {"parameters: 4 (13 bound record words)",
          "intensity: float, default 80, range 0 .. 400, 1 record word",
          "tint: color, default (12, 4.5, 1, 1), range (0, 0, 0, 0) .. (16, 16, 16, 1)"}) {
        EXPECT_NE(params.output.find(expected), std::string::npos) << expected << params.output;
    }
    RunResult scale = run("inspect " + source("tests/data/runtime/scalability.json"));
    ASSERT_EQ(scale.exit_code, 0) << scale.output;
    for (const char* expected :
         {"scalability: sleeps past 100 m from the camera (births fade over the last 40 m), "
          "wakes by fast-forwarding, when culled sleeps",
          "fast-forward at most 4 s", "cosmetic: does not spawn at the low quality tier"}) {
        EXPECT_NE(scale.output.find(expected), std::string::npos) << expected << scale.output;
    }
    EXPECT_EQ(params.output.find("scalability:"), std::string::npos);
}

// A sub-emitter link on a threshold crossing runs on both backends: inspect says so for its
// emitter, with no gap listed (docs/gpu-backend.md, "Sub-emitters").
TEST(Cli, InspectRunsThresholdLinksOnBothBackends) {
    RunResult inspect = run("inspect " + source("tests/data/runtime/events.json"));
    ASSERT_EQ(inspect.exit_code, 0) << inspect.output;
    const size_t link = inspect.output.find("sub-emitter: on threshold -> [1] smoke");
    ASSERT_NE(link, std::string::npos) << inspect.output;
    const size_t backends = inspect.output.find("backends:", link);
    ASSERT_NE(backends, std::string::npos) << inspect.output;
    const size_t end = inspect.output.find('\n', backends);
    EXPECT_EQ(inspect.output.substr(backends, end - backends), "backends: cpu yes, gpu yes");
    EXPECT_EQ(inspect.output.find("threshold_sub_emitters"), std::string::npos) << inspect.output;
}

TEST(Cli, CookedFileInspectsLikeItsSource) {
    const fs::path dir = scratchDir("cook");
    const fs::path out = dir / "campfire.sfx";
    RunResult cook =
        run("cook " + source("examples/effects/campfire.json") + " -o " + out.string());
    ASSERT_EQ(cook.exit_code, 0) << cook.output;
    ASSERT_TRUE(fs::exists(out));

    RunResult from_json = run("inspect " + source("examples/effects/campfire.json"));
    RunResult from_sfx = run("inspect " + out.string());
    ASSERT_EQ(from_json.exit_code, 0) << from_json.output;
    ASSERT_EQ(from_sfx.exit_code, 0) << from_sfx.output;
    const std::string hash = structuralHashLine(from_json.output);
    EXPECT_EQ(hash.size(), 16u) << from_json.output;
    EXPECT_EQ(hash, structuralHashLine(from_sfx.output));
    for (const char* expected : {"emitters:", "capacity", "backends:", "LUT"}) {
        EXPECT_NE(from_json.output.find(expected), std::string::npos)
            << expected << from_json.output;
    }
    // The cooked file names its textures relative to itself, as the effect did.
    RunResult without_textures = run("validate " + out.string());
    EXPECT_EQ(without_textures.exit_code, 1) << without_textures.output;
    EXPECT_NE(without_textures.output.find("cannot load texture 'textures/flame_atlas.png'"),
              std::string::npos)
        << without_textures.output;
    fs::copy(source("examples/effects/textures"), dir / "textures");
    RunResult validate_sfx = run("validate " + out.string());
    EXPECT_EQ(validate_sfx.exit_code, 0) << validate_sfx.output;
}

// validate refuses what a later command would: the textures and meshes an effect names must
// exist and decode, trail storage must fit both backends, and bounds must stay in range; each
// error names the file and the JSON path.
TEST(Cli, ValidateRefusesWhatSimulateOrRenderWould) {
    const fs::path dir = scratchDir("validate_refuses");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name, std::ios::binary) << text;
        return (dir / name).string();
    };
    struct Case {
        std::string file, text, path, message;
    };
    const std::vector<Case> cases = {
        {"no_texture.json",
         R"({"version": 1, "name": "x", "emitters": [{"name": "e", "render": {"texture": "absent.png"}}]})",
         "$.emitters[0].render.texture", "cannot load texture 'absent.png'"},
        {"bad_texture.json",
         R"({"version": 1, "name": "x", "emitters": [{"name": "e", "render": {"texture": "not_a.png"}}]})",
         "$.emitters[0].render.texture", "cannot load texture 'not_a.png'"},
        {"no_mesh.json",
         R"({"version": 1, "name": "x", "emitters": [{"name": "e", "render": {"type": "mesh", "mesh": "absent.obj"}}]})",
         "$.emitters[0].render.mesh", "cannot load mesh 'absent.obj'"},
        {"bad_mesh.json",
         R"({"version": 1, "name": "x", "emitters": [{"name": "e", "render": {"type": "mesh", "mesh": "broken.obj"}}]})",
         "$.emitters[0].render.mesh", "cannot load mesh 'broken.obj'"},
        {"long_trails.json",
         R"({"version": 1, "name": "x", "capacity": 1000000, "emitters": [{"name": "e", "capacity": 131072, "render": {"type": "ribbon", "max_points": 256}}]})",
         "$.emitters[0].render.max_points", "more than the effect format's limit of 16777216"},
        {"far_bounds.json",
         R"({"version": 1, "name": "x", "bounds": {"center": [3e38, 0, 0]}, "emitters": [{"name": "e"}]})",
         "$.bounds.center[0]", "expected a number in [-1e6, 1e6], found 3e38"},
    };
    write("not_a.png", "this is not a PNG");
    write("broken.obj", "v 1 2\nf 1 2 3\n");
    for (const Case& c : cases) {
        const std::string file = write(c.file, c.text);
        // simulate reads no textures or meshes; it refuses what it would need.
        const bool names_asset = c.path.find("render.texture") != std::string::npos ||
                                 c.path.find("render.mesh") != std::string::npos;
        std::vector<std::string> commands = {
            "validate " + file, "render -q -o " + (dir / "out.png").string() + " " + file};
        if (!names_asset) commands.push_back("simulate --time 0.1 " + file);
        for (const std::string& args : commands) {
            RunResult result = run(args);
            EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.output;
            // file: or file:line:col:, then the path.
            const std::regex where(file + "(:[0-9]+:[0-9]+)?: error: " +
                                   std::regex_replace(c.path, std::regex(R"([$.\[\]])"), R"(\$&)"));
            EXPECT_TRUE(std::regex_search(result.output, where)) << args << "\n" << result.output;
            EXPECT_NE(result.output.find(c.message), std::string::npos) << args << "\n"
                                                                        << result.output;
        }
    }
}

TEST(Cli, RejectsACorruptCookedFile) {
    const fs::path dir = scratchDir("corrupt");
    const fs::path good = dir / "good.sfx";
    ASSERT_EQ(run("cook " + source("examples/effects/spark_burst.json") + " -o " + good.string())
                  .exit_code,
              0);
    std::string bytes;
    {
        std::ifstream in(good, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    ASSERT_GT(bytes.size(), 64u);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
    const fs::path bad = dir / "bad.sfx";
    {
        std::ofstream out(bad, std::ios::binary);
        out << bytes;
    }
    for (const char* command : {"validate ", "inspect "}) {
        RunResult result = run(command + bad.string());
        EXPECT_EQ(result.exit_code, 1) << command << result.output;
        EXPECT_NE(result.output.find("error:"), std::string::npos) << result.output;
    }
    std::ofstream(dir / "garbage.sfx", std::ios::binary) << "not a cooked file";
    RunResult garbage = run("inspect " + (dir / "garbage.sfx").string());
    EXPECT_EQ(garbage.exit_code, 1) << garbage.output;
}

TEST(Cli, CookRefusesAnInvalidEffect) {
    const fs::path dir = scratchDir("cook_bad");
    const fs::path out = dir / "out.sfx";
    std::ofstream(dir / "bad.json")
        << R"({"version": 1, "name": "x", "emitters": [{"name": "a", "spawn": {"rate_per_s": -1}}]})";
    RunResult result = run("cook " + (dir / "bad.json").string() + " -o " + out.string());
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("rate_per_s"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(out));
}

// One rule for every usage error: "error: ..." and exit 1, like every other error (docs/cli.md).
TEST(Cli, EveryUsageErrorExitsOneWithAMessage) {
    const std::string effect = source("examples/effects/campfire.json");
    const std::pair<std::string, std::string> cases[] = {
        {"frobnicate", "unknown command 'frobnicate'"},
        {"", "A subcommand is required"},
        {"--no-such-option", "unknown option '--no-such-option'"},
        {"validate --no-such-option x.json", "--no-such-option"},
        {"cook " + effect + " --no-such-option", "--no-such-option"},
        {"inspect " + effect + " extra", "extra"},
        {"simulate " + effect + " --time 1 --no-such-option", "--no-such-option"},
        {"render " + effect + " --no-such-option", "--no-such-option"},
        {"validate", "inputs is required"},
        {"cook", "input is required"},
        {"simulate " + effect, "--time is required"},
        {"simulate " + effect + " --time", "--time"},
        {"simulate " + effect + " --time 1 --time 2", "--time"},
        {"render " + effect + " -o", "--output"},
    };
    for (const auto& [args, message] : cases) {
        RunResult result = run(args);
        EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.output;
        EXPECT_EQ(result.output.rfind("error: ", 0), 0u) << args << "\n" << result.output;
        EXPECT_NE(result.output.find(message), std::string::npos) << args << "\n" << result.output;
    }
}

// Every numeric option refuses what is not wholly a number of its kind in its range: exit 1, a
// message naming the option, what it expects and what it found, and nothing run or written. Each
// case is a process (slow to start under the sanitizers), so each option tries a few values that
// show it goes through the one parser with its own range; cli_options_test tries the parser on
// every kind of bad text in process.
TEST(Cli, EveryNumericOptionRefusesNonNumbersNonFiniteAndOutOfRangeValues) {
    const std::string effect = source("examples/effects/campfire.json");
    const fs::path dir = scratchDir("bad_numbers");
    const std::string simulate = "simulate " + effect + " ";
    const std::string render = "render " + effect + " -o " + (dir / "out.png").string() + " ";
    const std::vector<std::string> not_numbers = {"nan", "-inf", "", "1x"};
    struct Option {
        std::string command; // everything but the option
        std::string name;
        std::vector<std::string> out_of_range;
        bool whole;
    };
    const Option options[] = {
        {simulate, "--time", {"-1", "-0.001", "86400.5", "1e9"}, false},
        {simulate + "--time 1 ", "--threads", {"0", "257", "4294967297"}, true},
        {simulate + "--time 1 ", "--seed", {"4294967296", "18446744073709551616"}, true},
        {render, "--time", {"-1", "3600.001", "1e5"}, false},
        {render, "--fps", {"0", "0.05", "240.5", "-30"}, false},
        {render, "--frames", {"0", "1048577"}, true},
        {render, "--contact-sheet", {"0", "257"}, true},
        {render, "--png-level", {"10", "4294967296"}, true},
        {render, "--jobs", {"0", "65"}, true},
    };
    for (const Option& option : options) {
        std::vector<std::string> values = not_numbers;
        values.insert(values.end(), option.out_of_range.begin(), option.out_of_range.end());
        if (option.whole) {
            for (const char* v : {"1.5", "+1"}) values.push_back(v);
        }
        for (const std::string& value : values) {
            const std::string args = option.command + option.name + " '" + value + "'";
            RunResult result = run(args);
            EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.output;
            EXPECT_EQ(result.output.rfind("error: " + option.name + ": expected ", 0), 0u)
                << args << "\n"
                << result.output;
            EXPECT_NE(result.output.find("found '" + value + "'"), std::string::npos)
                << args << "\n"
                << result.output;
            // The = form takes any text, "-inf" included: the values the separate form could
            // read as an option are checked that way too (each run is a process, and under the
            // sanitizers a slow one to start).
            if (value.empty() || value[0] == '-' || value[0] == ' ') {
                RunResult joined = run(option.command + option.name + "='" + value + "'");
                EXPECT_EQ(joined.exit_code, 1) << args << "\n" << joined.output;
            }
        }
    }
    for (const char* size : {"nan", "15x16", "16x8193"}) {
        RunResult result = run(render + "--size '" + size + "'");
        EXPECT_EQ(result.exit_code, 1) << size << "\n" << result.output;
        EXPECT_EQ(result.output.rfind("error: --size: expected WIDTHxHEIGHT", 0), 0u)
            << size << "\n"
            << result.output;
    }
    const std::pair<std::string, std::string> choices[] = {
        {simulate + "--time 1 --dump", "xml"},       {simulate + "--time 1 --dump", ""},
        {simulate + "--time 1 --backend", "CPU"},    {render + "--backend", "vulkan"},
        {render + "--transparency", "weighted-oit"}, {render + "--raster", "Compute"},
        {render + "--particle-resolution", "Half"},
    };
    for (const auto& [command, value] : choices) {
        RunResult result = run(command + " '" + value + "'");
        EXPECT_EQ(result.exit_code, 1) << command << "\n" << result.output;
        EXPECT_NE(result.output.find("expected one of"), std::string::npos) << result.output;
        EXPECT_NE(result.output.find("found '" + value + "'"), std::string::npos) << result.output;
    }
    EXPECT_FALSE(fs::exists(dir / "out.png"));
    // The edges of each range are accepted.
    for (const char* args : {"--time 0", "--time 0.25 --threads 256 --seed 4294967295",
                             "--time 1e-1 --seed 0 --threads 1"}) {
        RunResult result = run(simulate + args);
        EXPECT_EQ(result.exit_code, 0) << args << "\n" << result.output;
    }
    RunResult edges = run(render + "--size 16x16 --time 3600 --quiet");
    EXPECT_EQ(edges.exit_code, 0) << edges.output;
}

namespace {

std::string stateHash(const std::string& output) {
    std::smatch match;
    const std::regex pattern("state hash: ([0-9a-f]{16})");
    return std::regex_search(output, match, pattern) ? match[1].str() : "";
}

} // namespace

TEST(Cli, SimulateGivesTheSameStateHashForAnyThreadCount) {
    const std::string effect = source("examples/effects/fountain.json");
    RunResult one = run("simulate " + effect + " --time 2.5");
    RunResult two = run("simulate " + effect + " --time 2.5 --threads 2");
    ASSERT_EQ(one.exit_code, 0) << one.output;
    ASSERT_EQ(two.exit_code, 0) << two.output;
    EXPECT_EQ(stateHash(one.output).size(), 16u) << one.output;
    EXPECT_EQ(stateHash(one.output), stateHash(two.output));
    for (const char* expected : {"live", "births", "deaths", "overflows", "water"}) {
        EXPECT_NE(one.output.find(expected), std::string::npos) << expected << one.output;
    }
    RunResult reseeded = run("simulate " + effect + " --time 2.5 --seed 7");
    EXPECT_NE(stateHash(reseeded.output), stateHash(one.output));
}

TEST(Cli, SimulateDumpsOneCsvRowPerLiveParticle) {
    RunResult result =
        run("simulate " + source("examples/effects/snowfall.json") + " --time 1 --dump csv", true);
    ASSERT_EQ(result.exit_code, 0) << result.output;
    size_t rows = 0;
    for (char c : result.output) rows += c == '\n';
    RunResult report = run("simulate " + source("examples/effects/snowfall.json") + " --time 1");
    std::smatch match;
    ASSERT_TRUE(std::regex_search(report.output, match, std::regex("flakes +([0-9]+)")));
    EXPECT_EQ(rows, std::stoul(match[1].str()) + 1) << "header + one row per particle";
    EXPECT_EQ(result.output.rfind("emitter,position_x", 0), 0u);
}

TEST(Cli, SimulateRejectsBadArguments) {
    EXPECT_EQ(run("simulate " + source("examples/effects/campfire.json") + " --time -1").exit_code,
              1);
    EXPECT_EQ(run("simulate " + source("examples/effects/campfire.json") + " --time 1 --threads 0")
                  .exit_code,
              1);
    EXPECT_EQ(run("simulate " + source("examples/effects/campfire.json") + " --time 1 --dump xml")
                  .exit_code,
              1);
    EXPECT_EQ(run("simulate /nonexistent.json --time 1").exit_code, 1);
}

// ---------------------------------------------------------------------------------------------
// render: small images, so each case takes a fraction of a second on lavapipe.

namespace {

// Reads a PNG the CLI wrote; false when it is missing or does not decode.
bool readImage(const fs::path& path, spindrift::Image& image) {
    std::vector<spindrift::Diagnostic> diagnostics;
    return spindrift::readPng(path.string(), image, diagnostics);
}

// How many distinct pixel values an image has (a blank frame has one).
size_t distinctPixels(const spindrift::Image& image) {
    std::set<uint32_t> values;
    for (size_t i = 0; i + 3 < image.rgba8.size() && values.size() < 100; i += 4) {
        values.insert(uint32_t(image.rgba8[i]) | uint32_t(image.rgba8[i + 1]) << 8 |
                      uint32_t(image.rgba8[i + 2]) << 16);
    }
    return values.size();
}

// Sets an environment variable (seen by the CLI processes run meanwhile) for a scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (had_)
            setenv(name_.c_str(), old_.c_str(), 1);
        else
            unsetenv(name_.c_str());
    }

private:
    std::string name_, old_;
    bool had_ = false;
};

} // namespace

TEST(Cli, RenderWritesAStillOfAnEffect) {
    const fs::path dir = scratchDir("render_still");
    const fs::path out = dir / "fire.png";
    RunResult result = run("render " + source("examples/effects/campfire.json") + " -o " +
                           out.string() + " --size 160x90 --time 2");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_NE(result.output.find("wrote still"), std::string::npos) << result.output;
    spindrift::Image image;
    ASSERT_TRUE(readImage(out, image));
    EXPECT_EQ(image.width, 160u);
    EXPECT_EQ(image.height, 90u);
    EXPECT_GT(distinctPixels(image), 10u) << "not a blank frame";
}

TEST(Cli, RenderWritesAStillOfASceneNamedAfterTheInput) {
    const fs::path dir = scratchDir("render_default_name");
    const std::string command = "cd " + dir.string() + " && " + std::string(SPINDRIFT_CLI) +
                                " render " + source("examples/scenes/campfire_night.json") +
                                " --size 64x36 --quiet 2>&1";
    ASSERT_EQ(std::system(command.c_str()), 0);
    spindrift::Image image;
    ASSERT_TRUE(readImage(dir / "campfire_night.png", image));
    EXPECT_EQ(image.width, 64u);
}

TEST(Cli, RenderWritesSequencesContactSheetsAndVideo) {
    const fs::path dir = scratchDir("render_outputs");
    const std::string effect = source("examples/effects/spark_burst.json");
    RunResult sequence = run("render " + effect + " -o " + (dir / "f_%02d.png").string() +
                             " --frames 3 --size 48x32 --quiet");
    ASSERT_EQ(sequence.exit_code, 0) << sequence.output;
    for (const char* name : {"f_00.png", "f_01.png", "f_02.png"}) {
        spindrift::Image image;
        EXPECT_TRUE(readImage(dir / name, image)) << name;
    }
    EXPECT_FALSE(fs::exists(dir / "f_03.png"));

    RunResult numbered =
        run("render " + effect + " -o " + (dir / "n.png").string() + " --frames 2 --size 48x32");
    ASSERT_EQ(numbered.exit_code, 0) << numbered.output;
    EXPECT_TRUE(fs::exists(dir / "n_0000.png"));
    EXPECT_TRUE(fs::exists(dir / "n_0001.png"));

    RunResult sheet = run("render " + effect + " -o " + (dir / "sheet.png").string() +
                          " --contact-sheet 4 --size 64x48");
    ASSERT_EQ(sheet.exit_code, 0) << sheet.output;
    spindrift::Image image;
    ASSERT_TRUE(readImage(dir / "sheet.png", image));
    EXPECT_EQ(image.width, 2 * 64 + 3 * 4u);
    EXPECT_EQ(image.height, 2 * 48 + 3 * 4u);

    if (std::system("command -v ffprobe >/dev/null 2>&1") != 0) GTEST_SKIP() << "no ffmpeg";
    RunResult video = run("render " + effect + " -o " + (dir / "clip.mp4").string() +
                          " --frames 6 --fps 12 --size 64x48");
    ASSERT_EQ(video.exit_code, 0) << video.output;
    FILE* probe = popen(("ffprobe -v error -count_frames -show_entries stream=nb_read_frames,width "
                         "-of default=nw=1 " +
                         (dir / "clip.mp4").string())
                            .c_str(),
                        "r");
    ASSERT_NE(probe, nullptr);
    std::string text;
    std::array<char, 256> buffer{};
    size_t n = 0;
    while ((n = fread(buffer.data(), 1, buffer.size(), probe)) > 0) text.append(buffer.data(), n);
    pclose(probe);
    EXPECT_NE(text.find("nb_read_frames=6"), std::string::npos) << text;
    EXPECT_NE(text.find("width=64"), std::string::npos) << text;
    for (const auto& entry : fs::directory_iterator(dir))
        EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
}

TEST(Cli, RenderReportsABadSceneWithItsPosition) {
    const fs::path dir = scratchDir("render_bad_scene");
    std::ofstream(dir / "bad.json")
        << "{\n  \"version\": 1,\n  \"camera\": {\"position\": [0, 2, 6], "
           "\"target\": [0, 1, 0], \"fov_deg\": 180}\n}\n";
    RunResult result =
        run("render " + (dir / "bad.json").string() + " -o " + (dir / "out.png").string());
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("bad.json:3:"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("$.camera.fov_deg"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(dir / "out.png"));
}

TEST(Cli, RenderReportsAMissingTextureByPath) {
    const fs::path dir = scratchDir("render_missing_texture");
    std::ofstream(dir / "fx.json")
        << R"({"version": 1, "name": "fx", "emitters": [)"
           R"({"name": "puff", "render": {"texture": "gone/smoke.png"}}]})";
    RunResult result =
        run("render " + (dir / "fx.json").string() + " -o " + (dir / "out.png").string());
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("gone/smoke.png"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("'puff'"), std::string::npos) << result.output;
}

TEST(Cli, RenderWithoutAVulkanDriverFailsClearly) {
    const fs::path dir = scratchDir("render_no_device");
    ScopedEnv no_driver("VK_ICD_FILENAMES", "/nonexistent");
    RunResult result = run("render " + source("examples/effects/campfire.json") + " -o " +
                           (dir / "out.png").string() + " --size 32x32");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.output.find("Vulkan"), std::string::npos) << result.output;
    EXPECT_NE(result.output.find("mesa-vulkan-drivers"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(dir / "out.png"));
}

// --transparency overrides the scene's: the campfire's alpha smoke through weighted OIT draws a
// different image from the sorted one; an unknown mode is refused by the option parser.
TEST(Cli, RenderTransparencyOptionOverridesTheScene) {
    const std::string effect = source("examples/effects/campfire.json");
    const fs::path dir = scratchDir("render_transparency");
    const std::string common = " --size 64x48 --time 2 --quiet --validation";
    RunResult sorted = run("render " + effect + " -o " + (dir / "sorted.png").string() + common);
    ASSERT_EQ(sorted.exit_code, 0) << sorted.output;
    RunResult oit = run("render " + effect + " -o " + (dir / "oit.png").string() + common +
                        " --transparency weighted_oit");
    ASSERT_EQ(oit.exit_code, 0) << oit.output;
    spindrift::Image a, b;
    ASSERT_TRUE(readImage(dir / "sorted.png", a));
    ASSERT_TRUE(readImage(dir / "oit.png", b));
    EXPECT_NE(a.rgba8, b.rgba8);
    RunResult bad = run("render " + effect + " -o " + (dir / "bad.png").string() + common +
                        " --transparency unsorted");
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.output.find("--transparency"), std::string::npos) << bad.output;
}

// --particle-resolution half overrides the scene's: the campfire's smoke and flames drawn into the
// half-resolution layer give another image than at full resolution, but one close to it (their
// soft discs are smooth: the mean difference per channel stays under 3 of 255).
TEST(Cli, RenderParticleResolutionHalfOverridesTheScene) {
    const std::string effect = source("examples/effects/campfire.json");
    const fs::path dir = scratchDir("render_particle_resolution");
    const std::string common = " --size 64x48 --time 2 --quiet --validation";
    RunResult full = run("render " + effect + " -o " + (dir / "full.png").string() + common);
    ASSERT_EQ(full.exit_code, 0) << full.output;
    RunResult half = run("render " + effect + " -o " + (dir / "half.png").string() + common +
                         " --particle-resolution half");
    ASSERT_EQ(half.exit_code, 0) << half.output;
    spindrift::Image a, b;
    ASSERT_TRUE(readImage(dir / "full.png", a));
    ASSERT_TRUE(readImage(dir / "half.png", b));
    ASSERT_EQ(a.rgba8.size(), b.rgba8.size());
    EXPECT_NE(a.rgba8, b.rgba8);
    double sum = 0;
    for (size_t i = 0; i < a.rgba8.size(); ++i) sum += std::abs(int(a.rgba8[i]) - int(b.rgba8[i]));
    EXPECT_LT(sum / static_cast<double>(a.rgba8.size()), 3.0);
}

// --raster compute draws the campfire's billboards with the compute rasteriser: the same image as
// the graphics path within rounding (docs/rendering.md, "Compute rasteriser").
TEST(Cli, RenderRasterComputeGivesTheGraphicsImage) {
    const std::string effect = source("examples/effects/campfire.json");
    const fs::path dir = scratchDir("render_raster");
    const std::string common = " --size 64x48 --time 2 --quiet --validation";
    RunResult graphics =
        run("render " + effect + " -o " + (dir / "graphics.png").string() + common);
    ASSERT_EQ(graphics.exit_code, 0) << graphics.output;
    RunResult compute = run("render " + effect + " -o " + (dir / "compute.png").string() + common +
                            " --raster compute");
    ASSERT_EQ(compute.exit_code, 0) << compute.output;
    spindrift::Image a, b;
    ASSERT_TRUE(readImage(dir / "graphics.png", a));
    ASSERT_TRUE(readImage(dir / "compute.png", b));
    ASSERT_EQ(a.rgba8.size(), b.rgba8.size());
    int largest = 0;
    size_t above_2 = 0;
    for (size_t i = 0; i < a.rgba8.size(); ++i) {
        const int d = std::abs(int{a.rgba8[i]} - int{b.rgba8[i]});
        largest = std::max(largest, d);
        if (d > 2) ++above_2;
    }
    // The textured flipbook tolerance of ComputeRasterTest: the flames' mip levels are worked
    // out by each path's own shader, and a trilinear sample between levels can round apart by a
    // few codes (one pixel of this image by 8).
    EXPECT_LE(largest, 8);
    EXPECT_LE(above_2, a.rgba8.size() / 50) << "largest " << largest;
}

// --motion-vectors writes a Portable Float Map beside the still (docs/rendering.md, "Motion
// vectors"): its header, its size, the flames rising (up the image: y below 0) over a still
// ground once --motion-additive and a coverage of 0.2 let the flames write, and nothing moving
// without them
// (the smoke's thin pixels are under the default coverage of 0.5, the flames add light); the
// colour PNG is the one drawn without it; a sequence writes one per frame; a wrong extension, a
// video, a numbered still path and the motion settings without --motion-vectors are refused.
TEST(Cli, RenderMotionVectorsWritesAFloatMapBesideTheFrames) {
    const std::string effect = source("examples/effects/campfire.json");
    const fs::path dir = scratchDir("render_motion");
    const std::string common = " --size 64x48 --time 2 --quiet --validation";
    RunResult plain = run("render " + effect + " -o " + (dir / "plain.png").string() + common);
    ASSERT_EQ(plain.exit_code, 0) << plain.output;
    // Reads a 64 x 48 .pfm: its x, y, 0 per pixel, bottom row first. Counts the pixels moving up.
    auto risingPixels = [](const fs::path& path, std::vector<float>& values) {
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
        const std::string header = "PF\n64 48\n-1.0\n";
        EXPECT_EQ(bytes.size(), header.size() + size_t{64} * 48 * 3 * 4);
        EXPECT_EQ(bytes.substr(0, header.size()), header);
        values.assign(size_t{64} * 48 * 3, 0.0f);
        if (bytes.size() != header.size() + values.size() * sizeof(float)) return size_t{0};
        std::memcpy(values.data(), bytes.data() + header.size(), values.size() * sizeof(float));
        size_t rising = 0;
        for (size_t i = 0; i < values.size(); i += 3) {
            EXPECT_TRUE(std::isfinite(values[i]) && std::isfinite(values[i + 1])) << i;
            EXPECT_EQ(values[i + 2], 0.0f);
            if (values[i + 1] < -0.1f) ++rising;
        }
        return rising;
    };
    RunResult with = run("render " + effect + " -o " + (dir / "still.png").string() + common +
                         " --motion-vectors " + (dir / "still.pfm").string() +
                         " --motion-additive --motion-coverage 0.2");
    ASSERT_EQ(with.exit_code, 0) << with.output;
    spindrift::Image a, b;
    ASSERT_TRUE(readImage(dir / "plain.png", a));
    ASSERT_TRUE(readImage(dir / "still.png", b));
    EXPECT_EQ(a.rgba8, b.rgba8);
    std::vector<float> values;
    EXPECT_GT(risingPixels(dir / "still.pfm", values), 10u) << "no pixel of the fire moved up";
    // The file's first row is the image's bottom: the ground, still under a still camera.
    for (size_t x = 0; x < 64; ++x) EXPECT_NEAR(values[x * 3], 0.0f, 1e-3f) << x;

    RunResult defaults = run("render " + effect + " -o " + (dir / "defaults.png").string() +
                             common + " --motion-vectors " + (dir / "defaults.pfm").string());
    ASSERT_EQ(defaults.exit_code, 0) << defaults.output;
    EXPECT_EQ(risingPixels(dir / "defaults.pfm", values), 0u)
        << "additive flames and thin smoke keep the still background's motion";

    RunResult sequence =
        run("render " + effect + " -o " + (dir / "seq_%02d.png").string() +
            " --frames 2 --size 64x48 --quiet --motion-vectors " + (dir / "mv.pfm").string());
    ASSERT_EQ(sequence.exit_code, 0) << sequence.output;
    EXPECT_TRUE(fs::exists(dir / "mv_0000.pfm"));
    EXPECT_TRUE(fs::exists(dir / "mv_0001.pfm"));

    const std::pair<std::string, std::string> refused[] = {
        {" -o " + (dir / "x.png").string() + " --motion-vectors " + (dir / "x.exr").string(),
         ".pfm"},
        {" -o " + (dir / "x.mp4").string() + " --frames 2 --motion-vectors " +
             (dir / "x.pfm").string(),
         "video"},
        {" -o " + (dir / "x.png").string() + " --motion-vectors " + (dir / "x_%02d.pfm").string(),
         "frame number"},
        {" -o " + (dir / "x.png").string() + " --motion-coverage 0.3", "--motion-vectors"},
        {" -o " + (dir / "x.png").string() + " --motion-additive", "--motion-vectors"},
        {" -o " + (dir / "x.png").string() + " --motion-vectors " + (dir / "x.pfm").string() +
             " --motion-coverage 1.5",
         "--motion-coverage"},
        {" -o " + (dir / "x.png").string() + " --motion-vectors " + (dir / "x.pfm").string() +
             " --motion-coverage nan",
         "--motion-coverage"},
    };
    for (const auto& [args, needle] : refused) {
        RunResult bad = run("render " + effect + " --size 64x48 --quiet" + args);
        EXPECT_EQ(bad.exit_code, 1) << args;
        EXPECT_NE(bad.output.find(needle), std::string::npos) << bad.output;
    }
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
    }
}

TEST(Cli, RenderRejectsBadSizesOutputsAndOptionMixes) {
    const std::string effect = source("examples/effects/campfire.json");
    const fs::path dir = scratchDir("render_bad_options");
    for (const char* size : {"10x10", "9000x100", "abc", "100x", "x100", "100x-5", "1e3x100"}) {
        RunResult result =
            run("render " + effect + " -o " + (dir / "a.png").string() + " --size " + size);
        EXPECT_EQ(result.exit_code, 1) << size;
        EXPECT_NE(result.output.find("--size"), std::string::npos) << size << result.output;
    }
    RunResult gif = run("render " + effect + " -o " + (dir / "a.gif").string());
    EXPECT_EQ(gif.exit_code, 1);
    EXPECT_NE(gif.output.find("unknown output type"), std::string::npos) << gif.output;
    RunResult pattern = run("render " + effect + " -o " + (dir / "a_%s.png").string());
    EXPECT_EQ(pattern.exit_code, 1);
    RunResult sheet_mp4 =
        run("render " + effect + " -o " + (dir / "a.mp4").string() + " --contact-sheet 4");
    EXPECT_EQ(sheet_mp4.exit_code, 1);
    EXPECT_EQ(run("render /nonexistent/effect.json").exit_code, 1);
    EXPECT_EQ(run("render " + effect + " --contact-sheet 0").exit_code, 1);
}

// ---------------------------------------------------------------------------------------------
// Outputs (docs/cli.md, "Outputs"): never onto an input, never onto anything but a regular file
// or a new name, the whole file or nothing.

namespace {

std::string fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Names in dir that look like an output's temporary file ("<name>.XXXXXX.tmp[.ext]").
std::vector<std::string> temporariesIn(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) {
        if (entry.path().filename().string().find(".tmp") != std::string::npos)
            names.push_back(entry.path().string());
    }
    return names;
}

// Runs the CLI as run() does, with a file size limit (RLIMIT_FSIZE) and SIGXFSZ ignored: a
// write past max_file_bytes fails with EFBIG, as a full disk fails with ENOSPC, even as root.
// The limit and the ignored signal are inherited by what the CLI starts (ffmpeg).
RunResult runWithFileSizeLimit(const std::string& args, rlim_t max_file_bytes) {
    RunResult result;
    int fds[2];
    if (pipe(fds) != 0) return result;
    const std::string command = std::string(SPINDRIFT_CLI) + " " + args;
    const pid_t child = fork();
    if (child == 0) {
        dup2(fds[1], STDOUT_FILENO);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{max_file_bytes, max_file_bytes};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(125);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::array<char, 4096> buffer{};
    ssize_t n = 0;
    while ((n = read(fds[0], buffer.data(), buffer.size())) > 0)
        result.output.append(buffer.data(), size_t(n));
    close(fds[0]);
    int status = 0;
    if (child > 0 && waitpid(child, &status, 0) == child)
        result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

bool haveFfmpeg() {
    return std::system("command -v ffmpeg >/dev/null 2>&1") == 0;
}

} // namespace

TEST(Cli, CookRefusesToWriteOntoItsInput) {
    const fs::path dir = scratchDir("cook_onto_input");
    fs::create_directories(dir / "sub");
    const fs::path input = dir / "x.json";
    fs::copy_file(source("examples/effects/spark_burst.json"), input);
    const std::string original = fileBytes(input);
    fs::create_symlink("x.json", dir / "link.json");
    fs::create_hard_link(input, dir / "hard.json");
    const std::string in_dir = "cd " + dir.string() + " && " + std::string(SPINDRIFT_CLI);
    const std::pair<std::string, std::string> cases[] = {
        {"cook " + input.string() + " -o " + input.string(), "the input"},
        {"cook " + input.string() + " -o " + (dir / "sub" / ".." / "x.json").string(), "the input"},
        {"cook " + input.string() + " -o " + (dir / "link.json").string(), "the input"},
        {"cook " + input.string() + " -o " + (dir / "hard.json").string(), "same file"},
        {"cook " + (dir / "hard.json").string() + " -o " + input.string(), "same file"},
    };
    for (const auto& [args, why] : cases) {
        RunResult result = run(args);
        EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.output;
        EXPECT_NE(result.output.find(": error: the output is"), std::string::npos) << result.output;
        EXPECT_NE(result.output.find(why), std::string::npos) << result.output;
    }
    for (const char* relative : {" cook x.json -o x.json 2>&1", " cook x.json -o ./x.json 2>&1"}) {
        FILE* pipe = popen((in_dir + relative).c_str(), "r");
        ASSERT_NE(pipe, nullptr);
        std::string text;
        std::array<char, 1024> buffer{};
        size_t n = 0;
        while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
            text.append(buffer.data(), n);
        const int status = pclose(pipe);
        EXPECT_EQ(WEXITSTATUS(status), 1) << relative << text;
        EXPECT_NE(text.find("x.json: error: the output is the input file"), std::string::npos)
            << text;
    }
    EXPECT_EQ(fileBytes(input), original);
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));

    // A cooked input's default output is the input itself.
    ASSERT_EQ(run("cook " + input.string() + " -o " + (dir / "x.sfx").string()).exit_code, 0);
    const std::string cooked = fileBytes(dir / "x.sfx");
    RunResult recook = run("cook " + (dir / "x.sfx").string());
    EXPECT_EQ(recook.exit_code, 1) << recook.output;
    EXPECT_EQ(fileBytes(dir / "x.sfx"), cooked);
    EXPECT_TRUE(temporariesIn(dir).empty());
}

TEST(Cli, CookRefusesOutputsThatAreNotRegularFiles) {
    const fs::path dir = scratchDir("cook_special");
    const std::string effect = source("examples/effects/spark_burst.json");
    fs::create_directories(dir / "folder.sfx");
    ASSERT_EQ(mkfifo((dir / "fifo.sfx").c_str(), 0644), 0);
    // A reader, so that a CLI that opened the FIFO would write rather than block.
    const int reader = open((dir / "fifo.sfx").c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    fs::create_symlink("missing.sfx", dir / "dangling.sfx");
    std::vector<std::pair<std::string, std::string>> cases = {
        {(dir / "folder.sfx").string(), "a directory"},
        {(dir / "fifo.sfx").string(), "a FIFO"},
        {(dir / "dangling.sfx").string(), "a symbolic link to a missing file"},
    };
    // A character device: a copy of /dev/null's node where we may make one (root), so that a
    // regression replaces the copy and not the system's /dev/null.
    const fs::path device = dir / "null.sfx";
    const bool have_device = mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    if (have_device) cases.push_back({device.string(), "a character device"});
    for (const auto& [output, what] : cases) {
        RunResult result = run("cook " + effect + " -o " + output);
        EXPECT_EQ(result.exit_code, 1) << output << "\n" << result.output;
        EXPECT_NE(result.output.find(output + ": error: the output is " + what), std::string::npos)
            << result.output;
    }
    char byte = 0;
    EXPECT_LE(read(reader, &byte, 1), 0) << "nothing was written into the FIFO";
    close(reader);
    if (have_device) {
        EXPECT_TRUE(fs::is_character_file(device)) << "the device node stays";
    }
    EXPECT_TRUE(fs::is_empty(dir / "folder.sfx"));
    EXPECT_TRUE(fs::is_fifo(dir / "fifo.sfx"));
    EXPECT_FALSE(fs::exists(dir / "missing.sfx"));
    EXPECT_TRUE(temporariesIn(dir).empty());
}

// The render's inputs are the scene, every effect it loads and every texture and mesh they name.
TEST(Cli, RenderRefusesToWriteOntoAnyOfItsInputs) {
    const fs::path dir = scratchDir("render_onto_input");
    fs::create_directories(dir / "effects" / "textures");
    fs::create_directories(dir / "effects" / "meshes");
    fs::create_directories(dir / "scenes");
    for (const char* texture : {"flame_atlas.png", "smoke_atlas.png", "spark.png", "glow.png"})
        fs::copy_file(source("examples/effects/textures/") + texture,
                      dir / "effects" / "textures" / texture);
    // Inputs with .png names, so that a PNG output can name them.
    fs::copy_file(source("examples/effects/campfire.json"), dir / "effects" / "fire.png");
    std::ofstream(dir / "scenes" / "night.png")
        << R"({"version": 1, "effects": [{"effect": "../effects/fire.png"}]})";
    std::string rocks = fileBytes(source("examples/effects/rockfall.json"));
    rocks.replace(rocks.find("meshes/rock.obj"), 15, "meshes/rock.png");
    std::ofstream(dir / "effects" / "rocks.json") << rocks;
    fs::copy_file(source("examples/effects/meshes/rock.obj"),
                  dir / "effects" / "meshes" / "rock.png");
    fs::create_hard_link(dir / "effects" / "textures" / "spark.png", dir / "hard.png");
    fs::create_symlink(dir / "effects" / "textures" / "smoke_atlas.png", dir / "frame_2.png");

    const std::string scene = (dir / "scenes" / "night.png").string();
    const std::string fire = (dir / "effects" / "fire.png").string();
    const std::string common = " --size 48x32 --quiet";
    const std::pair<std::string, std::string> cases[] = {
        {fire + " -o " + fire, fire},
        {scene + " -o " + scene, scene},
        {scene + " -o " + (dir / "effects" / ".." / "effects" / "fire.png").string(), fire},
        {scene + " -o " + (dir / "effects" / "textures" / "flame_atlas.png").string(),
         "flame_atlas.png"},
        {fire + " -o " + (dir / "hard.png").string(), "spark.png"},
        {fire + " -o " + (dir / "frame_%d.png").string() + " --frames 4", "smoke_atlas.png"},
        {fire + " -o " + (dir / "effects" / "textures" / "spark.png").string() +
             " --contact-sheet 4",
         "spark.png"},
        {(dir / "effects" / "rocks.json").string() + " -o " +
             (dir / "effects" / "meshes" / "rock.png").string(),
         "rock.png"},
    };
    std::map<fs::path, std::string> before;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) before[entry.path()] = fileBytes(entry.path());
    for (const auto& [args, input] : cases) {
        RunResult result = run("render " + args + common);
        EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.output;
        EXPECT_NE(result.output.find(": error: the output is"), std::string::npos) << args << "\n"
                                                                                   << result.output;
        EXPECT_NE(result.output.find(input), std::string::npos) << result.output;
    }
    for (const auto& [path, bytes] : before) EXPECT_EQ(fileBytes(path), bytes) << path;
    EXPECT_FALSE(fs::exists(dir / "frame_0.png")) << "checked before any frame is written";
    EXPECT_TRUE(temporariesIn(dir).empty());
}

TEST(Cli, RenderRefusesOutputsThatAreNotRegularFiles) {
    const fs::path dir = scratchDir("render_special");
    const std::string effect = source("examples/effects/spark_burst.json");
    fs::create_directories(dir / "folder.png");
    fs::create_directories(dir / "folder.mp4");
    ASSERT_EQ(mkfifo((dir / "fifo.png").c_str(), 0644), 0);
    const int reader = open((dir / "fifo.png").c_str(), O_RDONLY | O_NONBLOCK);
    ASSERT_GE(reader, 0);
    fs::create_symlink("missing.png", dir / "dangling.png");
    const std::pair<std::string, std::string> cases[] = {
        {(dir / "folder.png").string(), "a directory"},
        {(dir / "folder.mp4").string() + " --frames 2", "a directory"},
        {(dir / "fifo.png").string(), "a FIFO"},
        {(dir / "fifo.png").string() + " --contact-sheet 2", "a FIFO"},
        {(dir / "dangling.png").string(), "a symbolic link to a missing file"},
    };
    for (const auto& [output, what] : cases) {
        RunResult result = run("render " + effect + " --size 48x32 --quiet -o " + output);
        EXPECT_EQ(result.exit_code, 1) << output << "\n" << result.output;
        EXPECT_NE(result.output.find(": error: the output is " + what), std::string::npos)
            << result.output;
    }
    char byte = 0;
    EXPECT_LE(read(reader, &byte, 1), 0) << "nothing was written into the FIFO";
    close(reader);
    EXPECT_TRUE(fs::is_empty(dir / "folder.png"));
    EXPECT_TRUE(fs::is_empty(dir / "folder.mp4"));
    EXPECT_FALSE(fs::exists(dir / "missing.png"));
    EXPECT_TRUE(temporariesIn(dir).empty());
}

// A write that fails part way (EFBIG here, ENOSPC on a full disk) leaves the file that was there
// byte for byte, creates no empty file where there was none, and leaves no temporary file.
// Writer threads and the compression level change how a sequence is written, never what it
// shows: every frame decodes to the pixels of the sequential path at level 9, and to the still of
// the same scene time. An MP4 gets its frames in order whatever --jobs says.
TEST(Cli, RenderSequencesGiveTheSamePixelsWithAnyJobsAndLevel) {
    const fs::path dir = scratchDir("render_jobs");
    const std::string effect = source("examples/effects/spark_burst.json");
    const std::string common = "render " + effect + " --frames 7 --fps 10 --size 48x32 --quiet ";
    const std::pair<std::string, std::string> variants[] = {
        {"old", "--jobs 1 --png-level 9"},
        {"threads", "--jobs 3 --png-level 1"},
        {"default", ""},
        {"stored", "--jobs 2 --png-level 0"},
    };
    for (const auto& [name, options] : variants) {
        RunResult result = run(common + options + " -o " + (dir / (name + "_%d.png")).string());
        ASSERT_EQ(result.exit_code, 0) << options << "\n" << result.output;
    }
    size_t distinct = 0;
    for (uint32_t i = 0; i < 7; ++i) {
        spindrift::Image reference;
        const std::string frame = "_" + std::to_string(i) + ".png";
        ASSERT_TRUE(readImage(dir / ("old" + frame), reference)) << i;
        distinct = std::max(distinct, distinctPixels(reference));
        for (const char* name : {"threads", "default", "stored"}) {
            spindrift::Image image;
            ASSERT_TRUE(readImage(dir / (name + frame), image)) << name << frame;
            EXPECT_EQ(image.width, 48u);
            EXPECT_TRUE(image.rgba8 == reference.rgba8) << name << frame << " differs";
        }
    }
    EXPECT_GT(distinct, 1u) << "the frames are blank: the comparison shows nothing";
    EXPECT_FALSE(fs::exists(dir / "threads_7.png"));
    // Level 0 stores, level 1 compresses: the level reaches the files.
    EXPECT_GT(fs::file_size(dir / "stored_3.png"), fs::file_size(dir / "threads_3.png"));
    // Frame 5 is scene time 0.5 s: the still of that time.
    RunResult still = run("render " + effect + " --time 0.5 --size 48x32 --quiet -o " +
                          (dir / "still.png").string());
    ASSERT_EQ(still.exit_code, 0) << still.output;
    spindrift::Image still_image, frame5;
    ASSERT_TRUE(readImage(dir / "still.png", still_image));
    ASSERT_TRUE(readImage(dir / "old_5.png", frame5));
    EXPECT_TRUE(still_image.rgba8 == frame5.rgba8);
    EXPECT_TRUE(temporariesIn(dir).empty());

    if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) GTEST_SKIP() << "no ffmpeg";
    // x264 output depends only on the frames and their order (it is deterministic whatever its
    // own threads do), so the same bytes mean the same frames in the same order.
    for (const char* jobs : {"1", "4"}) {
        RunResult video =
            run("render " + effect + " --frames 8 --fps 10 --size 48x32 --quiet " + "--jobs " +
                jobs + " -o " + (dir / ("jobs" + std::string(jobs) + ".mp4")).string());
        ASSERT_EQ(video.exit_code, 0) << video.output;
    }
    EXPECT_EQ(fileBytes(dir / "jobs1.mp4"), fileBytes(dir / "jobs4.mp4"));
}

TEST(Cli, AFailedWriteKeepsTheOldOutputAndLeavesNothingBehind) {
    const fs::path dir = scratchDir("failed_write");
    const std::string effect = source("examples/effects/campfire.json");
    const std::string old = "the previous output, which must survive";
    const rlim_t limit = 1000; // bytes: less than any of these outputs
    struct Case {
        std::string args;
        std::string existing; // an output there before, or ""
        std::string created;  // an output that must not appear
    };
    const Case cases[] = {
        {"cook " + effect + " -o " + (dir / "old.sfx").string(), "old.sfx", ""},
        {"cook " + effect + " -o " + (dir / "new.sfx").string(), "", "new.sfx"},
        {"render " + effect + " --size 160x90 --time 2 -q -o " + (dir / "old.png").string(),
         "old.png", ""},
        {"render " + effect + " --size 160x90 --time 2 -q -o " + (dir / "new.png").string(), "",
         "new.png"},
        {"render " + effect + " --size 160x90 -q --frames 2 -o " + (dir / "seq_%d.png").string(),
         "", "seq_0.png"},
        // The sequential path, and writer threads: a write that fails on a writer thread is
        // reported the same, and the render stops.
        {"render " + effect + " --size 160x90 -q --frames 6 --jobs 1 -o " +
             (dir / "one_%d.png").string(),
         "", "one_0.png"},
        {"render " + effect + " --size 160x90 -q --frames 6 --jobs 3 -o " +
             (dir / "three_%d.png").string(),
         "", "three_0.png"},
        {"render " + effect + " --size 160x90 -q --contact-sheet 4 -o " +
             (dir / "sheet.png").string(),
         "", "sheet.png"},
    };
    for (const Case& c : cases) {
        if (!c.existing.empty()) std::ofstream(dir / c.existing) << old;
        RunResult result = runWithFileSizeLimit(c.args, limit);
        EXPECT_EQ(result.exit_code, 1) << c.args << "\n" << result.output;
        EXPECT_NE(result.output.find("error: cannot write the file: File too large"),
                  std::string::npos)
            << c.args << "\n"
            << result.output;
        if (!c.existing.empty()) {
            EXPECT_EQ(fileBytes(dir / c.existing), old) << c.args;
        }
        if (!c.created.empty()) {
            EXPECT_FALSE(fs::exists(dir / c.created)) << c.args;
        }
    }
    if (haveFfmpeg()) {
        std::ofstream(dir / "old.mp4") << old;
        for (const char* name : {"old.mp4", "new.mp4"}) {
            RunResult result = runWithFileSizeLimit(
                "render " + effect + " --size 160x90 -q --frames 6 -o " + (dir / name).string(),
                limit);
            EXPECT_EQ(result.exit_code, 1) << name << "\n" << result.output;
            EXPECT_NE(result.output.find(std::string(name) + ": error: ffmpeg"), std::string::npos)
                << result.output;
        }
        EXPECT_EQ(fileBytes(dir / "old.mp4"), old);
        EXPECT_FALSE(fs::exists(dir / "new.mp4"));
    }
    EXPECT_TRUE(temporariesIn(dir).empty()) << temporariesIn(dir).front();
    // The same commands without the limit succeed: the failures above were the writes.
    EXPECT_EQ(run(cases[0].args).exit_code, 0);
    EXPECT_NE(fileBytes(dir / "old.sfx"), old);
}

namespace {

// The per-emitter rows of a simulate report ("name live births deaths overflows").
std::vector<std::string> emitterRows(const std::string& output) {
    std::vector<std::string> rows;
    const std::regex row("(^|\n)([a-z_]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+)(?=\n)");
    for (auto it = std::sregex_iterator(output.begin(), output.end(), row);
         it != std::sregex_iterator(); ++it) {
        rows.push_back((*it)[2].str());
    }
    return rows;
}

} // namespace

// Counts are exact on both backends (docs/gpu-backend.md, "Parity"); the GPU prints no hash.
TEST(Cli, SimulateOnTheGpuBackendGivesTheCpuCounts) {
    for (const char* name : {"campfire.json", "snowfall.json", "spark_burst.json"}) {
        const std::string effect = source(std::string("examples/effects/") + name);
        RunResult cpu = run("simulate " + effect + " --time 1.5");
        RunResult gpu = run("simulate " + effect + " --time 1.5 --backend gpu --validation");
        ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
        ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
        EXPECT_FALSE(emitterRows(cpu.output).empty()) << cpu.output;
        EXPECT_EQ(emitterRows(cpu.output), emitterRows(gpu.output)) << cpu.output << gpu.output;
        EXPECT_NE(gpu.output.find("backend: gpu (gpu requested"), std::string::npos) << gpu.output;
        EXPECT_NE(gpu.output.find("state hash: n/a (gpu backend"), std::string::npos) << gpu.output;
        EXPECT_EQ(stateHash(gpu.output), "");
        EXPECT_NE(cpu.output.find("backend: cpu (cpu requested)"), std::string::npos) << cpu.output;
    }
}

// The same counters on both backends where they are easiest to get wrong: sub-emitters
// (fireworks, fountain) and a parent that overflows with replace_oldest and a child that drops
// (the overflows column counts both, from either backend: runtime/effect_instance.h).
TEST(Cli, SimulateReportsTheSameCountersOnBothBackendsWithOverflowAndSubEmitters) {
    for (const char* path : {"examples/effects/fireworks.json", "examples/effects/fountain.json",
                             "tests/data/runtime/overflowing_parent.json"}) {
        const std::string effect = source(path);
        RunResult cpu = run("simulate " + effect + " --time 2");
        RunResult gpu = run("simulate " + effect + " --time 2 --backend gpu --validation");
        ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
        ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
        EXPECT_GE(emitterRows(cpu.output).size(), 2u) << cpu.output;
        EXPECT_EQ(emitterRows(cpu.output), emitterRows(gpu.output)) << cpu.output << gpu.output;
    }
}

TEST(Cli, SimulateDumpsTheSameColumnsFromTheGpuBackend) {
    const std::string effect = source("examples/effects/snowfall.json");
    RunResult cpu = run("simulate " + effect + " --time 1 --dump csv", true);
    RunResult gpu = run("simulate " + effect + " --time 1 --dump csv --backend gpu", true);
    ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
    const auto lines = [](const std::string& text) {
        return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
    };
    EXPECT_EQ(lines(gpu.output), lines(cpu.output)) << "header + one row per live particle";
    EXPECT_GT(lines(gpu.output), 100u);
    EXPECT_EQ(gpu.output.substr(0, gpu.output.find('\n')),
              cpu.output.substr(0, cpu.output.find('\n')));
    RunResult json = run("simulate " + effect + " --time 1 --dump json --backend gpu", true);
    ASSERT_EQ(json.exit_code, 0);
    EXPECT_EQ(json.output.rfind("[\n  {\"emitter\": 0, \"position\": [", 0), 0u)
        << json.output.substr(0, 200);
}

TEST(Cli, SimulateGpuRequestTheBackendCannotMeetIsAnError) {
    ScopedEnv no_driver("VK_ICD_FILENAMES", "/nonexistent");
    RunResult no_device =
        run("simulate " + source("examples/effects/campfire.json") + " --time 1 --backend gpu");
    EXPECT_EQ(no_device.exit_code, 1);
    EXPECT_NE(no_device.output.find("no usable Vulkan device"), std::string::npos)
        << no_device.output;
    // auto without a device runs on the CPU and says why.
    RunResult fallback =
        run("simulate " + source("examples/effects/campfire.json") + " --time 1 --backend auto");
    EXPECT_EQ(fallback.exit_code, 0) << fallback.output;
    EXPECT_NE(fallback.output.find("backend: cpu (auto: no usable Vulkan device"),
              std::string::npos)
        << fallback.output;
}

TEST(Cli, SimulateAutoStaysOnTheCpuOnACpuDevice) {
    RunResult result =
        run("simulate " + source("examples/effects/campfire.json") + " --time 1 --backend auto");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    if (result.output.find("llvmpipe") == std::string::npos) GTEST_SKIP() << "not on lavapipe";
    EXPECT_NE(result.output.find("backend: cpu (auto: device 'llvmpipe"), std::string::npos)
        << result.output;
    EXPECT_NE(result.output.find("is a CPU device"), std::string::npos) << result.output;
    EXPECT_EQ(stateHash(result.output).size(), 16u) << result.output;
    EXPECT_NE(
        run("simulate " + source("examples/effects/campfire.json") + " --time 1 --backend vulkan")
            .exit_code,
        0);
}

TEST(Cli, RenderOnTheGpuBackendWritesAStill) {
    const fs::path dir = scratchDir("render_gpu");
    RunResult result = run("render " + source("examples/effects/campfire.json") + " -o " +
                           (dir / "gpu.png").string() + " --size 64x48 --backend gpu --validation");
    ASSERT_EQ(result.exit_code, 0) << result.output;
    EXPECT_TRUE(fs::exists(dir / "gpu.png"));
    EXPECT_NE(result.output.find("gpu backend (gpu requested"), std::string::npos) << result.output;
    // Depth-buffer collision runs there too, against the renderer's depth.
    RunResult depth =
        run("render " + source("tests/data/effects/depth_floor_rain.json") + " -o " +
            (dir / "depth_rain.png").string() + " --size 64x48 --backend gpu --validation");
    EXPECT_EQ(depth.exit_code, 0) << depth.output;
    EXPECT_TRUE(fs::exists(dir / "depth_rain.png"));
}

// A scene past the scene format's limits is still recognised as a scene (render sniffs only its
// top-level keys), so the message is the scene loader's, quickly and without a huge allocation.
TEST(Cli, RenderReportsAHugeSceneAsAScene) {
    const fs::path dir = scratchDir("huge_scene");
    std::string text = R"({"version": 1, "camera": {}, "effects": [)";
    for (int i = 0; i < 1200000; ++i) text += "{},"; // past every format's value cap
    text += "{}]}";
    std::ofstream(dir / "huge.json", std::ios::binary) << text;
    RunResult result =
        run("render -q -o " + (dir / "out.png").string() + " " + (dir / "huge.json").string());
    EXPECT_EQ(result.exit_code, 1) << result.output;
    EXPECT_NE(result.output.find("a scene document"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("effect document"), std::string::npos) << result.output;
    EXPECT_FALSE(fs::exists(dir / "out.png"));
}

// ---------------------------------------------------------------------------------------------
// Run-time limits (docs/driver.md, "Limits"): a run of more than kMaxSimulatedSteps fixed steps
// is refused before anything runs, with exit 1 and a message naming the file and the numbers.

namespace {

// A small one-emitter effect with a fixed step of dt_s, written to dir.
std::string writeStepEffect(const fs::path& dir, const std::string& name, double dt_s) {
    const fs::path path = dir / (name + ".json");
    std::ofstream(path) << "{\"version\": 1, \"name\": \"" << name << "\", \"seed\": 3, "
                        << "\"fixed_timestep_s\": " << dt_s << ", \"looping\": true, "
                        << "\"emitters\": [{\"name\": \"e\", \"capacity\": 4, "
                        << "\"spawn\": {\"rate_per_s\": 2}, \"init\": {\"lifetime_s\": 1}}]}";
    return path.string();
}

// A scene with one instance of effect_file (relative to dir) starting at start_s.
std::string writePreRollScene(const fs::path& dir, const std::string& name,
                              const std::string& effect_file, const std::string& start_s,
                              double time_scale = 1) {
    const fs::path path = dir / (name + ".json");
    std::ofstream(path) << "{\"version\": 1, \"camera\": {\"position\": [0, 2, 8], \"target\": "
                        << "[0, 1, 0]}, \"resolution\": [32, 32], \"duration_s\": 2, "
                        << "\"effects\": [{\"effect\": \"" << effect_file
                        << "\", \"name\": \"early\", \"start_s\": " << start_s
                        << ", \"time_scale\": " << time_scale << "}]}";
    return path.string();
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST(Cli, SimulateRefusesATimePastTheStepLimit) {
    const fs::path dir = scratchDir("step_limit");
    const std::string fine = writeStepEffect(dir, "fine", 0.005);     // 200 Hz: 50 000 s at most
    const std::string finest = writeStepEffect(dir, "finest", 0.001); // 1 kHz: 10 000 s at most
    struct Case {
        std::string effect;
        std::string time;
        std::string steps; // as the message prints them
    };
    for (const Case& c : {Case{fine, "86400", "1.728e+07"}, Case{fine, "50000.1", "1e+07"},
                          Case{fine, "60000", "1.2e+07"}, Case{finest, "10001", "1e+07"},
                          Case{finest, "86400", "8.64e+07"}}) {
        for (const char* backend : {"cpu", "gpu"}) {
            RunResult r =
                run("simulate " + c.effect + " --time " + c.time + " --backend " + backend);
            EXPECT_EQ(r.exit_code, 1) << r.output;
            EXPECT_EQ(r.output.rfind(c.effect + ": error: --time " + c.time + " s is " + c.steps +
                                         " fixed steps",
                                     0),
                      0u)
                << r.output;
            EXPECT_TRUE(contains(r.output, "more than the 10000000 steps a run may simulate"))
                << r.output;
            EXPECT_FALSE(contains(r.output, "simulated ")) << "nothing ran\n" << r.output;
        }
    }
    EXPECT_TRUE(contains(run("simulate " + fine + " --time 86400").output,
                         "this effect runs at most 50000 s"));
    // A day of a 10 Hz effect is well within the limit, and the last allowed step runs.
    const std::string coarse = writeStepEffect(dir, "coarse", 0.1);
    RunResult day = run("simulate " + coarse + " --time 86400");
    EXPECT_EQ(day.exit_code, 0) << day.output;
    EXPECT_TRUE(contains(day.output, "864000 steps of 0.1 s")) << day.output;
    RunResult last = run("simulate " + finest + " --time 10000");
    EXPECT_EQ(last.exit_code, 0) << last.output;
    EXPECT_TRUE(contains(last.output, "10000000 steps of 0.001 s")) << last.output;
}

TEST(Cli, RenderRefusesAStartTimeOutsideTheSceneLimits) {
    const fs::path dir = scratchDir("pre_roll_range");
    writeStepEffect(dir, "fine", 0.005);
    for (const char* start : {"-1e20", "-1e5", "-86401", "-3.4e38", "3601"}) {
        const std::string scene = writePreRollScene(dir, "scene", "fine.json", start);
        const fs::path out = dir / "out.png";
        RunResult r = run("render " + scene + " -o " + out.string());
        EXPECT_EQ(r.exit_code, 1) << start << "\n" << r.output;
        EXPECT_TRUE(contains(r.output, "error: $.effects[0].start_s: expected a number in "
                                       "[-86400, 3600], found " +
                                           std::string(start)))
            << r.output;
        EXPECT_FALSE(fs::exists(out)) << start;
    }
}

TEST(Cli, RenderRefusesAPreRollPastTheStepLimit) {
    const fs::path dir = scratchDir("pre_roll_steps");
    writeStepEffect(dir, "fine", 0.005);   // 200 Hz: 50 000 s at most
    writeStepEffect(dir, "finest", 0.001); // 1 kHz: 10 000 s at most
    struct Case {
        std::string effect;
        std::string start_s;
        double time_scale;
        std::string time;    // render --time, or "" for the default still (t = 0 here)
        std::string message; // part of the error
    };
    const Case cases[] = {
        {"fine.json", "-60000", 1, "",
         "at scene time 0 s has run 60000 s (start_s -60000, "
         "time_scale 1): 1.2e+07 fixed steps of 0.005 s"},
        {"fine.json", "-86400", 1, "", "1.728e+07 fixed steps"},
        {"fine.json", "-600", 100, "", "has run 60000 s (start_s -600, time_scale 100)"},
        {"finest.json", "-9000", 1, "2000", "at scene time 2000 s has run 11000 s"},
    };
    for (const Case& c : cases) {
        const std::string scene =
            writePreRollScene(dir, "scene", c.effect, c.start_s, c.time_scale);
        const fs::path out = dir / "out.png";
        RunResult r = run("render " + scene + " -o " + out.string() +
                          (c.time.empty() ? "" : " --time " + c.time));
        EXPECT_EQ(r.exit_code, 1) << r.output;
        EXPECT_EQ(
            r.output.rfind(scene + ": error: $.effects[0].start_s: effect instance 'early' (", 0),
            0u)
            << r.output;
        EXPECT_TRUE(contains(r.output, c.effect + ")")) << "names the effect file\n" << r.output;
        EXPECT_TRUE(contains(r.output, c.message)) << r.output;
        EXPECT_TRUE(contains(r.output, "more than the 10000000 a run may simulate")) << r.output;
        EXPECT_FALSE(fs::exists(out)) << "no empty frame";
    }
}

// The overflows column counts replacements on both backends (births into a full replace_oldest
// pool), and a fan-out of events into such a child runs in moments.
TEST(Cli, SimulateReportsAFanOutIntoAReplaceOldestChildTheSameOnBothBackends) {
    const fs::path dir = scratchDir("fan_out");
    const fs::path effect = dir / "fan_out.json";
    std::ofstream(effect) << R"({"version": 1, "name": "fan_out", "seed": 7, "looping": true,
        "emitters": [
          {"name": "parents", "capacity": 2048, "spawn": {"rate_per_s": 102400},
           "init": {"lifetime_s": [0.01, 0.02], "speed": [1, 2]},
           "sub_emitters": [{"emitter": "children", "count": [1024, 1024]}]},
          {"name": "children", "capacity": 2048, "overflow": "replace_oldest",
           "spawn": {"rate_per_s": 0}, "init": {"lifetime_s": [0.5, 1], "speed": [1, 3]}}]})";
    RunResult cpu = run("simulate " + effect.string() + " --time 0.5");
    RunResult gpu = run("simulate " + effect.string() + " --time 0.5 --backend gpu");
    ASSERT_EQ(cpu.exit_code, 0) << cpu.output;
    ASSERT_EQ(gpu.exit_code, 0) << gpu.output;
    ASSERT_EQ(emitterRows(cpu.output).size(), 2u) << cpu.output;
    EXPECT_EQ(emitterRows(cpu.output), emitterRows(gpu.output)) << cpu.output << gpu.output;
    EXPECT_TRUE(contains(cpu.output, "children                   2048"));
}
