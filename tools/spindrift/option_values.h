// Strict values of command-line options: the one parser every numeric option and every option
// with a fixed set of values goes through (docs/cli.md, "Options").
//
// A number is the whole text: no empty string, no space, no trailing junk ("1x"), no "nan" or
// "inf", nothing that overflows the type (1e400); a whole number is decimal digits only (no sign,
// fraction or exponent); and it lies in the option's range. Anything else is an error naming the
// option, what was expected and what was found, e.g.
//
//     error: --time: expected a finite number of seconds in [0, 86400], found 'nan'
//
// which main() prints and turns into exit code 1, like every other usage error.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spindrift::cli {

// What an option's number must be.
struct NumberSpec {
    const char* what; // for the message: "a finite number of seconds", "a whole number of frames"
    double min = 0;   // inclusive range
    double max = 0;
    bool whole = false; // decimal digits only
};

// Parses text as spec says. On failure returns false with error set to "expected <what> in
// [min, max], found '<text>'" (the text quoted as given, shortened when long).
bool parseNumber(std::string_view text, const NumberSpec& spec, double& out, std::string& error);

// Parses "WIDTHxHEIGHT", each a whole number in [min, max]. On failure returns false with error
// set to "expected WIDTHxHEIGHT with each in [min, max], found '<text>'".
bool parseSize(std::string_view text, uint32_t min, uint32_t max, uint32_t& width, uint32_t& height,
               std::string& error);

// Registers an option whose value is parsed by parseNumber and stored in target; set, when
// given, becomes true when the option is. A bad value throws CLI::ValidationError from parsing,
// "<option>: expected ..., found '...'".
CLI::Option* addNumberOption(CLI::App* app, const std::string& names, double& target,
                             const NumberSpec& spec, const std::string& description,
                             bool* set = nullptr);
CLI::Option* addNumberOption(CLI::App* app, const std::string& names, uint32_t& target,
                             const NumberSpec& spec, const std::string& description,
                             bool* set = nullptr);

// Registers an option whose value must be one of choices (exactly); otherwise
// "<option>: expected one of a, b, c, found '...'".
CLI::Option* addChoiceOption(CLI::App* app, const std::string& names, std::string& target,
                             std::vector<std::string> choices, const std::string& description);

// Registers "--size WIDTHxHEIGHT" (parseSize) storing into width and height.
CLI::Option* addSizeOption(CLI::App* app, const std::string& names, uint32_t& width,
                           uint32_t& height, uint32_t min, uint32_t max,
                           const std::string& description);

} // namespace spindrift::cli
