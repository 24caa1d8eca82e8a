#include "option_values.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace spindrift::cli {

namespace {

// Longer values are quoted shortened: the message is for a person, not a log of the input.
constexpr size_t kMaxQuotedBytes = 64;

std::string quotedValue(std::string_view text) {
    if (text.size() <= kMaxQuotedBytes) return "'" + std::string(text) + "'";
    return "'" + std::string(text.substr(0, kMaxQuotedBytes)) + "...' (" +
           std::to_string(text.size()) + " characters)";
}

std::string formatBound(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

// The name messages use: the long form ("--time" of "-t,--time"), else the first.
std::string displayName(const std::string& names) {
    std::string first;
    size_t begin = 0;
    while (begin <= names.size()) {
        size_t end = names.find(',', begin);
        if (end == std::string::npos) end = names.size();
        const std::string name = names.substr(begin, end - begin);
        if (name.rfind("--", 0) == 0) return name;
        if (first.empty()) first = name;
        begin = end + 1;
    }
    return first;
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string text;
    for (size_t i = 0; i < items.size(); ++i) text += (i == 0 ? "" : separator) + items[i];
    return text;
}

template <typename T>
CLI::Option* addNumber(CLI::App* app, const std::string& names, T& target, const NumberSpec& spec,
                       const std::string& description, bool* set) {
    assert(spec.min <= spec.max && spec.min >= double(std::numeric_limits<T>::lowest()) &&
           spec.max <= double(std::numeric_limits<T>::max()));
    const std::string name = displayName(names);
    CLI::Option* option = app->add_option_function<std::string>(
        names,
        [&target, spec, name, set](const std::string& text) {
            double value = 0;
            std::string error;
            if (!parseNumber(text, spec, value, error)) throw CLI::ValidationError(name, error);
            target = static_cast<T>(value);
            if (set != nullptr) *set = true;
        },
        description);
    option->type_name(spec.whole
                          ? "UINT:[" + formatBound(spec.min) + "," + formatBound(spec.max) + "]"
                          : "NUMBER:[" + formatBound(spec.min) + "," + formatBound(spec.max) + "]");
    return option;
}

} // namespace

bool parseNumber(std::string_view text, const NumberSpec& spec, double& out, std::string& error) {
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    bool ok = false;
    double value = 0;
    if (spec.whole) {
        // from_chars takes no sign, space or '+' for an unsigned type: digits only.
        uint64_t whole = 0;
        const auto [stop, code] = std::from_chars(begin, end, whole);
        ok = !text.empty() && code == std::errc() && stop == end;
        value = static_cast<double>(whole);
    } else {
        // chars_format::general: decimal with an optional exponent; no hex, no leading '+'.
        const auto [stop, code] = std::from_chars(begin, end, value, std::chars_format::general);
        ok = !text.empty() && code == std::errc() && stop == end && std::isfinite(value);
    }
    if (ok && value >= spec.min && value <= spec.max) {
        out = value;
        return true;
    }
    error = std::string("expected ") + spec.what + " in [" + formatBound(spec.min) + ", " +
            formatBound(spec.max) + "], found " + quotedValue(text);
    return false;
}

bool parseSize(std::string_view text, uint32_t min, uint32_t max, uint32_t& width, uint32_t& height,
               std::string& error) {
    const NumberSpec side{"a whole number", double(min), double(max), true};
    const size_t x = text.find('x');
    double values[2] = {0, 0};
    std::string ignored;
    if (x != std::string_view::npos && parseNumber(text.substr(0, x), side, values[0], ignored) &&
        parseNumber(text.substr(x + 1), side, values[1], ignored)) {
        width = static_cast<uint32_t>(values[0]);
        height = static_cast<uint32_t>(values[1]);
        return true;
    }
    error = "expected WIDTHxHEIGHT with each in [" + std::to_string(min) + ", " +
            std::to_string(max) + "], found " + quotedValue(text);
    return false;
}

CLI::Option* addNumberOption(CLI::App* app, const std::string& names, double& target,
                             const NumberSpec& spec, const std::string& description, bool* set) {
    return addNumber(app, names, target, spec, description, set);
}

CLI::Option* addNumberOption(CLI::App* app, const std::string& names, uint32_t& target,
                             const NumberSpec& spec, const std::string& description, bool* set) {
    assert(spec.whole);
    return addNumber(app, names, target, spec, description, set);
}

CLI::Option* addChoiceOption(CLI::App* app, const std::string& names, std::string& target,
                             std::vector<std::string> choices, const std::string& description) {
    const std::string name = displayName(names);
    const std::string list = joined(choices, ", ");
    CLI::Option* option = app->add_option_function<std::string>(
        names,
        [&target, choices, name, list](const std::string& text) {
            for (const std::string& choice : choices) {
                if (text == choice) {
                    target = text;
                    return;
                }
            }
            throw CLI::ValidationError(name,
                                       "expected one of " + list + ", found " + quotedValue(text));
        },
        description);
    option->type_name("{" + joined(choices, ",") + "}");
    return option;
}

CLI::Option* addSizeOption(CLI::App* app, const std::string& names, uint32_t& width,
                           uint32_t& height, uint32_t min, uint32_t max,
                           const std::string& description) {
    const std::string name = displayName(names);
    CLI::Option* option = app->add_option_function<std::string>(
        names,
        [&width, &height, min, max, name](const std::string& text) {
            std::string error;
            if (!parseSize(text, min, max, width, height, error))
                throw CLI::ValidationError(name, error);
        },
        description);
    option->type_name("WIDTHxHEIGHT");
    return option;
}

} // namespace spindrift::cli
