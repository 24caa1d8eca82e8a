// The one reading of UTF-8 (src/io/utf8.h) the JSON reader, the JSON writer and the rules share.
#include <gtest/gtest.h>

#include "io/utf8.h"

namespace spindrift {
namespace {

TEST(Utf8, ReadsWellFormedSequencesOfEveryLength) {
    EXPECT_EQ(utf8::firstSequence("a").length, 1u);
    EXPECT_EQ(utf8::firstSequence("\xC3\xA9").length, 2u);         // U+00E9
    EXPECT_EQ(utf8::firstSequence("\xE2\x82\xAC").length, 3u);     // U+20AC
    EXPECT_EQ(utf8::firstSequence("\xF0\x9F\x98\x80").length, 4u); // U+1F600
    EXPECT_TRUE(utf8::isValid("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
}

TEST(Utf8, RejectsBytesThatCannotStartASequence) {
    for (const char* lead : {"\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xF5\x80", "\xFF"}) {
        const utf8::Sequence s = utf8::firstSequence(lead);
        EXPECT_EQ(s.length, 0u) << lead;
        EXPECT_EQ(s.good, 0u);
        EXPECT_EQ(s.expected, 0u);
    }
}

// The maximal subpart (Unicode 15, section 3.9): how many bytes still began a sequence.
TEST(Utf8, MeasuresTheMaximalSubpartOfAnIllFormedSequence) {
    const utf8::Sequence overlong = utf8::firstSequence("\xE0\x80\x80"); // E0 needs A0..BF
    EXPECT_EQ(overlong.length, 0u);
    EXPECT_EQ(overlong.good, 1u);
    EXPECT_EQ(overlong.expected, 3u);
    const utf8::Sequence surrogate = utf8::firstSequence("\xED\xA0\x80"); // U+D800
    EXPECT_EQ(surrogate.length, 0u);
    EXPECT_EQ(surrogate.good, 1u);
    const utf8::Sequence cut = utf8::firstSequence("\xF0\x9F\x98"); // truncated by the end
    EXPECT_EQ(cut.length, 0u);
    EXPECT_EQ(cut.good, 3u);
    EXPECT_EQ(cut.expected, 4u);
    const utf8::Sequence broken = utf8::firstSequence("\xE2\x82x"); // cut by an ASCII byte
    EXPECT_EQ(broken.good, 2u);
    EXPECT_FALSE(utf8::isValid("ok\xF4\x90\x80\x80")); // above U+10FFFF
}

} // namespace
} // namespace spindrift
