#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "authoring/random_effect.h"
#include "compiler/compile_effect.h"
#include "compiler/sample_effects.h"
#include "compiler/structural_hash.h"
#include "cook/sfx_format.h"
#include "cook/sfx_reader.h"
#include "cook/sfx_writer.h"
#include "spindrift/effect_json.h"

namespace spindrift {
namespace {

CompiledEffect compiled(const EffectDesc& fx) {
    CompiledEffect out;
    std::vector<Diagnostic> d;
    EXPECT_TRUE(compileEffect(fx, out, d));
    return out;
}

struct LoadResult {
    bool ok = false;
    CompiledEffect effect;
    std::vector<Diagnostic> diagnostics;
    std::string message() const { return diagnostics.empty() ? "" : diagnostics[0].message; }
};

LoadResult load(const std::vector<uint8_t>& bytes) {
    LoadResult r;
    r.ok = loadCookedEffect(bytes, "test.sfx", r.effect, r.diagnostics);
    return r;
}

template <typename T> T readAt(const std::vector<uint8_t>& bytes, size_t offset) {
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

template <typename T> void writeAt(std::vector<uint8_t>& bytes, size_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

// Recomputes the checksum so a patched file gets past that check to the one under test.
void reseal(std::vector<uint8_t>& bytes) {
    writeAt(bytes, offsetof(SfxHeader, checksum), sfxChecksum(bytes));
}

size_t entryOffset(SfxSection id) {
    return sizeof(SfxHeader) + (static_cast<size_t>(id) - 1) * sizeof(SfxSectionEntry);
}

SfxSectionEntry entry(const std::vector<uint8_t>& bytes, SfxSection id) {
    return readAt<SfxSectionEntry>(bytes, entryOffset(id));
}

void expectRejected(const std::vector<uint8_t>& bytes, const std::string& expected,
                    uint64_t byte_offset) {
    const LoadResult r = load(bytes);
    ASSERT_FALSE(r.ok) << "expected: " << expected;
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].severity, Severity::error);
    EXPECT_EQ(r.diagnostics[0].file, "test.sfx");
    EXPECT_NE(r.message().find(expected), std::string::npos) << r.message();
    EXPECT_EQ(r.diagnostics[0].byte_offset, byte_offset) << r.message();
    EXPECT_TRUE(r.effect.emitters.empty());
}

TEST(Sfx, CookThenLoadGivesTheSameEffect) {
    EffectDesc all_disabled = test::minimalEffect();
    all_disabled.emitters[0].enabled = false; // cooks to an effect with no emitters
    for (const EffectDesc& fx :
         {test::minimalEffect(), test::campfireEffect(), test::everythingEffect(), all_disabled}) {
        const CompiledEffect original = compiled(fx);
        const std::vector<uint8_t> bytes = cookEffect(original);
        const LoadResult r = load(bytes);
        ASSERT_TRUE(r.ok) << fx.name << ": " << r.message();
        EXPECT_TRUE(r.effect == original) << fx.name;
        EXPECT_EQ(cookEffect(r.effect), bytes) << fx.name;
    }
}

// Random valid effects (tests/authoring/random_effect.h) cover every module, shape and render
// type: whatever compiles must cook, load back equal, and cook again to the same bytes.
TEST(Sfx, EveryCompilableRandomEffectRoundTrips) {
    int compiled_count = 0;
    for (uint32_t seed = 1; seed <= 300; ++seed) {
        const EffectDesc fx = test::randomEffect(seed);
        CompiledEffect original;
        std::vector<Diagnostic> d;
        if (!compileEffect(fx, original, d)) {
            // Only a backend preference the emitter cannot run on may stop a valid effect.
            for (const Diagnostic& diagnostic : d) {
                if (diagnostic.severity != Severity::error) continue;
                EXPECT_NE(diagnostic.message.find("asks for backend"), std::string::npos)
                    << "seed " << seed << ": " << formatDiagnostic(diagnostic);
            }
            continue;
        }
        ++compiled_count;
        const std::vector<uint8_t> bytes = cookEffect(original);
        const LoadResult r = load(bytes);
        ASSERT_TRUE(r.ok) << "seed " << seed << ": " << r.message();
        EXPECT_TRUE(r.effect == original) << "seed " << seed;
        EXPECT_EQ(cookEffect(r.effect), bytes) << "seed " << seed;
    }
    EXPECT_GT(compiled_count, 200);
}

// User parameters travel in sections 11 and 12; a hostile file cannot use them to write a word
// no parameter may set, or a value the word does not accept.
TEST(Sfx, CarriesParametersAndRejectsBadParameterRecords) {
    const CompiledEffect good = compiled(test::parametersEffect());
    ASSERT_EQ(good.parameters.size(), 6u);
    ASSERT_FALSE(good.parameter_bindings.empty());
    const LoadResult r = load(cookEffect(good));
    ASSERT_TRUE(r.ok) << r.message();
    EXPECT_TRUE(r.effect == good);
    struct Case {
        const char* name;
        std::function<void(CompiledEffect&)> patch;
        std::string expected;
    };
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<Case> cases = {
        {"parameter index", [](auto& e) { e.parameter_bindings[0].parameter = 99; },
         "parameter binding 0: index out of range"},
        {"binding padding", [](auto& e) { e.parameter_bindings[1].pad1 = 1; },
         "parameter binding 1: index out of range or padding not 0"},
        {"parameter padding", [](auto& e) { e.parameters[0].pad0 = 1; },
         "parameter 0: padding or a component past its type is not 0"},
        {"component past the type", [](auto& e) { e.parameters[0].max.y = 1; },
         "parameter 0: padding or a component past its type is not 0"},
        {"record index", [](auto& e) { e.parameter_bindings[0].record = 1000; },
         "parameter binding 0: index out of range"},
        {"array", [](auto& e) { e.parameter_bindings[0].array = 9; },
         "parameter binding 0: index out of range"},
        {"capacity word",
         [](auto& e) { e.parameter_bindings[0].word = offsetof(EmitterRecord, capacity) / 4; },
         "not one a parameter may set"},
        {"conversion", [](auto& e) { e.parameter_bindings[0].conversion = 1; },
         "not one a parameter may set"},
        {"component", [](auto& e) { e.parameter_bindings[0].component = 2; },
         "component past the parameter's type"},
        {"range past the word", [](auto& e) { e.parameters[0].min.x = -1; },
         "the parameter's range exceeds what the value accepts"},
        {"nan default", [&](auto& e) { e.parameters[1].default_value.y = nan; },
         "parameter 1: range or default not finite"},
        {"crossed range", [](auto& e) { e.parameters[3].min.x = 20; },
         "parameter 3: range or default not finite, or default outside the range"},
        {"type", [](auto& e) { e.parameters[2].type = 7; }, "parameter 2: unknown type 7"},
        {"name", [](auto& e) { e.parameters[2].name_offset = 1u << 20; },
         "parameter 2: name outside the string table"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        CompiledEffect bad = good;
        c.patch(bad);
        const LoadResult result = load(cookEffect(bad));
        EXPECT_FALSE(result.ok);
        EXPECT_NE(result.message().find(c.expected), std::string::npos) << result.message();
    }
}

TEST(Sfx, WritesTheDocumentedHeaderAndAlignedSections) {
    const CompiledEffect effect = compiled(test::campfireEffect());
    const std::vector<uint8_t> bytes = cookEffect(effect);
    EXPECT_EQ(std::memcmp(bytes.data(), "SPNDRSFX", 8), 0);
    const SfxHeader h = readAt<SfxHeader>(bytes, 0);
    EXPECT_EQ(h.format_version, kSfxFormatVersion);
    EXPECT_EQ(bytes[12], 0x04); // little-endian marker
    EXPECT_EQ(h.section_count, kSfxSectionCount);
    EXPECT_EQ(h.file_size, bytes.size());
    EXPECT_EQ(h.structural_hash, effect.structural_hash);
    EXPECT_EQ(bytes.size() % 16, 0u);
    for (uint32_t i = 1; i <= kSfxSectionCount; ++i) {
        const SfxSectionEntry e = entry(bytes, static_cast<SfxSection>(i));
        EXPECT_EQ(e.id, i);
        EXPECT_EQ(e.offset % 16, 0u);
        EXPECT_EQ(e.byte_size, uint64_t{e.record_size} * e.count);
    }
    EXPECT_EQ(entry(bytes, SfxSection::emitters).count, 2u);
    EXPECT_EQ(entry(bytes, SfxSection::emitters).record_size, sizeof(EmitterRecord));
    EXPECT_EQ(entry(bytes, SfxSection::lut).count, effect.lutRowCount());
    // The emitter record sits verbatim at its section's offset.
    EXPECT_EQ(std::memcmp(bytes.data() + entry(bytes, SfxSection::emitters).offset,
                          &effect.emitters[0], sizeof(EmitterRecord)),
              0);
}

TEST(Sfx, RejectsEveryTruncation) {
    const std::vector<uint8_t> bytes = cookEffect(compiled(test::minimalEffect()));
    for (size_t length = 0; length < bytes.size(); ++length) {
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + length);
        const LoadResult r = load(prefix);
        EXPECT_FALSE(r.ok) << "length " << length;
        EXPECT_FALSE(r.message().empty()) << "length " << length;
    }
}

TEST(Sfx, RejectsHeaderProblems) {
    const std::vector<uint8_t> good = cookEffect(compiled(test::campfireEffect()));
    expectRejected({good.begin(), good.begin() + 47}, "shorter than the 48-byte", 0);
    std::vector<uint8_t> b = good;
    b[0] = 'X';
    expectRejected(b, "magic", 0);
    b = good;
    writeAt<uint32_t>(b, 12, 0x04030201u);
    expectRejected(b, "endianness marker is 0x04030201", 12);
    b = good;
    writeAt<uint32_t>(b, 8, kSfxFormatVersion + 1);
    expectRejected(
        b, "format version " + std::to_string(kSfxFormatVersion + 1) + " is not supported", 8);
    b = good;
    writeAt<uint32_t>(b, 20, 1);
    expectRejected(b, "reserved header field", 20);
    b = good;
    b.resize(b.size() + 16, 0);
    expectRejected(b, "header says the file is", 24);
    b = good;
    b[b.size() - 1] ^= 1;
    expectRejected(b, "checksum mismatch", 32);
}

TEST(Sfx, RejectsSectionTableProblems) {
    const std::vector<uint8_t> good = cookEffect(compiled(test::campfireEffect()));
    const size_t ops = entryOffset(SfxSection::ops);
    struct Case {
        const char* name;
        std::function<void(std::vector<uint8_t>&)> patch;
        std::string expected;
        uint64_t offset;
    };
    const std::vector<Case> cases = {
        {"too many sections", [](auto& b) { writeAt<uint32_t>(b, 16, 1000000); },
         "section table of 1000000 entries does not fit", 16},
        {"unknown id", [&](auto& b) { writeAt<uint32_t>(b, ops, 77); }, "unknown section id 77",
         ops},
        {"duplicate", [&](auto& b) { writeAt<uint32_t>(b, ops, 2); },
         "duplicate section 'emitters'", ops},
        {"out of order", [&](auto& b) { writeAt<uint32_t>(b, ops, 4); },
         "section 'bursts' is out of order", ops},
        {"reserved", [&](auto& b) { writeAt<uint32_t>(b, ops + 12, 1); },
         "section 'ops': reserved field is not 0", ops + 12},
        {"record size", [&](auto& b) { writeAt<uint32_t>(b, ops + 4, 60); },
         "section 'ops': record size 60, expected 64", ops + 4},
        {"count over limit", [&](auto& b) { writeAt<uint32_t>(b, ops + 8, 0xFFFFFFFFu); },
         "section 'ops': 4294967295 records, over the limit", ops + 8},
        {"byte size", [&](auto& b) { writeAt<uint64_t>(b, ops + 24, 8); },
         "section 'ops': byte size 8 is not", ops + 24},
        {"misaligned",
         [&](auto& b) { writeAt<uint64_t>(b, ops + 16, readAt<uint64_t>(b, ops + 16) + 4); },
         "is not a multiple of 16", ops + 16},
        {"past the end", [&](auto& b) { writeAt<uint64_t>(b, ops + 16, 0xFFFFFFFFFFFFFFF0ull); },
         "run past the end", ops + 16},
        {"overlapping",
         [&](auto& b) { writeAt<uint64_t>(b, ops + 16, readAt<uint64_t>(b, ops + 16) - 16); },
         "sections follow each other", ops + 16},
        {"missing", [](auto& b) { writeAt<uint32_t>(b, 16, kSfxSectionCount - 1); },
         "missing section 'particle_lights'", 16},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        std::vector<uint8_t> b = good;
        c.patch(b);
        reseal(b);
        expectRejected(b, c.expected, c.offset);
    }
}

TEST(Sfx, RejectsNonZeroPaddingAndTrailingBytes) {
    const std::vector<uint8_t> good = cookEffect(compiled(test::minimalEffect()));
    // The string table ("minimal" + "only" = 11 bytes) is last and padded to 16 with zeros.
    const SfxSectionEntry strings = entry(good, SfxSection::strings);
    ASSERT_EQ(strings.byte_size, 11u);
    std::vector<uint8_t> b = good;
    b[strings.offset + 12] = 1;
    reseal(b);
    expectRejected(b, "padding byte is not zero", strings.offset + 12);
    b = good;
    b.resize(b.size() + 16, 0);
    writeAt<uint64_t>(b, 24, b.size());
    reseal(b);
    expectRejected(b, "its sections end at", good.size());
}

// Version 1 files (whose checksum did not cover the header) are refused with what to do.
TEST(Sfx, RefusesVersionOneFilesAndSaysToCookAgain) {
    std::vector<uint8_t> b = cookEffect(compiled(test::minimalEffect()));
    writeAt<uint32_t>(b, offsetof(SfxHeader, format_version), 1);
    reseal(b);
    expectRejected(b,
                   "format version 1 is not supported (this build reads version " +
                       std::to_string(kSfxFormatVersion) +
                       "); cook the effect again from its JSON source (spindrift cook)",
                   offsetof(SfxHeader, format_version));
}

// Every byte but the checksum's own is covered: the header (structural hash included), the
// table, the sections and the padding.
TEST(Sfx, ChecksumCoversEveryOtherByteOfTheFile) {
    const std::vector<uint8_t> good = cookEffect(compiled(test::campfireEffect()));
    const uint64_t sum = sfxChecksum(good);
    EXPECT_EQ(readAt<uint64_t>(good, offsetof(SfxHeader, checksum)), sum);
    for (size_t i = 0; i < good.size(); ++i) {
        std::vector<uint8_t> b = good;
        b[i] ^= 0x10;
        const bool in_field = i >= offsetof(SfxHeader, checksum) &&
                              i < offsetof(SfxHeader, checksum) + sizeof(uint64_t);
        EXPECT_EQ(sfxChecksum(b) == sum, in_field) << "byte " << i;
    }
}

// Issue 13: a corrupted structural hash loaded with exit 0. Each byte of it, changed, is now
// refused by the checksum, and with the checksum recomputed (a hand edit) by the loader's own
// recomputation of the hash, which names both values.
TEST(Sfx, RejectsAChangedStructuralHash) {
    const CompiledEffect effect = compiled(test::campfireEffect());
    const std::vector<uint8_t> good = cookEffect(effect);
    const size_t field = offsetof(SfxHeader, structural_hash);
    for (size_t i = 0; i < sizeof(uint64_t); ++i) {
        for (const uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xFF}}) {
            SCOPED_TRACE("byte " + std::to_string(field + i) + " ^ " + std::to_string(flip));
            std::vector<uint8_t> b = good;
            b[field + i] ^= flip;
            expectRejected(b, "checksum mismatch", offsetof(SfxHeader, checksum));
            reseal(b);
            const uint64_t stated = readAt<uint64_t>(b, field);
            char text[160];
            std::snprintf(text, sizeof text,
                          "structural hash mismatch: the header says 0x%016llx, the effect's "
                          "records hash to 0x%016llx",
                          static_cast<unsigned long long>(stated),
                          static_cast<unsigned long long>(effect.structural_hash));
            expectRejected(b, text, field);
        }
    }
}

