// Runs the built `spindrift` binary the way a user would and checks exit codes and output.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

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
    for (const char* command : {"", "validate", "cook", "inspect", "simulate"}) {
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
    RunResult validate_sfx = run("validate " + out.string());
    EXPECT_EQ(validate_sfx.exit_code, 0) << validate_sfx.output;
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

TEST(Cli, UnknownCommandOrOptionFails) {
    EXPECT_NE(run("frobnicate").exit_code, 0);
    EXPECT_NE(run("validate --no-such-option x.json").exit_code, 0);
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
    EXPECT_NE(run("simulate " + source("examples/effects/campfire.json") + " --time -1").exit_code,
              0);
    EXPECT_NE(run("simulate " + source("examples/effects/campfire.json") + " --time 1 --threads 0")
                  .exit_code,
              0);
    EXPECT_NE(run("simulate " + source("examples/effects/campfire.json") + " --time 1 --dump xml")
                  .exit_code,
              0);
    EXPECT_EQ(run("simulate /nonexistent.json --time 1").exit_code, 1);
}
