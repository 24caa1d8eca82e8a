#include "io/utf8.h"

namespace spindrift::utf8 {

Sequence firstSequence(std::string_view text) {
    const auto lead = static_cast<unsigned char>(text[0]);
    if (lead < 0x80) return {1, 1, 1};
    size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;  // shorter forms are overlong
        if (lead == 0xED) high = 0x9F; // U+D800..U+DFFF are not characters
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;  // overlong
        if (lead == 0xF4) high = 0x8F; // above U+10FFFF
    } else {
        return {0, 0, 0};
    }
    size_t good = 1;
    while (good < length && good < text.size()) {
        const auto next = static_cast<unsigned char>(text[good]);
        const unsigned char lo = good == 1 ? low : 0x80;
        const unsigned char hi = good == 1 ? high : 0xBF;
        if (next < lo || next > hi) break;
        ++good;
    }
    return {good == length ? length : 0, good, length};
}

bool isValid(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const Sequence s = firstSequence(text.substr(i));
        if (s.length == 0) return false;
        i += s.length;
    }
    return true;
}

} // namespace spindrift::utf8
