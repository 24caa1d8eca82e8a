// The one reading of UTF-8 (Unicode 15, section 3.9, table 3-7: the well-formed byte sequences),
// shared by the JSON reader (which rejects ill-formed text with the offending byte), the JSON
// writer (which replaces each maximal ill-formed subpart with U+FFFD) and the format rules (which
// refuse a string built in code that is not UTF-8).
#pragma once

#include <cstddef>
#include <string_view>

namespace spindrift::utf8 {

// What the bytes at the start of a text are.
struct Sequence {
    // The well-formed sequence's length (1..4); 0 when the sequence is ill-formed.
    size_t length = 0;
    // Bytes that still form the start of a well-formed sequence (the "maximal subpart"): 0 when
    // the first byte cannot start one, else 1..3. Equal to length when well-formed.
    size_t good = 0;
    // The expected length for the first byte (2..4), 0 when it cannot start a sequence; with
    // good < expected the sequence is cut by the end of the text (good == text.size()) or by the
    // byte at index good.
    size_t expected = 0;
};

// text must not be empty.
Sequence firstSequence(std::string_view text);

bool isValid(std::string_view text);

} // namespace spindrift::utf8