// A writer that states a hash its records do not have is caught too (the checksum is right).
TEST(Sfx, RejectsAFileWhoseStatedHashIsNotItsRecords) {
    CompiledEffect effect = compiled(test::everythingEffect());
    effect.structural_hash ^= 0x100;
    expectRejected(cookEffect(effect), "structural hash mismatch",
                   offsetof(SfxHeader, structural_hash));
    // And a structural record edit, resealed, that every record check accepts.
    std::vector<uint8_t> b = cookEffect(compiled(test::campfireEffect()));
    const uint64_t blend = entry(b, SfxSection::emitters).offset + offsetof(EmitterRecord, blend);
    ASSERT_EQ(readAt<uint32_t>(b, blend), kBlendAdditive);
    writeAt<uint32_t>(b, blend, kBlendAlpha);
    reseal(b);
    expectRejected(b, "structural hash mismatch", offsetof(SfxHeader, structural_hash));
}

// A record-level mutation of a valid compiled effect, cooked (so the file is well formed) and
// loaded: the loader must name the section, record and field.
struct RecordCase {
    const char* name;
    std::function<void(CompiledEffect&)> mutate;
    std::string expected;
};

TEST(Sfx, RejectsEveryKindOfBadRecord) {
    const CompiledEffect base = compiled(test::everythingEffect());
    const CompiledEffect fire = compiled(test::campfireEffect());
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<RecordCase> cases = {
        {"effect flags", [](auto& c) { c.effect.flags = 2; }, "section 'effect' record 0"},
        {"space", [](auto& c) { c.effect.space = 2; }, "space 2 is not a simulation space (0..1)"},
        {"effect capacity", [](auto& c) { c.effect.capacity = kMaxEffectCapacity + 1; },
         "capacity 268435457 is outside 1..268435456"},
        {"duration", [&](auto& c) { c.effect.duration_s = nan; }, "duration_s is nan, not finite"},
        {"timestep", [](auto& c) { c.effect.fixed_timestep_s = 0; },
         "fixed_timestep_s 0 is outside"},
        {"effect name", [](auto& c) { c.effect.name_offset = 100000; }, "name [100000, "},
        {"bounds", [&](auto& c) { c.effect.bounds_center.y = inf; }, "bounds_center.y is inf"},
        {"far bounds", [](auto& c) { c.effect.bounds_center.x = 3e38f; },
         "bounds_center 3.00000001e+38 is outside [-1000000, 1000000]"},
        {"huge bounds", [](auto& c) { c.effect.bounds_half_extents.z = 2e6f; },
         "bounds_half_extents 2000000 is outside [0, 1000000]"},
        {"blend", [](auto& c) { c.emitters[1].blend = 7; }, "section 'emitters' record 1 (byte "},
        {"blend message", [](auto& c) { c.emitters[1].blend = 7; },
         "blend 7 is not a blend mode (0..3)"},
        {"opaque billboard", [](auto& c) { c.emitters[0].blend = kBlendOpaque; },
         "only a mesh render can be opaque"},
        {"render type", [](auto& c) { c.emitters[0].render_type = 4; }, "render_type 4 is not"},
        {"alignment", [](auto& c) { c.emitters[0].alignment = 9; }, "alignment 9 is not"},
        {"sort", [](auto& c) { c.emitters[0].sort = 5; }, "sort 5 is not a sort mode (0..4)"},
        {"overflow", [](auto& c) { c.emitters[0].overflow = 2; }, "overflow 2 is not"},
        {"backend", [](auto& c) { c.emitters[0].backend = 3; }, "backend 3 is not"},
        {"shape", [](auto& c) { c.emitters[1].shape_kind = 9; }, "shape_kind 9 is not"},
        {"emit_from", [](auto& c) { c.emitters[0].emit_from = 3; }, "emit_from 3 is not"},
        {"colour mode", [](auto& c) { c.emitters[1].color_mode = 3; }, "color_mode 3 is not"},
        {"render flags", [](auto& c) { c.emitters[0].render_flags = 128; },
         "render_flags 0x00000080"},
        {"capacity zero", [](auto& c) { c.emitters[0].capacity = 0; }, "capacity 0 is outside"},
        {"capacity sum", [](auto& c) { c.effect.capacity = 1024; },
         "is less than the sum of emitter capacities"},
        {"transform nan", [&](auto& c) { c.emitters[0].transform_row1.w = nan; },
         "transform_row1.w is nan"},
        {"rate negative", [](auto& c) { c.emitters[0].rate_per_s = -1; },
         "rate_per_s -1 is outside"},
        {"lifetime", [](auto& c) { c.emitters[0].lifetime_min_s = 0; },
         "lifetime_min_s 0 must be > 0"},
        {"lifetime order", [](auto& c) { c.emitters[0].lifetime_max_s = 0.5f; },
         "lifetime_max_s 0.5 is outside [1, "},
        {"velocity inf", [&](auto& c) { c.emitters[2].velocity_max.x = -inf; },
         "velocity_max.x is -inf"},
        {"name out of table", [](auto& c) { c.emitters[0].name_length = 5000; },
         "name length 5000 is outside 1..64"},
        {"name past table", [](auto& c) { c.emitters[0].name_offset = 1000; }, "name [1000, "},
        {"texture absent with length", [](auto& c) { c.emitters[0].texture_length = 3; },
         "texture is absent but has length 3"},
        {"mesh path on ribbon",
         [](auto& c) {
             c.emitters[0].mesh_offset = 0;
             c.emitters[0].mesh_length = 1;
         },
         "only a mesh render has a mesh path"},
        {"op range", [](auto& c) { c.emitters[0].op_count = 10; },
         "op range [0, 10) is outside section 'ops' of 9 records"},
        {"op range overflow", [](auto& c) { c.emitters[2].op_first = 0xFFFFFFFFu; },
         "op range [4294967295, 4294967296)"},
        {"op count limit", [](auto& c) { c.emitters[0].op_count = 33; },
         "op count 33 is over the limit 32"},
        {"burst range", [](auto& c) { c.emitters[0].burst_count = 1; }, "burst range"},
        {"mesh points", [](auto& c) { c.emitters[0].mesh_point_count = 4; }, "mesh_point range"},
        {"mesh shape without points", [](auto& c) { c.emitters[0].mesh_point_count = 0; },
         "a mesh shape needs at least one point"},
        {"colour lut row", [](auto& c) { c.emitters[0].color_lut_row = 99; },
         "color_lut_row 99 is not a LUT row"},
        {"colour lut row when constant", [](auto& c) { c.emitters[1].color_lut_row = 0; },
         "color_lut_row is set but color_mode is not gradient"},
        {"flipbook cells",
         [](auto& c) {
             c.emitters[0].flipbook_columns = 100;
             c.emitters[0].flipbook_rows = 100;
         },
         "flipbook has 10000 cells"},
        {"flipbook frames", [](auto& c) { c.emitters[0].flipbook_frames = 2; },
         "flipbook_frames 2 is outside 1..1"},
        {"ribbon points", [](auto& c) { c.emitters[0].ribbon_max_points = 1; },
         "ribbon_max_points 1 is outside 2..256"},
        {"beam segments", [](auto& c) { c.emitters[1].beam_segments = 0; }, "beam_segments 0"},
        {"op code", [](auto& c) { c.ops[0].op = 15; }, "section 'ops' record 0"},
        {"op code message", [](auto& c) { c.ops[0].op = 15; }, "op 15 is not an op code (0..14)"},
        {"op flags", [](auto& c) { c.ops[0].flags = 1; }, "flags 0x00000001 has bits outside"},
        {"op lut row", [](auto& c) { c.ops[4].lut_row = 50; }, "lut_row 50 is not a LUT row"},
        {"op lut row on wind", [](auto& c) { c.ops[0].lut_row = 0; }, "this op samples no LUT row"},
        {"op params", [&](auto& c) { c.ops[1].params0.z = nan; }, "params0.z is nan"},
        {"curl octaves", [](auto& c) { c.ops[2].mode = 7; }, "octaves (mode) 7 is outside 1..6"},
        {"response", [](auto& c) { c.ops[6].mode = 3; },
         "response (mode) 3 is not a collision response"},
        {"wind mode", [](auto& c) { c.ops[0].mode = 1; }, "mode is 1, must be 0"},
        {"source count", [](auto& c) { c.ops[0].source_count = 0; }, "source_count 0 is outside"},
        {"collider range", [](auto& c) { c.ops[6].count = 1; }, "collider range [0, 1)"},
        {"sub-emitter target", [](auto& c) { c.sub_emitters[0].emitter = 3; },
         "emitter 3 is not an emitter index (3 emitters)"},
        {"sub-emitter event", [](auto& c) { c.sub_emitters[0].event = 4; }, "event 4 is not"},
        {"threshold link without a threshold",
         [](auto& c) { c.sub_emitters[0].event = kEventThreshold; },
         "a threshold link on an emitter without a threshold"},
        {"sub-emitter probability", [](auto& c) { c.sub_emitters[0].probability = 2; },
         "probability 2 is outside [0, 1]"},
        {"sub-emitter count", [](auto& c) { c.sub_emitters[0].count_min = 5; },
         "count_min 5 is outside 1..2"},
        {"sub-emitter pad", [](auto& c) { c.sub_emitters[0].pad1 = 5; }, "pad1 is 5, must be 0"},
        {"sub-emitter self", [](auto& c) { c.sub_emitters[0].emitter = 2; },
         "spawns into its own emitter"},
        {"sub-emitter cycle",
         [](auto& c) {
             c.emitters[1].sub_emitter_first = 0;
             c.emitters[1].sub_emitter_count = 1;
             c.sub_emitters.push_back(c.sub_emitters[0]);
             c.sub_emitters[0].emitter = 2; // beam -> rocks -> beam
             c.emitters[2].sub_emitter_first = 1;
             c.sub_emitters[1].emitter = 1;
         },
         "sub-emitter links form a cycle"},
        {"mesh point", [&](auto& c) { c.mesh_points[1].normal.y = nan; },
         "section 'mesh_points' record 1"},
        {"lut texel", [&](auto& c) { c.lut[kLutWidth + 3].y = inf; }, "section 'lut' record 1"},
        {"lut texel message", [&](auto& c) { c.lut[kLutWidth + 3].y = inf; }, "texel 3.y is inf"},
        {"source index order", [](auto& c) { c.emitters[1].source_index = 0; },
         "does not increase"},
        {"emissive", [](auto& c) { c.emitters[0].emission.x = -1; },
         "emissive (emission.x) -1 is outside"},
        {"emissive nan", [&](auto& c) { c.emitters[0].emission.x = nan; }, "emissive (emission.x)"},
        {"emissive share", [](auto& c) { c.emitters[0].emission.y = 2; },
         "emissive_share (emission.y) 2 is outside"},
        {"emission w", [](auto& c) { c.emitters[0].emission.w = 1; }, "emission.w must be 0"},
        {"distortion range", [](auto& c) { c.emitters[0].emission.z = 3; },
         "distortion (emission.z) 3 is outside"},
        {"distortion without its flag", [](auto& c) { c.emitters[0].emission.z = 0.5f; },
         "exactly when the distortion render flag is set"},
        {"distortion flag without a strength",
         [](auto& c) { c.emitters[0].render_flags |= kRenderFlagDistortion; },
         "exactly when the distortion render flag is set"},
        {"distortion lit",
         [](auto& c) {
             c.emitters[0].render_type = kRenderBillboard;
             c.emitters[0].blend = kBlendAdditive;
             c.emitters[0].emission = vec4(1, 0, 0.5f, 0);
             c.emitters[0].render_flags = kRenderFlagDistortion | kRenderFlagLit;
         },
         "a distortion emitter is an unlit, additive billboard"},
        {"per-particle lighting unlit",
         [](auto& c) {
             c.emitters[0].render_type = kRenderBillboard;
             c.emitters[0].render_flags = kRenderFlagLitPerParticle;
         },
         "per-particle lighting is for lit billboards"},
        {"per-particle lighting on a ribbon",
         [](auto& c) {
             c.emitters[0].render_type = kRenderRibbon;
             c.emitters[0].render_flags = kRenderFlagLit | kRenderFlagLitPerParticle;
         },
         "per-particle lighting is for lit billboards"},
        {"emissive share blend",
         [](auto& c) {
             c.emitters[0].blend = kBlendAlpha;
             c.emitters[0].emission.y = 0.5f;
         },
         "an emissive share needs the premultiplied blend"},
        {"blackbody intensity",
         [](auto& c) {
             c.ops[4].op = kOpBlackbody;
             c.ops[4].params0.x = -1;
         },
         "intensity (params0.x) -1 is outside"},
    };
    for (const RecordCase& rc : cases) {
        SCOPED_TRACE(rc.name);
        CompiledEffect c = base;
        rc.mutate(c);
        const LoadResult r = load(cookEffect(c));
        EXPECT_FALSE(r.ok);
        EXPECT_NE(r.message().find(rc.expected), std::string::npos) << r.message();
    }
    const std::vector<RecordCase> fire_cases = {
        {"burst interval",
         [](auto& c) {
             c.bursts[0].cycles = 3;
             c.bursts[0].interval_s = 0;
         },
         "interval_s 0 must be > 0"},
        {"burst count order", [](auto& c) { c.bursts[0].count_min = 21; },
         "count_min 21 is outside 0..20"},
        {"burst probability", [&](auto& c) { c.bursts[0].probability = -0.5f; },
         "probability -0.5"},
        {"collider kind", [](auto& c) { c.colliders[0].kind = 3; },
         "kind 3 is not a collider kind"},
        {"collider inside flag on plane", [](auto& c) { c.colliders[0].flags = 1; },
         "flags 0x00000001"},
        {"sphere radius", [](auto& c) { c.colliders[1].radius = -1; }, "radius -1 must be > 0"},
        {"force field shape", [](auto& c) { c.force_fields[0].shape = 3; }, "shape 3 is not"},
        {"force field radius", [](auto& c) { c.force_fields[0].radius = 0; },
         "radius 0 must be > 0"},
        {"force field count", [](auto& c) { c.ops[4].count = 0; }, "count 0 is outside 1..8"},
    };
    for (const RecordCase& rc : fire_cases) {
        SCOPED_TRACE(rc.name);
        CompiledEffect c = fire;
        rc.mutate(c);
        const LoadResult r = load(cookEffect(c));
        EXPECT_FALSE(r.ok);
        EXPECT_NE(r.message().find(rc.expected), std::string::npos) << r.message();
    }
}

