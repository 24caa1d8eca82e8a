// The shared records are declared once (src/kernels/) and compiled by C++ and by glslc; this test
// reads the SPIR-V of shaders/kernel_check.comp and checks that GLSL lays each record out as C++
// does: members back to back from offset 0 (C++ has no padding in them: every field is 4 or 16
// bytes, 4-byte aligned) and, for arrays of records, a stride equal to sizeof.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "embedded_shaders.h"
#include "kernels/beam.h"
#include "kernels/draw_record.h"
#include "kernels/effect_records.h"
#include "render/shader/billboard.h"
#include "render/shader/frame_globals.h"
#include "render/shader/mesh.h"
#include "render/shader/opaque_geometry.h"
#include "render/shader/strip_draw.h"

namespace spindrift {
namespace {

// The few SPIR-V instructions the test reads (SPIR-V specification, section 3).
constexpr uint32_t kOpName = 5;
constexpr uint32_t kOpTypeInt = 21;
constexpr uint32_t kOpTypeFloat = 22;
constexpr uint32_t kOpTypeVector = 23;
constexpr uint32_t kOpTypeArray = 28;
constexpr uint32_t kOpTypeRuntimeArray = 29;
constexpr uint32_t kOpConstant = 43;
constexpr uint32_t kOpTypeStruct = 30;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kOpMemberDecorate = 72;
constexpr uint32_t kDecorationArrayStride = 6;
constexpr uint32_t kDecorationOffset = 35;

struct Module {
    std::map<uint32_t, std::string> names;
    std::map<uint32_t, uint32_t> scalar_bytes;                 // int/float type -> bytes
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> vectors; // type -> (component, count)
    std::map<uint32_t, std::vector<uint32_t>> structs;         // type -> member types
    std::map<uint32_t, uint32_t> runtime_arrays;               // type -> element type
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> arrays;  // type -> (element, length id)
    std::map<uint32_t, uint32_t> constants;                    // id -> its (first) word
    std::map<uint32_t, std::map<uint32_t, uint32_t>> offsets;  // struct -> member -> offset
    std::map<uint32_t, uint32_t> strides;                      // array type -> stride
};

std::string literalString(std::span<const uint32_t> words) {
    std::string s;
    for (uint32_t w : words) {
        for (int b = 0; b < 4; ++b) {
            char c = static_cast<char>((w >> (8 * b)) & 0xffu);
            if (c == '\0') return s;
            s += c;
        }
    }
    return s;
}

Module parse(const shaders::SpirvCode& code) {
    std::span<const uint32_t> words(code.words, code.word_count);
    Module m;
    for (size_t i = 5; i < words.size();) {
        uint32_t count = words[i] >> 16;
        uint32_t op = words[i] & 0xffffu;
        if (count == 0 || i + count > words.size()) break;
        std::span<const uint32_t> in = words.subspan(i + 1, count - 1);
        switch (op) {
        case kOpName:
            m.names[in[0]] = literalString(in.subspan(1));
            break;
        case kOpTypeInt:
        case kOpTypeFloat:
            m.scalar_bytes[in[0]] = in[1] / 8;
            break;
        case kOpTypeVector:
            m.vectors[in[0]] = {in[1], in[2]};
            break;
        case kOpTypeStruct:
            m.structs[in[0]] = std::vector<uint32_t>(in.begin() + 1, in.end());
            break;
        case kOpTypeRuntimeArray:
            m.runtime_arrays[in[0]] = in[1];
            break;
        case kOpTypeArray:
            m.arrays[in[0]] = {in[1], in[2]};
            break;
        case kOpConstant:
            if (in.size() >= 3) m.constants[in[1]] = in[2];
            break;
        case kOpDecorate:
            if (in[1] == kDecorationArrayStride) m.strides[in[0]] = in[2];
            break;
        case kOpMemberDecorate:
            if (in[2] == kDecorationOffset) m.offsets[in[0]][in[1]] = in[3];
            break;
        default:
            break;
        }
        i += count;
    }
    return m;
}

// The size of a type laid out back to back; 0 (and a test failure) when a struct's members are
// not contiguous.
uint32_t packedSize(const Module& m, uint32_t type, const std::string& where) {
    if (auto s = m.scalar_bytes.find(type); s != m.scalar_bytes.end()) return s->second;
    if (auto v = m.vectors.find(type); v != m.vectors.end()) {
        return m.scalar_bytes.at(v->second.first) * v->second.second;
    }
    // A fixed-size array (FrameGlobals' lights): its elements back to back, so its stride must
    // be the element's packed size.
    if (auto a = m.arrays.find(type); a != m.arrays.end()) {
        const uint32_t element = packedSize(m, a->second.first, where + "[]");
        EXPECT_EQ(m.strides.count(type) ? m.strides.at(type) : 0u, element) << where << " stride";
        return element * m.constants.at(a->second.second);
    }
    auto st = m.structs.find(type);
    if (st == m.structs.end()) {
        ADD_FAILURE() << where << ": unexpected member type";
        return 0;
    }
    uint32_t offset = 0;
    for (uint32_t k = 0; k < st->second.size(); ++k) {
        auto o = m.offsets.find(type);
        if (o == m.offsets.end() || !o->second.count(k)) {
            ADD_FAILURE() << where << ": member " << k << " has no offset";
            return 0;
        }
        EXPECT_EQ(o->second.at(k), offset) << where << " member " << k;
        offset += packedSize(m, st->second[k], where + "." + std::to_string(k));
    }
    return offset;
}

TEST(ShaderLayout, SharedRecordsHaveTheSameLayoutInGlslAsInCpp) {
    Module m = parse(shaders::kKernelCheckComp);
    const std::map<std::string, size_t> expected = {
        {"EffectRecord", sizeof(EffectRecord)},
        {"EmitterRecord", sizeof(EmitterRecord)},
        {"OpRecord", sizeof(OpRecord)},
        {"BurstRecord", sizeof(BurstRecord)},
        {"ColliderRecord", sizeof(ColliderRecord)},
        {"ForceFieldRecord", sizeof(ForceFieldRecord)},
        {"MeshPointRecord", sizeof(MeshPointRecord)},
        {"SubEmitterRecord", sizeof(SubEmitterRecord)},
        {"DrawRecord", sizeof(DrawRecord)},
        {"OpaqueDraw", sizeof(OpaqueDraw)},
        {"BillboardParams", sizeof(BillboardParams)},
        {"BillboardPushConstants", sizeof(BillboardPushConstants)},
        {"FrameGlobals", sizeof(FrameGlobals)},
        {"FrameLight", sizeof(FrameLight)},
        {"StripPoint", sizeof(StripPoint)},
        {"StripParams", sizeof(StripParams)},
        {"StripPushConstants", sizeof(StripPushConstants)},
        {"BeamCurve", sizeof(BeamCurve)},
        {"MeshVertex", sizeof(MeshVertex)},
        {"MeshParams", sizeof(MeshParams)},
        {"MeshPushConstants", sizeof(MeshPushConstants)},
    };
    std::map<std::string, int> seen;
    for (const auto& [id, members] : m.structs) {
        auto name = m.names.find(id);
        if (name == m.names.end()) continue;
        auto want = expected.find(name->second);
        if (want == expected.end()) continue;
        ++seen[name->second];
        EXPECT_EQ(packedSize(m, id, name->second), want->second) << name->second;
        for (const auto& [array, element] : m.runtime_arrays) {
            if (element == id && m.strides.count(array)) {
                EXPECT_EQ(m.strides.at(array), want->second) << name->second << " array stride";
            }
        }
    }
    for (const auto& [name, bytes] : expected) {
        EXPECT_GT(seen[name], 0) << name << " is not in kernel_check.comp's SPIR-V";
    }
}

} // namespace
} // namespace spindrift
