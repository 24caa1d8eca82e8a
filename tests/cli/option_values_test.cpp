// The CLI's one parser of option values (tools/spindrift/option_values.h), in process: every
// value that is not wholly a number of its kind in its range is refused with the message the
// CLI prints. cli_test checks that each option goes through it (one process per case, so it
// tries a few values per option; the full list is tried here).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "option_values.h"

namespace spindrift::cli {
namespace {

const std::vector<std::string> kNotNumbers = {"nan", "NaN", "inf", "-inf", "infinity", "",
                                              "1x",  "x1",  " 1",  "1 ",   "0x10",     "1e400",
                                              "+",   "1e",  ".",   "--1",  "1..2",     "\t1"};

void expectRefused(std::string_view text, const NumberSpec& spec, const std::string& what) {
    double out = 12345;
    std::string error;
    EXPECT_FALSE(parseNumber(text, spec, out, error)) << "'" << text << "'";
    EXPECT_EQ(error.rfind("expected " + what, 0), 0u) << error;
    EXPECT_NE(error.find("found '" + std::string(text) + "'"), std::string::npos) << error;
    EXPECT_EQ(out, 12345) << "a refused value is not stored";
}

TEST(OptionValues, ARealNumberIsWhollyAFiniteNumberInItsRange) {
    const NumberSpec seconds{"a finite number of seconds", 0, 86400};
    for (const std::string& text : kNotNumbers) {
        expectRefused(text, seconds, "a finite number of seconds in [0, 86400]");
    }
    for (const char* text : {"-1", "-0.001", "86400.5", "1e9", "+1", "0x1p3"}) {
        expectRefused(text, seconds, "a finite number of seconds in [0, 86400]");
    }
    const std::pair<const char*, double> good[] = {{"0", 0},       {"86400", 86400}, {"1e-1", 0.1},
                                                   {"0.25", 0.25}, {"1.5e2", 150},   {"-0", 0}};
    for (const auto& [text, value] : good) {
        double out = -1;
        std::string error;
        EXPECT_TRUE(parseNumber(text, seconds, out, error)) << text << ": " << error;
        EXPECT_EQ(out, value) << text;
    }
}

TEST(OptionValues, AWholeNumberIsDecimalDigitsInItsRange) {
    const NumberSpec threads{"a whole number of threads", 1, 256, true};
    for (const std::string& text : kNotNumbers) {
        expectRefused(text, threads, "a whole number of threads in [1, 256]");
    }
    for (const char* text : {"0", "257", "4294967297", "18446744073709551616", "-1", "1.5", "1e2",
                             "+1", "1.0", "01x"}) {
        expectRefused(text, threads, "a whole number of threads in [1, 256]");
    }
    for (const char* text : {"1", "256", "007"}) {
        double out = 0;
        std::string error;
        EXPECT_TRUE(parseNumber(text, threads, out, error)) << text << ": " << error;
    }
}

TEST(OptionValues, ASizeIsTwoWholeNumbersInTheirRange) {
    for (const char* text : {"", "nan", "16x", "x16", "16x16x16", "16X16", "16x16 ", "-16x16",
                             "+16x16", "15x16", "16x8193", "1e2x100", "100x100.0", " 16x16"}) {
        uint32_t w = 7, h = 7;
        std::string error;
        EXPECT_FALSE(parseSize(text, 16, 8192, w, h, error)) << text;
        EXPECT_EQ(error.rfind("expected WIDTHxHEIGHT", 0), 0u) << error;
        EXPECT_EQ(w, 7u);
    }
    uint32_t w = 0, h = 0;
    std::string error;
    EXPECT_TRUE(parseSize("16x8192", 16, 8192, w, h, error)) << error;
    EXPECT_EQ(w, 16u);
    EXPECT_EQ(h, 8192u);
}

TEST(OptionValues, ALongValueIsQuotedShortened) {
    const std::string text(300, '7');
    double out = 0;
    std::string error;
    EXPECT_FALSE(parseNumber(text, NumberSpec{"a number", 0, 1}, out, error));
    EXPECT_LT(error.size(), 200u) << error;
    EXPECT_NE(error.find("(300 characters)"), std::string::npos) << error;
}

} // namespace
} // namespace spindrift::cli