TEST(Sfx, NamesTheByteOffsetOfTheBadField) {
    CompiledEffect c = compiled(test::everythingEffect());
    c.emitters[1].blend = 7;
    const std::vector<uint8_t> bytes = cookEffect(c);
    const uint64_t expected = entry(bytes, SfxSection::emitters).offset + sizeof(EmitterRecord) +
                              offsetof(EmitterRecord, blend);
    expectRejected(bytes,
                   "section 'emitters' record 1 (byte " + std::to_string(expected) +
                       "): blend 7 is not a blend mode (0..3)",
                   expected);
}

TEST(Sfx, RandomCorruptionNeverCrashesAndWhatLoadsCooksBackIdentically) {
    const std::vector<uint8_t> good = cookEffect(compiled(test::campfireEffect()));
    std::mt19937 rng(1234);
    int loaded = 0;
    for (int round = 0; round < 3000; ++round) {
        std::vector<uint8_t> b = good;
        const int flips = 1 + static_cast<int>(rng() % 4);
        for (int f = 0; f < flips; ++f) {
            b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
        }
        if (round % 2 == 0) reseal(b); // half get past the checksum to the deeper checks
        const LoadResult r = load(b);
        if (r.ok) {
            ++loaded;
            EXPECT_EQ(cookEffect(r.effect), b) << "round " << round;
        } else {
            EXPECT_FALSE(r.message().empty());
        }
    }
    // Flips landing in float values usually still load; the rest are rejected. Both happen.
    EXPECT_GT(loaded, 0);
    EXPECT_LT(loaded, 3000);
}

