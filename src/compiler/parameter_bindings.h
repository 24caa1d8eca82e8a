// User parameters in compiled form (docs/compiled-records.md, "Parameters"): the effect's
// parameters and, for every value an effect binds to one, the 32-bit words of the records that
// hold it. Kernels never see parameters: an instance keeps its own copy of the records and
// applyParameterValues writes a parameter's value into the bound words whenever the host sets it,
// so both backends read ordinary records (the GPU re-uploads the patched ones).
//
// FROZEN: ParameterRecord and ParameterBindingRecord are cooked into .sfx files (sections
// parameters and parameter_bindings); numbered constants are never renumbered.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kernels/effect_records.h"
#include "spindrift/diagnostic.h"
#include "spindrift/effect_desc.h"

namespace spindrift {

struct CompiledEffect;

// ParameterBindingRecord.array: which record array the word is in. Frozen.
inline constexpr uint32_t kParamArrayEmitters = 0;
inline constexpr uint32_t kParamArrayOps = 1;
inline constexpr uint32_t kParamArrayBursts = 2;
inline constexpr uint32_t kParamArrayForceFields = 3;
inline constexpr uint32_t kParamArrayCount = 4;

// ParameterBindingRecord.conversion: how the parameter component becomes the word. Frozen.
inline constexpr uint32_t kParamConvertFloat = 0; // the float's bits
inline constexpr uint32_t kParamConvertCount = 1; // rounded to the nearest integer (a uint)
inline constexpr uint32_t kParamConvertKinds = 2;

struct ParameterRecord {
    uint32_t name_offset; // string table
    uint32_t name_length;
    uint32_t type; // ParameterType
    uint32_t pad0;
    vec4 default_value; // components past the type's width are 0
    vec4 min;
    vec4 max;
};

// Word `word` (32-bit index into the record) of record `record` of array `array` takes component
// `component` of parameter `parameter`'s value.
struct ParameterBindingRecord {
    uint32_t parameter;
    uint32_t array; // kParamArray*
    uint32_t record;
    uint32_t word;
    uint32_t component;  // 0..3
    uint32_t conversion; // kParamConvert*
    uint32_t pad0;
    uint32_t pad1;
};

static_assert(sizeof(ParameterRecord) == 64);
static_assert(sizeof(ParameterBindingRecord) == 32);

// Compiled words per effect: at most 8 per authored binding (a whole colour binds both colours).
inline constexpr uint32_t kMaxParameterWords = kMaxParameterBindings * 8;

// The record words a parameter may be bound to, and the values each accepts: what the compiler
// writes and what the .sfx loader accepts (a word outside this list, or of an op of another
// kind, is refused, so a hostile file cannot patch a count or an index).
struct BindableWord {
    uint32_t array;
    uint32_t op; // kParamArrayOps: the op code the record must have; otherwise 0
    uint32_t word;
    uint32_t conversion;
    float lo, hi; // every value written must lie in [lo, hi]
};
std::span<const BindableWord> bindableWords();
const BindableWord* findBindableWord(uint32_t array, uint32_t op, uint32_t word);
// The values a target accepts in one component (the authoring rule of the value it replaces):
// what a parameter's range must stay inside. False for an unknown target.
bool targetBounds(ParameterTarget target, uint32_t component, float& lo, float& hi);

// Compiles effect.parameters and effect.parameter_bindings into out (emitters, ops, bursts and
// force fields already compiled; compiled_index maps authored emitters, kNone when disabled).
// Bindings of disabled emitters or modules compile to nothing. Writes each parameter's default
// into its words, so the records are the effect as it plays before a host sets a value.
void compileParameters(const EffectDesc& effect, const std::vector<uint32_t>& compiled_index,
                       CompiledEffect& out);

// Writes the values (one vec4 per parameter, effect.parameters order) into the bound words.
// Allocates nothing.
void applyParameterValues(CompiledEffect& effect, std::span<const vec4> values);

// Checks loaded parameter records against the rest of the effect (every index in range, every
// word bindable, every range inside what its words accept); appends errors naming the record.
bool validateParameterRecords(const CompiledEffect& effect, std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
