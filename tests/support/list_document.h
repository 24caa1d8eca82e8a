// Documents with long lists, built in memory by the limit tests of both formats
// (tests/authoring/effect_limits_test.cpp, tests/scene/scene_limits_test.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace spindrift::test {

// prefix + "[" + count copies of item, comma-separated + "]" + suffix.
inline std::string document(const std::string& prefix, const std::string& item, size_t count,
                            const std::string& suffix) {
    std::string text = prefix + "[";
    text.reserve(prefix.size() + (item.size() + 1) * count + suffix.size() + 2);
    for (size_t i = 0; i < count; ++i) {
        if (i != 0) text += ',';
        text += item;
    }
    return text + "]" + suffix;
}

} // namespace spindrift::test