// tests/data/runtime/events.json: every kind of gameplay event, thresholds and a threshold link.
EffectDesc eventsEffect() {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(loadEffectFile(
        std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/runtime/events.json", desc, diagnostics));
    return desc;
}

// Records of the events section: each field's range, and the count (none or one per emitter).
TEST(Sfx, RejectsBadEmitterEventsRecords) {
    const CompiledEffect base = compiled(eventsEffect());
    ASSERT_EQ(base.emitter_events.size(), base.emitters.size());
    struct EventCase {
        const char* name;
        void (*mutate)(CompiledEffect&);
        const char* expected;
    };
    const EventCase cases[] = {
        {"kinds", [](auto& c) { c.emitter_events[0].kinds = 16; }, "kinds"},
        {"bound zero", [](auto& c) { c.emitter_events[0].max_per_step = 0; }, "max_per_step"},
        {"bound over", [](auto& c) { c.emitter_events[0].max_per_step = 65537; }, "max_per_step"},
        {"quantity", [](auto& c) { c.emitter_events[0].threshold_quantity = 4; },
         "threshold_quantity 4 is not"},
        {"direction", [](auto& c) { c.emitter_events[0].threshold_direction = 3; },
         "threshold_direction 3 is not"},
        {"value nan",
         [](auto& c) {
             c.emitter_events[0].threshold_value = std::numeric_limits<float>::quiet_NaN();
         },
         "threshold_value is nan"},
        {"age fraction", [](auto& c) { c.emitter_events[1].threshold_value = 2; },
         "threshold_value"},
        {"threshold kind without quantity",
         [](auto& c) { c.emitter_events[1].threshold_quantity = kThresholdNone; },
         "threshold events without a threshold quantity"},
        {"padding", [](auto& c) { c.emitter_events[0].pad1 = 1; }, "pad1"},
        {"count", [](auto& c) { c.emitter_events.pop_back(); }, "expected 0 or one per emitter"},
    };
    for (const EventCase& ec : cases) {
        SCOPED_TRACE(ec.name);
        CompiledEffect c = base;
        ec.mutate(c);
        const LoadResult r = load(cookEffect(c));
        EXPECT_FALSE(r.ok);
        EXPECT_NE(r.message().find(ec.expected), std::string::npos) << r.message();
    }
}

// Records of the particle-lights section (render.lights): each field's range, the padding, and
// the count (none or one per emitter); the everything sample's rocks make 3 lights.
TEST(Sfx, RejectsBadParticleLightRecords) {
    const CompiledEffect base = compiled(test::everythingEffect());
    ASSERT_EQ(base.particle_lights.size(), base.emitters.size());
    EXPECT_EQ(base.particle_lights[2].count, 3u);
    EXPECT_EQ(base.particle_lights[2].select, kParticleLightOldest);
    EXPECT_EQ(base.particle_lights[0].count, 0u);
    struct LightCase {
        const char* name;
        void (*mutate)(CompiledEffect&);
        const char* expected;
    };
    const LightCase cases[] = {
        {"count", [](auto& c) { c.particle_lights[2].count = 17; }, "count"},
        {"select", [](auto& c) { c.particle_lights[2].select = 3; }, "select 3 is not"},
        {"stride", [](auto& c) { c.particle_lights[2].every_k = 0; }, "every_k"},
        {"intensity", [](auto& c) { c.particle_lights[2].intensity = -1; }, "intensity"},
        {"intensity nan",
         [](auto& c) { c.particle_lights[2].intensity = std::numeric_limits<float>::quiet_NaN(); },
         "intensity is nan"},
        {"range zero", [](auto& c) { c.particle_lights[2].range_m = 0; }, "range"},
        {"range over", [](auto& c) { c.particle_lights[2].range_m = 1001; }, "range_m"},
        {"padding", [](auto& c) { c.particle_lights[0].pad2 = 1; }, "pad2"},
        {"count of records", [](auto& c) { c.particle_lights.pop_back(); },
         "expected 0 or one per emitter"},
    };
    for (const LightCase& lc : cases) {
        SCOPED_TRACE(lc.name);
        CompiledEffect c = base;
        lc.mutate(c);
        const LoadResult r = load(cookEffect(c));
        EXPECT_FALSE(r.ok);
        EXPECT_NE(r.message().find(lc.expected), std::string::npos) << r.message();
    }
}

// tests/data/runtime/scalability.json: a scalability block and a cosmetic emitter.
EffectDesc scalabilityEffect() {
    EffectDesc desc;
    std::vector<Diagnostic> diagnostics;
    EXPECT_TRUE(
        loadEffectFile(std::string(SPINDRIFT_SOURCE_DIR) + "/tests/data/runtime/scalability.json",
                       desc, diagnostics));
    return desc;
}

// The scalability record survives the cook, and each field's range is checked on load.
TEST(Sfx, RoundTripsAndChecksTheScalabilityRecord) {
    const CompiledEffect base = compiled(scalabilityEffect());
    ASSERT_EQ(base.scalability.size(), 1u);
    EXPECT_EQ(base.scalability[0].sleep_distance_m, 100.0f);
    EXPECT_EQ(base.scalability[0].fade_band_m, 40.0f);
    EXPECT_EQ(base.scalability[0].flags, kScalabilityCulledSleeps);
    EXPECT_EQ(base.scalability[0].cosmetic_lo, 2u); // the second emitter
    const LoadResult good = load(cookEffect(base));
    ASSERT_TRUE(good.ok) << good.message();
    EXPECT_TRUE(good.effect == base);
    // An effect with every scalability setting at its default carries no record.
    EXPECT_TRUE(compiled(test::minimalEffect()).scalability.empty());
    struct ScaleCase {
        const char* name;
        void (*mutate)(CompiledEffect&);
        const char* expected;
    };
    const ScaleCase cases[] = {
        {"distance", [](auto& c) { c.scalability[0].sleep_distance_m = 1e6f; }, "sleep_distance_m"},
        {"distance nan",
         [](auto& c) {
             c.scalability[0].sleep_distance_m = std::numeric_limits<float>::quiet_NaN();
         },
         "sleep_distance_m"},
        {"band past distance", [](auto& c) { c.scalability[0].fade_band_m = 101; }, "fade_band_m"},
        {"fast forward", [](auto& c) { c.scalability[0].max_fast_forward_s = 61; },
         "max_fast_forward_s"},
        {"flags", [](auto& c) { c.scalability[0].flags = 4; }, "flags"},
        {"cosmetic past the emitters", [](auto& c) { c.scalability[0].cosmetic_lo = 4; },
         "cosmetic_lo"},
        {"reserved", [](auto& c) { c.scalability[0].reserved1 = 1; }, "reserved1"},
        {"count", [](auto& c) { c.scalability.push_back(c.scalability[0]); },
         "over the limit of 1"},
    };
    for (const ScaleCase& sc : cases) {
        SCOPED_TRACE(sc.name);
        CompiledEffect c = base;
        sc.mutate(c);
        const LoadResult r = load(cookEffect(c));
        EXPECT_FALSE(r.ok);
        EXPECT_NE(r.message().find(sc.expected), std::string::npos) << r.message();
    }
}

// The fuzz target's seed corpus (fuzz/corpus/sfx_loader/) is the cook of the sample effects by
// this build. When the format changes, regenerate it with
//     SPINDRIFT_REGENERATE_SFX_CORPUS=1 build/bin/cook_test --gtest_filter=Sfx.FuzzSeedCorpus*
// (which writes the files and then passes) and commit them.
TEST(Sfx, FuzzSeedCorpusIsTheCookOfTheSampleEffects) {
    const std::filesystem::path dir =
        std::filesystem::path(SPINDRIFT_SOURCE_DIR) / "fuzz/corpus/sfx_loader";
    const bool regenerate = std::getenv("SPINDRIFT_REGENERATE_SFX_CORPUS") != nullptr;
    const std::vector<std::pair<const char*, EffectDesc>> samples = {
        {"minimal.sfx", test::minimalEffect()},
        {"campfire.sfx", test::campfireEffect()},
        {"everything.sfx", test::everythingEffect()},
        {"parameters.sfx", test::parametersEffect()},
        {"events.sfx", eventsEffect()},
        {"scalability.sfx", scalabilityEffect()},
    };
    for (const auto& [name, fx] : samples) {
        SCOPED_TRACE(name);
        const std::vector<uint8_t> bytes = cookEffect(compiled(fx));
        if (regenerate) {
            std::ofstream(dir / name, std::ios::binary)
                .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        }
        std::ifstream in(dir / name, std::ios::binary);
        const std::vector<uint8_t> committed((std::istreambuf_iterator<char>(in)), {});
        EXPECT_TRUE(committed == bytes) << "out of date: regenerate it (see above)";
    }
}

} // namespace
} // namespace spindrift
