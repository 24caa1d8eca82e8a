#include "io/document_writer.h"

namespace spindrift::json {

namespace {

// True when the float text of u is u's integer literal: exact in a float, and no exponent
// (1e5 is shorter than 100000, so formatFloat picks it).
bool isPlainInteger(uint32_t u) {
    constexpr float kTwoTo32 = 4294967296.0f; // values rounding up to it do not convert back
    const float f = float(u);
    return f < kTwoTo32 && uint32_t(f) == u && formatFloat(f).find('e') == std::string::npos;
}

} // namespace

void DocumentWriter::integerPair(uint32_t first, uint32_t second) {
    if (isPlainInteger(first) && isPlainInteger(second)) {
        inlineArray({float(first), float(second)});
        return;
    }
    beginArray();
    value(first);
    value(second);
    endArray();
}

void putValue(DocumentWriter& out, float f) {
    out.value(f);
}
void putValue(DocumentWriter& out, uint32_t u) {
    out.value(u);
}
void putValue(DocumentWriter& out, bool b) {
    out.value(b);
}
void putValue(DocumentWriter& out, const std::string& text) {
    out.value(std::string_view(text));
}

} // namespace spindrift::json
