// Writes JSON text in the project's canonical layout: two-space indent, one member per line,
// short numeric arrays ([x, y, z], [t, v]) kept on one line, floats in the shortest form that
// reads back to the same float32 bits. Load -> save -> load is exact.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace spindrift::json {

class Writer {
public:
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name);
    void value(std::string_view text); // a JSON string, escaped as needed
    void value(const char* text) { value(std::string_view(text)); }
    void value(bool b);
    void value(float f); // shortest round-trip form; integral values as "2"
    void value(uint32_t u);
    void value(int64_t i);
    void null();
    // A whole array of numbers on one line: [1, 2.5, 3].
    void inlineArray(const float* values, size_t count);
    void inlineArray(std::initializer_list<float> values) {
        inlineArray(values.begin(), values.size());
    }

    // The finished text, ending in a newline. Valid once every begin has its end.
    const std::string& text() const { return out_; }

private:
    void beforeValue();
    void newline();

    std::string out_;
    std::vector<bool> has_members_; // per open container: something was written in it
    std::vector<bool> is_object_;
    bool after_key_ = false;
};

// Shortest decimal text that parses back (as float32) to exactly f. f must be finite.
std::string formatFloat(float f);

} // namespace spindrift::json
