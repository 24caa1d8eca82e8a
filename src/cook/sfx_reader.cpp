#include "cook/sfx_reader.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "compiler/parameter_bindings.h"
#include "compiler/structural_hash.h"
#include "cook/sfx_format.h"
#include "spindrift/effect_desc.h"

namespace spindrift {
namespace {

static_assert(std::endian::native == std::endian::little,
              "records are copied as host bytes; a big-endian host needs byte swapping here");

std::string number(float value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", static_cast<double>(value));
    return text;
}

std::string number(uint64_t value) {
    return std::to_string(value);
}

// Checks the fields of one record; the first failure is kept and later checks do nothing.
// Every failure names the section, the record index, the byte offset and the field.
class RecordCheck {
public:
    RecordCheck(std::string& error, uint64_t& error_offset, std::string_view section,
                uint32_t index, uint64_t record_offset)
        : error_(error), error_offset_(error_offset), section_(section), index_(index),
          record_offset_(record_offset) {}

    bool ok() const { return error_.empty(); }

    void fail(size_t field_offset, const std::string& message) {
        if (!ok()) return;
        error_offset_ = record_offset_ + field_offset;
        error_ = "section '" + std::string(section_) + "' record " + std::to_string(index_) +
                 " (byte " + std::to_string(error_offset_) + "): " + message;
    }

    void finite(const char* name, float v, size_t off) {
        if (!std::isfinite(v)) fail(off, std::string(name) + " is " + number(v) + ", not finite");
    }
    void finite(const char* name, const vec4& v, size_t off) {
        static constexpr const char* kLane[] = {".x", ".y", ".z", ".w"};
        for (int i = 0; i < 4; ++i) {
            if (std::isfinite(v[i])) continue; // names are built only for the failure
            finite((std::string(name) + kLane[i]).c_str(), v[i], off + 4 * static_cast<size_t>(i));
        }
    }
    // lo <= v <= hi, finite.
    void within(const char* name, float v, size_t off, float lo, float hi) {
        finite(name, v, off);
        if (ok() && (v < lo || v > hi)) {
            fail(off, std::string(name) + " " + number(v) + " is outside [" + number(lo) + ", " +
                          number(hi) + "]");
        }
    }
    void atLeast(const char* name, float v, size_t off, float lo) {
        within(name, v, off, lo, HUGE_VALF);
    }
    void positive(const char* name, float v, size_t off) {
        finite(name, v, off);
        if (ok() && !(v > 0.0f)) fail(off, std::string(name) + " " + number(v) + " must be > 0");
    }
    void enumValue(const char* name, uint32_t v, size_t off, uint32_t count, const char* what) {
        if (v >= count) {
            fail(off, std::string(name) + " " + number(uint64_t{v}) + " is not " + what + " (0.." +
                          number(uint64_t{count - 1}) + ")");
        }
    }
    void flags(const char* name, uint32_t v, size_t off, uint32_t mask) {
        if ((v & ~mask) != 0) {
            fail(off, std::string(name) + " 0x" + hex(v) + " has bits outside the known mask 0x" +
                          hex(mask));
        }
    }
    void zero(const char* name, uint32_t v, size_t off) {
        if (v != 0) fail(off, std::string(name) + " is " + number(uint64_t{v}) + ", must be 0");
    }
    void count(const char* name, uint32_t v, size_t off, uint32_t lo, uint32_t hi) {
        if (v < lo || v > hi) {
            fail(off, std::string(name) + " " + number(uint64_t{v}) + " is outside " +
                          number(uint64_t{lo}) + ".." + number(uint64_t{hi}));
        }
    }
    // [first, first + count) inside an array of size records, count <= max_count.
    void range(const char* name, uint32_t first, uint32_t n, size_t size, uint32_t max_count,
               const char* array, size_t off) {
        if (n > max_count) {
            fail(off, std::string(name) + " count " + number(uint64_t{n}) + " is over the limit " +
                          number(uint64_t{max_count}));
        } else if (first > size || n > size - first) {
            fail(off, std::string(name) + " range [" + number(uint64_t{first}) + ", " +
                          number(uint64_t{first} + n) + ") is outside section '" + array + "' of " +
                          number(uint64_t{size}) + " records");
        }
    }
    // A string-table reference; optional references may be (kNone, 0).
    void text(const char* name, uint32_t offset, uint32_t length, size_t table_size,
              uint32_t max_length, bool optional, size_t off) {
        if (offset == kNone && optional) {
            if (length != 0)
                fail(off,
                     std::string(name) + " is absent but has length " + number(uint64_t{length}));
            return;
        }
        if (length < 1 || length > max_length) {
            fail(off, std::string(name) + " length " + number(uint64_t{length}) +
                          " is outside 1.." + number(uint64_t{max_length}));
        } else if (offset > table_size || length > table_size - offset) {
            fail(off, std::string(name) + " [" + number(uint64_t{offset}) + ", " +
                          number(uint64_t{offset} + length) + ") is outside the string table of " +
                          number(uint64_t{table_size}) + " bytes");
        }
    }
    void lutRow(const char* name, uint32_t row, size_t off, uint32_t rows, bool optional) {
        if (optional && row == kNone) return;
        if (row >= rows) {
            fail(off, std::string(name) + " " + number(uint64_t{row}) + " is not a LUT row (" +
                          number(uint64_t{rows}) + " rows)");
        }
    }

private:
    static std::string hex(uint32_t v) {
        char text[16];
        std::snprintf(text, sizeof(text), "%08x", v);
        return text;
    }

    std::string& error_;
    uint64_t& error_offset_;
    std::string_view section_;
    uint32_t index_;
    uint64_t record_offset_;
};

// Field name, value and offset of a record field; T names the record type in scope.
#define SPINDRIFT_FIELD(field) #field, r.field, offsetof(T, field)

class Loader {
public:
    Loader(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    std::string error;
    uint64_t error_offset = 0;

    bool load(CompiledEffect& out) {
        return readHeader() && readTable() && copySections(out) && checkRecords(out) &&
               checkParameters(out) && checkStructuralHash(out);
    }

private:
    bool fail(uint64_t offset, const std::string& message) {
        error_offset = offset;
        error = "byte " + std::to_string(offset) + ": " + message;
        return false;
    }

    bool readHeader() {
        if (bytes_.size() < sizeof(SfxHeader)) {
            return fail(0, "file is " + number(uint64_t{bytes_.size()}) +
                               " bytes, shorter than the " + number(uint64_t{sizeof(SfxHeader)}) +
                               "-byte .sfx header");
        }
        std::memcpy(&header_, bytes_.data(), sizeof(header_));
        if (std::memcmp(header_.magic, kSfxMagic, sizeof(kSfxMagic)) != 0) {
            return fail(0, "not a cooked effect: the magic is not \"SPNDRSFX\"");
        }
        if (header_.endianness != kSfxEndiannessMarker) {
            return fail(offsetof(SfxHeader, endianness),
                        "endianness marker is 0x" + hex(header_.endianness) +
                            ", expected 0x01020304 (little-endian)");
        }
        if (header_.format_version != kSfxFormatVersion) {
            return fail(offsetof(SfxHeader, format_version),
                        "format version " + number(uint64_t{header_.format_version}) +
                            " is not supported (this build reads version " +
                            number(uint64_t{kSfxFormatVersion}) +
                            "); cook the effect again from its JSON source (spindrift cook)");
        }
        if (header_.reserved != 0) {
            return fail(offsetof(SfxHeader, reserved), "reserved header field is not 0");
        }
        if (header_.file_size != bytes_.size()) {
            return fail(offsetof(SfxHeader, file_size),
                        "header says the file is " + number(header_.file_size) + " bytes, it is " +
                            number(uint64_t{bytes_.size()}) + " (truncated or padded)");
        }
        const uint64_t checksum = sfxChecksum(bytes_);
        if (checksum != header_.checksum) {
            return fail(offsetof(SfxHeader, checksum),
                        "checksum mismatch: header says 0x" + hex64(header_.checksum) +
                            ", the contents hash to 0x" + hex64(checksum) + " (corrupt file)");
        }
        return true;
    }

    bool readTable() {
        const uint64_t n = header_.section_count;
        const uint64_t table_offset = sizeof(SfxHeader);
        if (n > (bytes_.size() - table_offset) / sizeof(SfxSectionEntry)) {
            return fail(offsetof(SfxHeader, section_count),
                        "section table of " + number(n) + " entries does not fit in the file");
        }
        bool seen[kSfxSectionCount] = {};
        uint64_t expected_offset =
            alignSfxOffset(table_offset + kSfxSectionCount * sizeof(SfxSectionEntry));
        for (uint32_t i = 0; i < n; ++i) {
            const uint64_t at = table_offset + uint64_t{i} * sizeof(SfxSectionEntry);
            SfxSectionEntry e;
            std::memcpy(&e, bytes_.data() + at, sizeof(e));
            const std::string entry = "section table entry " + std::to_string(i);
            if (e.id < 1 || e.id > kSfxSectionCount) {
                return fail(at, entry + ": unknown section id " + number(uint64_t{e.id}) +
                                    " (known: 1.." + number(uint64_t{kSfxSectionCount}) + ")");
            }
            const SfxSectionInfo& info = sfxSectionInfo(e.id - 1);
            const std::string name = "section '" + std::string(info.name) + "'";
            if (seen[e.id - 1]) return fail(at, entry + ": duplicate " + name);
            seen[e.id - 1] = true;
            if (e.id != i + 1) {
                return fail(at, entry + ": " + name +
                                    " is out of order (sections are stored in "
                                    "id order, entry " +
                                    number(uint64_t{e.id - 1}) + ")");
            }
            if (e.reserved != 0) return fail(at + 12, name + ": reserved field is not 0");
            if (e.record_size != info.record_size) {
                return fail(at + 4, name + ": record size " + number(uint64_t{e.record_size}) +
                                        ", expected " + number(uint64_t{info.record_size}));
            }
            if (e.count > info.max_count) {
                return fail(at + 8, name + ": " + number(uint64_t{e.count}) +
                                        " records, over the limit of " +
                                        number(uint64_t{info.max_count}));
            }
            if (e.byte_size != uint64_t{e.record_size} * e.count) {
                return fail(at + 24, name + ": byte size " + number(e.byte_size) + " is not " +
                                         number(uint64_t{e.count}) + " records of " +
                                         number(uint64_t{e.record_size}) + " bytes");
            }
            if (e.offset % kSfxSectionAlignment != 0) {
                return fail(at + 16,
                            name + ": offset " + number(e.offset) + " is not a multiple of 16");
            }
            if (e.offset > bytes_.size() || e.byte_size > bytes_.size() - e.offset) {
                return fail(at + 16, name + ": bytes [" + number(e.offset) + ", +" +
                                         number(e.byte_size) + ") run past the end of the " +
                                         number(uint64_t{bytes_.size()}) + "-byte file");
            }
            if (e.offset != expected_offset) {
                return fail(at + 16, name + ": offset " + number(e.offset) + ", expected " +
                                         number(expected_offset) +
                                         " (sections follow each other at 16-byte boundaries)");
            }
            expected_offset = alignSfxOffset(e.offset + e.byte_size);
            entries_[e.id - 1] = e;
        }
        for (uint32_t i = 0; i < kSfxSectionCount; ++i) {
            if (!seen[i]) {
                return fail(offsetof(SfxHeader, section_count),
                            "missing section '" + std::string(sfxSectionInfo(i).name) + "'");
            }
        }
        if (expected_offset != bytes_.size()) {
            return fail(expected_offset, "file is " + number(uint64_t{bytes_.size()}) +
                                             " bytes; its sections end at " +
                                             number(expected_offset));
        }
        return checkPaddingIsZero();
    }

    // The bytes between the table and the sections, and between sections, are zero, so a
    // loaded file cooks back to the same bytes.
    bool checkPaddingIsZero() {
        uint64_t from = sizeof(SfxHeader) + kSfxSectionCount * sizeof(SfxSectionEntry);
        for (uint32_t i = 0; i <= kSfxSectionCount; ++i) {
            const uint64_t to = i < kSfxSectionCount ? entries_[i].offset : bytes_.size();
            for (uint64_t b = from; b < to; ++b) {
                if (bytes_[b] != 0) return fail(b, "padding byte is not zero");
            }
            if (i < kSfxSectionCount) from = entries_[i].offset + entries_[i].byte_size;
        }
        return true;
    }

    template <typename T> void copy(SfxSection id, std::vector<T>& out) {
        const SfxSectionEntry& e = entries_[static_cast<uint32_t>(id) - 1];
        out.resize(e.byte_size / sizeof(T));
        if (e.byte_size != 0) std::memcpy(out.data(), bytes_.data() + e.offset, e.byte_size);
    }

    bool copySections(CompiledEffect& out) {
        const SfxSectionEntry& effect = entries_[0];
        if (effect.count != 1) {
            return fail(sizeof(SfxHeader) + 8,
                        "section 'effect': " + number(uint64_t{effect.count}) +
                            " records, expected exactly 1");
        }
        std::memcpy(&out.effect, bytes_.data() + effect.offset, sizeof(EffectRecord));
        copy(SfxSection::emitters, out.emitters);
        copy(SfxSection::ops, out.ops);
        copy(SfxSection::bursts, out.bursts);
        copy(SfxSection::colliders, out.colliders);
        copy(SfxSection::force_fields, out.force_fields);
        copy(SfxSection::mesh_points, out.mesh_points);
        copy(SfxSection::sub_emitters, out.sub_emitters);
        copy(SfxSection::emitter_events, out.emitter_events);
        copy(SfxSection::scalability, out.scalability);
        copy(SfxSection::particle_lights, out.particle_lights);
        const SfxSectionEntry& lut = entries_[static_cast<uint32_t>(SfxSection::lut) - 1];
        out.lut.resize(uint64_t{lut.count} * kLutWidth);
        if (lut.byte_size != 0)
            std::memcpy(out.lut.data(), bytes_.data() + lut.offset, lut.byte_size);
        const SfxSectionEntry& strings = entries_[static_cast<uint32_t>(SfxSection::strings) - 1];
        out.strings.assign(reinterpret_cast<const char*>(bytes_.data() + strings.offset),
                           strings.byte_size);
        copy(SfxSection::parameters, out.parameters);
        copy(SfxSection::parameter_bindings, out.parameter_bindings);
        out.structural_hash = header_.structural_hash;
        return true;
    }

    // Parameters: every binding names a parameter and a word a parameter may set, inside the
    // values that word accepts (compiler/parameter_bindings.h), so no value a host sets later
    // can reach a count, an index or a non-finite float.
    bool checkParameters(const CompiledEffect& fx) {
        std::vector<Diagnostic> problems;
        if (validateParameterRecords(fx, problems)) return true;
        const bool binding = problems.front().message.rfind("parameter binding", 0) == 0;
        return fail(entries_[static_cast<uint32_t>(binding ? SfxSection::parameter_bindings
                                                           : SfxSection::parameters) -
                             1]
                        .offset,
                    problems.front().message);
    }

    // Last, on records known to be valid: the header's structural hash must be the one the
    // records have. The checksum covers the field, so this catches a writer that stated a wrong
    // hash, or a file edited and resealed, before a host trusts it (live patching, sharing
    // pipelines between effects that claim one structure).
    bool checkStructuralHash(const CompiledEffect& fx) {
        const uint64_t hash = structuralHash(fx);
        if (hash == header_.structural_hash) return true;
        return fail(offsetof(SfxHeader, structural_hash),
                    "structural hash mismatch: the header says 0x" +
                        hex64(header_.structural_hash) + ", the effect's records hash to 0x" +
                        hex64(hash) + " (corrupt or edited file)");
    }

    uint64_t recordOffset(SfxSection id, uint32_t index) const {
        const SfxSectionEntry& e = entries_[static_cast<uint32_t>(id) - 1];
        return e.offset + uint64_t{index} * e.record_size;
    }

    RecordCheck check(SfxSection id, uint32_t index) {
        return RecordCheck(error, error_offset, sfxSectionInfo(static_cast<uint32_t>(id) - 1).name,
                           index, recordOffset(id, index));
    }

    bool checkRecords(const CompiledEffect& fx) {
        checkEffect(fx);
        for (uint32_t i = 0; i < fx.emitters.size() && error.empty(); ++i) checkEmitter(fx, i);
        for (uint32_t i = 0; i < fx.ops.size() && error.empty(); ++i) checkOp(fx, i);
        for (uint32_t i = 0; i < fx.bursts.size() && error.empty(); ++i) checkBurst(fx, i);
        for (uint32_t i = 0; i < fx.colliders.size() && error.empty(); ++i) checkCollider(fx, i);
        for (uint32_t i = 0; i < fx.force_fields.size() && error.empty(); ++i) {
            checkForceField(fx, i);
        }
        for (uint32_t i = 0; i < fx.mesh_points.size() && error.empty(); ++i) {
            using T = MeshPointRecord;
            const T& r = fx.mesh_points[i];
            RecordCheck c = check(SfxSection::mesh_points, i);
            c.finite(SPINDRIFT_FIELD(position));
            c.finite(SPINDRIFT_FIELD(normal));
        }
        for (uint32_t i = 0; i < fx.sub_emitters.size() && error.empty(); ++i) {
            checkSubEmitter(fx, i);
        }
        for (uint32_t i = 0; i < fx.lut.size() && error.empty(); ++i) {
            const vec4& texel = fx.lut[i];
            if (std::isfinite(texel.x) && std::isfinite(texel.y) && std::isfinite(texel.z) &&
                std::isfinite(texel.w)) {
                continue;
            }
            RecordCheck c(error, error_offset, "lut", i / kLutWidth,
                          recordOffset(SfxSection::lut, i / kLutWidth));
            c.finite(("texel " + std::to_string(i % kLutWidth)).c_str(), texel,
                     (i % kLutWidth) * sizeof(vec4));
        }
        checkEmitterEvents(fx);
        checkParticleLights(fx);
        checkScalability(fx);
        if (error.empty()) checkCapacities(fx);
        if (error.empty()) checkSubEmitterGraph(fx);
        return error.empty();
    }

    void checkEffect(const CompiledEffect& fx) {
        using T = EffectRecord;
        const T& r = fx.effect;
        RecordCheck c = check(SfxSection::effect, 0);
        c.flags(SPINDRIFT_FIELD(flags), kEffectFlagMask);
        c.enumValue(SPINDRIFT_FIELD(space), kSpaceCount, "a simulation space");
        c.count(SPINDRIFT_FIELD(capacity), 1, kMaxEffectCapacity);
        c.positive(SPINDRIFT_FIELD(duration_s));
        c.within(SPINDRIFT_FIELD(fixed_timestep_s), 1e-4f, 1.0f);
        c.text("name", r.name_offset, r.name_length, fx.strings.size(), kMaxNameBytes, false,
               offsetof(T, name_offset));
        c.finite(SPINDRIFT_FIELD(bounds_center));
        c.finite(SPINDRIFT_FIELD(bounds_half_extents));
        // validateEffect's ranges (kMaxBoundsExtent): framing and culling square these.
        for (int i = 0; i < 3; ++i) {
            const size_t lane = 4 * static_cast<size_t>(i);
            c.within("bounds_center", r.bounds_center[i], offsetof(T, bounds_center) + lane,
                     -kMaxBoundsExtent, kMaxBoundsExtent);
            c.within("bounds_half_extents", r.bounds_half_extents[i],
                     offsetof(T, bounds_half_extents) + lane, 0.0f, kMaxBoundsExtent);
        }
    }

    void checkEmitter(const CompiledEffect& fx, uint32_t index) {
        using T = EmitterRecord;
        const T& r = fx.emitters[index];
        RecordCheck c = check(SfxSection::emitters, index);
        c.finite(SPINDRIFT_FIELD(transform_row0));
        c.finite(SPINDRIFT_FIELD(transform_row1));
        c.finite(SPINDRIFT_FIELD(transform_row2));
        c.count(SPINDRIFT_FIELD(capacity), 1, kMaxEmitterCapacity);
        c.enumValue(SPINDRIFT_FIELD(overflow), kOverflowCount, "an overflow policy");
        c.enumValue(SPINDRIFT_FIELD(backend), kBackendCount, "a backend preference");
        c.count(SPINDRIFT_FIELD(source_index), 0, kMaxEmitters - 1);
        if (index > 0 && r.source_index <= fx.emitters[index - 1].source_index) {
            c.fail(offsetof(T, source_index), "source_index " + number(uint64_t{r.source_index}) +
                                                  " does not increase over the previous emitter's");
        }
        const size_t strings = fx.strings.size();
        c.text("name", r.name_offset, r.name_length, strings, kMaxNameBytes, false,
               offsetof(T, name_offset));
        c.text("texture", r.texture_offset, r.texture_length, strings, kMaxPathBytes, true,
               offsetof(T, texture_offset));
        c.text("mesh", r.mesh_offset, r.mesh_length, strings, kMaxPathBytes, true,
               offsetof(T, mesh_offset));
        c.range("burst", r.burst_first, r.burst_count, fx.bursts.size(), kMaxBursts, "bursts",
                offsetof(T, burst_first));
        c.range("op", r.op_first, r.op_count, fx.ops.size(), kMaxUpdateModules, "ops",
                offsetof(T, op_first));
        c.range("sub_emitter", r.sub_emitter_first, r.sub_emitter_count, fx.sub_emitters.size(),
                kMaxSubEmitters, "sub_emitters", offsetof(T, sub_emitter_first));
        c.range("mesh_point", r.mesh_point_first, r.mesh_point_count, fx.mesh_points.size(),
                kMaxMeshPoints, "mesh_points", offsetof(T, mesh_point_first));

        c.atLeast(SPINDRIFT_FIELD(rate_per_s), 0.0f);
        c.atLeast(SPINDRIFT_FIELD(rate_per_m), 0.0f);
        c.atLeast(SPINDRIFT_FIELD(delay_s), 0.0f);
        c.enumValue(SPINDRIFT_FIELD(shape_kind), kShapeCount, "a shape type");
        c.enumValue(SPINDRIFT_FIELD(emit_from), kEmitFromCount, "an emit_from mode");
        if ((r.shape_kind == kShapeMesh) != (r.mesh_point_count > 0)) {
            c.fail(offsetof(T, mesh_point_count),
                   "mesh_point_count " + number(uint64_t{r.mesh_point_count}) +
                       (r.shape_kind == kShapeMesh ? ": a mesh shape needs at least one point"
                                                   : ": only a mesh shape has points"));
        }
        c.within(SPINDRIFT_FIELD(randomize_direction), 0.0f, 1.0f);
        c.finite(SPINDRIFT_FIELD(shape_radius));
        c.finite(SPINDRIFT_FIELD(shape_tube_radius));
        c.finite(SPINDRIFT_FIELD(shape_length));
        c.finite(SPINDRIFT_FIELD(shape_angle_rad));
        c.finite(SPINDRIFT_FIELD(shape_size));

        c.positive(SPINDRIFT_FIELD(lifetime_min_s));
        c.atLeast(SPINDRIFT_FIELD(lifetime_max_s), r.lifetime_min_s);
        c.atLeast(SPINDRIFT_FIELD(size_min), 0.0f);
        c.atLeast(SPINDRIFT_FIELD(size_max), r.size_min);
        c.finite(SPINDRIFT_FIELD(rotation_min_rad));
        c.finite(SPINDRIFT_FIELD(rotation_max_rad));
        c.finite(SPINDRIFT_FIELD(angular_velocity_min_rad_per_s));
        c.finite(SPINDRIFT_FIELD(angular_velocity_max_rad_per_s));
        c.finite(SPINDRIFT_FIELD(speed_min));
        c.finite(SPINDRIFT_FIELD(speed_max));
        c.positive(SPINDRIFT_FIELD(mass_min));
        c.atLeast(SPINDRIFT_FIELD(mass_max), r.mass_min);
        c.finite(SPINDRIFT_FIELD(velocity_min));
        c.finite(SPINDRIFT_FIELD(velocity_max));
        c.finite(SPINDRIFT_FIELD(color_a));
        c.finite(SPINDRIFT_FIELD(color_b));
        c.enumValue(SPINDRIFT_FIELD(color_mode), kColorModeCount, "a colour mode");
        c.lutRow(SPINDRIFT_FIELD(color_lut_row), fx.lutRowCount(),
                 r.color_mode != kColorModeGradient);
        if (r.color_mode != kColorModeGradient && r.color_lut_row != kNone) {
            c.fail(offsetof(T, color_lut_row),
                   "color_lut_row is set but color_mode is not gradient");
        }

        c.enumValue(SPINDRIFT_FIELD(render_type), kRenderCount, "a render type");
        c.enumValue(SPINDRIFT_FIELD(blend), kBlendCount, "a blend mode");
        c.enumValue(SPINDRIFT_FIELD(alignment), kAlignCount, "an alignment");
        c.enumValue(SPINDRIFT_FIELD(sort), kSortCount, "a sort mode");
        c.flags(SPINDRIFT_FIELD(render_flags), kRenderFlagMask);
        c.atLeast(SPINDRIFT_FIELD(soft_fade_distance), 0.0f);
        c.finite(SPINDRIFT_FIELD(axis));
        if ((r.render_type == kRenderMesh) != (r.mesh_offset != kNone)) {
            c.fail(offsetof(T, mesh_offset), r.render_type == kRenderMesh
                                                 ? "a mesh render needs a mesh path"
                                                 : "only a mesh render has a mesh path");
        }
        if (r.blend == kBlendOpaque && r.render_type != kRenderMesh) {
            c.fail(offsetof(T, blend), "only a mesh render can be opaque");
        }
        c.count(SPINDRIFT_FIELD(flipbook_columns), 1, kMaxFlipbookCells);
        c.count(SPINDRIFT_FIELD(flipbook_rows), 1, kMaxFlipbookCells);
        const uint64_t cells = uint64_t{r.flipbook_columns} * r.flipbook_rows;
        if (c.ok() && cells > kMaxFlipbookCells) {
            c.fail(offsetof(T, flipbook_rows), "flipbook has " + number(cells) +
                                                   " cells, over the limit " +
                                                   number(uint64_t{kMaxFlipbookCells}));
        }
        if (c.ok()) {
            c.count(SPINDRIFT_FIELD(flipbook_frames), 1, static_cast<uint32_t>(cells));
        }
        c.positive(SPINDRIFT_FIELD(flipbook_cycles));
        c.positive(SPINDRIFT_FIELD(ribbon_width));
        c.atLeast(SPINDRIFT_FIELD(ribbon_uv_tiling), 0.0f);
        c.within(SPINDRIFT_FIELD(ribbon_taper), 0.0f, 1.0f);
        c.positive(SPINDRIFT_FIELD(ribbon_min_sample_distance));
        c.count(SPINDRIFT_FIELD(ribbon_max_points), 2, kMaxRibbonPoints);
        c.count(SPINDRIFT_FIELD(beam_segments), 1, kMaxBeamSegments);
        c.positive(SPINDRIFT_FIELD(mesh_scale));
        c.atLeast(SPINDRIFT_FIELD(mesh_tumble_rad_per_s), 0.0f);
        c.finite(SPINDRIFT_FIELD(beam_start));
        c.finite(SPINDRIFT_FIELD(beam_end));
        c.finite(SPINDRIFT_FIELD(beam_start_tangent));
        c.finite(SPINDRIFT_FIELD(beam_end_tangent));
        c.within("emissive (emission.x)", r.emission.x, offsetof(T, emission), 0.0f, kMaxEmissive);
        c.within("emissive_share (emission.y)", r.emission.y, offsetof(T, emission), 0.0f, 1.0f);
        c.within("distortion (emission.z)", r.emission.z, offsetof(T, emission), 0.0f,
                 kMaxDistortion);
        if (c.ok() && r.emission.w != 0.0f) c.fail(offsetof(T, emission), "emission.w must be 0");
        const bool distortion = (r.render_flags & kRenderFlagDistortion) != 0u;
        if (c.ok() && distortion != (r.emission.z > 0.0f)) {
            c.fail(offsetof(T, emission), "distortion (emission.z) is above 0 exactly when the "
                                          "distortion render flag is set");
        }
        if (c.ok() && distortion &&
            (r.render_type != kRenderBillboard || r.blend != kBlendAdditive ||
             (r.render_flags & (kRenderFlagLit | kRenderFlagShadowCutout)) != 0u ||
             r.emission.y != 0.0f)) {
            c.fail(offsetof(T, render_flags), "a distortion emitter is an unlit, additive "
                                              "billboard with no emissive share and no cutout");
        }
        if (c.ok() && (r.render_flags & kRenderFlagLitPerParticle) != 0u &&
            (r.render_type != kRenderBillboard || (r.render_flags & kRenderFlagLit) == 0u)) {
            c.fail(offsetof(T, render_flags),
                   "per-particle lighting is for lit billboards (with the lit render flag)");
        }
        if (c.ok() && r.emission.y > 0.0f && r.blend != kBlendPremultiplied) {
            c.fail(offsetof(T, emission), "an emissive share needs the premultiplied blend");
        }

        for (uint32_t k = 0; k < r.sub_emitter_count && c.ok(); ++k) {
            if (fx.sub_emitters[r.sub_emitter_first + k].emitter == index) {
                c.fail(offsetof(T, sub_emitter_first),
                       "sub-emitter " + number(uint64_t{r.sub_emitter_first + k}) +
                           " spawns into its own emitter");
            }
        }
    }

    void checkOp(const CompiledEffect& fx, uint32_t index) {
        using T = OpRecord;
        const T& r = fx.ops[index];
        RecordCheck c = check(SfxSection::ops, index);
        c.enumValue(SPINDRIFT_FIELD(op), kOpCount, "an op code");
        const uint32_t allowed_flags = r.op == kOpCollision
                                           ? (kOpFlagDepthBuffer | kOpFlagWorldColliders)
                                           : (r.op == kOpForceFields ? kOpFlagWorldAttractors : 0u);
        c.flags(SPINDRIFT_FIELD(flags), allowed_flags);
        c.count(SPINDRIFT_FIELD(source_count), 1, kMaxUpdateModules);
        if (c.ok() && uint64_t{r.source_module} + r.source_count > kMaxUpdateModules) {
            c.fail(offsetof(T, source_module),
                   "source_module " + number(uint64_t{r.source_module}) + " + source_count " +
                       number(uint64_t{r.source_count}) + " is over " +
                       number(uint64_t{kMaxUpdateModules}) + " modules");
        }
        const uint32_t rows = fx.lutRowCount();
        switch (r.op) {
        case kOpColorOverLife:
        case kOpSizeOverLife:
        case kOpRotationOverLife:
        case kOpColorBySpeed:
        case kOpSizeBySpeed:
        case kOpBlackbody:
            c.lutRow(SPINDRIFT_FIELD(lut_row), rows, false);
            break;
        case kOpBuoyancy:
            c.lutRow(SPINDRIFT_FIELD(lut_row), rows, true);
            break;
        default:
            if (r.lut_row != kNone) c.fail(offsetof(T, lut_row), "this op samples no LUT row");
        }
        const bool world_attractors = (r.flags & kOpFlagWorldAttractors) != 0;
        if (r.op == kOpForceFields && world_attractors) {
            // The host fills the range at each step: none in the file.
            c.zero(SPINDRIFT_FIELD(count));
            const float mask = r.params0.x;
            if (!(mask >= 1.0f && mask <= float(kAllCollisionGroupsMask) &&
                  mask == std::floor(mask))) {
                c.fail(offsetof(T, params0), "attractor mask (params0.x) " + number(mask) +
                                                 " is not a whole number in 1..16777215");
            }
        } else if (r.op == kOpForceFields) {
            c.count(SPINDRIFT_FIELD(count), 1, kMaxForceFields);
            c.range("force_field", r.first, r.count, fx.force_fields.size(), kMaxForceFields,
                    "force_fields", offsetof(T, first));
        } else if (r.op == kOpCollision) {
            c.range("collider", r.first, r.count, fx.colliders.size(), kMaxColliders, "colliders",
                    offsetof(T, first));
        } else {
            c.zero(SPINDRIFT_FIELD(first));
            c.zero(SPINDRIFT_FIELD(count));
        }
        if (r.op == kOpCurlNoise) {
            c.count("octaves (mode)", r.mode, offsetof(T, mode), 1, kMaxCurlOctaves);
        } else if (r.op == kOpCollision) {
            c.enumValue("response (mode)", r.mode, offsetof(T, mode), kResponseCount,
                        "a collision response");
            const float mask = r.params1.x;
            const bool world = (r.flags & kOpFlagMask) != 0;
            if (world && !(mask >= 1.0f && mask <= float(kAllCollisionGroupsMask) &&
                           mask == std::floor(mask))) {
                c.fail(offsetof(T, params1), "collision mask (params1.x) " + number(mask) +
                                                 " is not a whole number in 1..16777215");
            }
            const float thickness = r.params1.y;
            const bool depth = (r.flags & kOpFlagDepthBuffer) != 0;
            if (depth && !(thickness > 0.0f && thickness <= kMaxSceneDepthThickness)) {
                c.fail(offsetof(T, params1), "depth thickness (params1.y) " + number(thickness) +
                                                 " is not in (0, 100] m");
            } else if (!depth && thickness != 0.0f) {
                c.fail(offsetof(T, params1), "depth thickness (params1.y) " + number(thickness) +
                                                 " is set on an op without depth_buffer");
            }
        } else {
            c.zero(SPINDRIFT_FIELD(mode));
        }
        c.finite(SPINDRIFT_FIELD(params0));
        c.finite(SPINDRIFT_FIELD(params1));
        if (c.ok() && r.op == kOpBlackbody) {
            c.within("intensity (params0.x)", r.params0.x, offsetof(T, params0), 0.0f,
                     kMaxColorValue);
        }
    }

    void checkBurst(const CompiledEffect& fx, uint32_t index) {
        using T = BurstRecord;
        const T& r = fx.bursts[index];
        RecordCheck c = check(SfxSection::bursts, index);
        c.atLeast(SPINDRIFT_FIELD(time_s), 0.0f);
        c.count(SPINDRIFT_FIELD(count_max), 0, kMaxBurstCount);
        c.count(SPINDRIFT_FIELD(count_min), 0, r.count_max);
        c.count(SPINDRIFT_FIELD(cycles), 0, kMaxBurstCycles);
        c.finite(SPINDRIFT_FIELD(interval_s));
        // A repeating burst with no interval would spawn for ever in one step.
        if (r.cycles != 1) c.positive(SPINDRIFT_FIELD(interval_s));
        c.within(SPINDRIFT_FIELD(probability), 0.0f, 1.0f);
        c.zero(SPINDRIFT_FIELD(pad0));
        c.zero(SPINDRIFT_FIELD(pad1));
    }

    void checkCollider(const CompiledEffect& fx, uint32_t index) {
        using T = ColliderRecord;
        const T& r = fx.colliders[index];
        RecordCheck c = check(SfxSection::colliders, index);
        c.enumValue(SPINDRIFT_FIELD(kind), kColliderCount, "a collider kind");
        c.flags(SPINDRIFT_FIELD(flags), r.kind == kColliderSphere ? kColliderFlagMask : 0u);
        if (r.kind == kColliderSphere) {
            c.positive(SPINDRIFT_FIELD(radius));
        } else {
            c.finite(SPINDRIFT_FIELD(radius));
        }
        c.zero(SPINDRIFT_FIELD(payload));
        c.finite(SPINDRIFT_FIELD(position));
        c.finite(SPINDRIFT_FIELD(extent));
        // The frame is the host's world colliders' (never in an effect file).
        if (r.axis_u != vec4(0.0f)) c.fail(offsetof(T, axis_u), "axis_u must be 0");
        if (r.axis_v != vec4(0.0f)) c.fail(offsetof(T, axis_v), "axis_v must be 0");
    }

    void checkForceField(const CompiledEffect& fx, uint32_t index) {
        using T = ForceFieldRecord;
        const T& r = fx.force_fields[index];
        RecordCheck c = check(SfxSection::force_fields, index);
        c.enumValue(SPINDRIFT_FIELD(shape), kForceFieldCount, "a force field shape");
        c.finite(SPINDRIFT_FIELD(strength));
        c.positive(SPINDRIFT_FIELD(radius));
        c.atLeast(SPINDRIFT_FIELD(falloff), 0.0f);
        c.finite(SPINDRIFT_FIELD(position));
        c.finite(SPINDRIFT_FIELD(axis));
    }

    void checkSubEmitter(const CompiledEffect& fx, uint32_t index) {
        using T = SubEmitterRecord;
        const T& r = fx.sub_emitters[index];
        RecordCheck c = check(SfxSection::sub_emitters, index);
        c.enumValue(SPINDRIFT_FIELD(event), kEventCount, "a sub-emitter event");
        if (r.emitter >= fx.emitters.size()) {
            c.fail(offsetof(T, emitter), "emitter " + number(uint64_t{r.emitter}) +
                                             " is not an emitter index (" +
                                             number(uint64_t{fx.emitters.size()}) + " emitters)");
        }
        c.within(SPINDRIFT_FIELD(probability), 0.0f, 1.0f);
        c.within(SPINDRIFT_FIELD(inherit_velocity), 0.0f, 1.0f);
        c.count(SPINDRIFT_FIELD(count_max), 1, kMaxSubEmitterCount);
        c.count(SPINDRIFT_FIELD(count_min), 1, r.count_max);
        c.zero(SPINDRIFT_FIELD(pad0));
        c.zero(SPINDRIFT_FIELD(pad1));
    }

    // None or one, within the effect format's ranges (ScalabilityDesc), cosmetic bits on emitters.
    void checkScalability(const CompiledEffect& fx) {
        // The section table already holds it to one record (kSections' limit).
        if (!error.empty() || fx.scalability.empty()) return;
        using T = ScalabilityRecord;
        const T& r = fx.scalability[0];
        RecordCheck c = check(SfxSection::scalability, 0);
        c.within(SPINDRIFT_FIELD(sleep_distance_m), 0.0f, kMaxSleepDistance);
        c.within(SPINDRIFT_FIELD(fade_band_m), 0.0f, r.sleep_distance_m);
        c.within(SPINDRIFT_FIELD(max_fast_forward_s), 0.0f, kMaxFastForwardSeconds);
        c.flags(SPINDRIFT_FIELD(flags), kScalabilityFlagsKnown);
        const uint64_t emitters = fx.emitters.size();
        const uint64_t known = emitters >= 64 ? ~uint64_t{0} : (uint64_t{1} << emitters) - 1;
        c.flags(SPINDRIFT_FIELD(cosmetic_lo), static_cast<uint32_t>(known));
        c.flags(SPINDRIFT_FIELD(cosmetic_hi), static_cast<uint32_t>(known >> 32));
        c.zero(SPINDRIFT_FIELD(reserved0));
        c.zero(SPINDRIFT_FIELD(reserved1));
    }

    // None, or one per emitter; each within the effect format's ranges (render.lights).
    void checkParticleLights(const CompiledEffect& fx) {
        if (!error.empty()) return;
        const size_t n = fx.particle_lights.size();
        if (n != 0 && n != fx.emitters.size()) {
            RecordCheck c = check(SfxSection::particle_lights, 0);
            c.fail(0, number(uint64_t{n}) + " records, expected 0 or one per emitter (" +
                          number(uint64_t{fx.emitters.size()}) + ")");
            return;
        }
        for (uint32_t i = 0; i < n && error.empty(); ++i) {
            using T = ParticleLightRecord;
            const T& r = fx.particle_lights[i];
            RecordCheck c = check(SfxSection::particle_lights, i);
            c.count(SPINDRIFT_FIELD(count), 0, kMaxParticleLights);
            c.enumValue(SPINDRIFT_FIELD(select), kParticleLightEveryKth + 1, "a light selection");
            c.count(SPINDRIFT_FIELD(every_k), 1, kMaxParticleLightStride);
            c.finite(SPINDRIFT_FIELD(intensity));
            c.within(SPINDRIFT_FIELD(intensity), 0.0f, kMaxParticleLightIntensity);
            c.finite(SPINDRIFT_FIELD(range_m));
            c.within(SPINDRIFT_FIELD(range_m), 0.0f, kMaxParticleLightRange_m);
            if (!(r.range_m > 0.0f)) c.fail(offsetof(T, range_m), "a range of 0, expected > 0");
            c.zero(SPINDRIFT_FIELD(pad0));
            c.zero(SPINDRIFT_FIELD(pad1));
            c.zero(SPINDRIFT_FIELD(pad2));
        }
    }

    // None, or one per emitter; each within the effect format's ranges; a threshold link needs
    // its emitter's threshold (validateEventBlocks in src/authoring/effect_validate.cpp).
    void checkEmitterEvents(const CompiledEffect& fx) {
        if (!error.empty()) return;
        const size_t n = fx.emitter_events.size();
        if (n != 0 && n != fx.emitters.size()) {
            RecordCheck c = check(SfxSection::emitter_events, 0);
            c.fail(0, number(uint64_t{n}) + " records, expected 0 or one per emitter (" +
                          number(uint64_t{fx.emitters.size()}) + ")");
            return;
        }
        for (uint32_t i = 0; i < n && error.empty(); ++i) {
            using T = EmitterEventsRecord;
            const T& r = fx.emitter_events[i];
            RecordCheck c = check(SfxSection::emitter_events, i);
            c.flags(SPINDRIFT_FIELD(kinds), (1u << kEventCount) - 1u);
            c.count(SPINDRIFT_FIELD(max_per_step), 1, kMaxGameplayEventsPerStep);
            c.enumValue(SPINDRIFT_FIELD(threshold_quantity), kThresholdQuantityCount,
                        "a threshold quantity");
            c.enumValue(SPINDRIFT_FIELD(threshold_direction), kThresholdDirectionCount,
                        "a threshold direction");
            c.finite(SPINDRIFT_FIELD(threshold_value));
            if (r.threshold_quantity == kThresholdSpeed)
                c.atLeast(SPINDRIFT_FIELD(threshold_value), 0.0f);
            if (r.threshold_quantity == kThresholdAgeFraction)
                c.within(SPINDRIFT_FIELD(threshold_value), 0.0f, 1.0f);
            if (r.threshold_quantity == kThresholdNone && (r.kinds & (1u << kEventThreshold)) != 0)
                c.fail(offsetof(T, kinds), "threshold events without a threshold quantity");
            c.zero(SPINDRIFT_FIELD(pad0));
            c.zero(SPINDRIFT_FIELD(pad1));
            c.zero(SPINDRIFT_FIELD(pad2));
        }
        // A sub-emitter link on threshold needs its emitter's threshold.
        for (uint32_t e = 0; e < fx.emitters.size() && error.empty(); ++e) {
            const EmitterRecord& r = fx.emitters[e];
            for (uint32_t k = 0; k < r.sub_emitter_count; ++k) {
                const uint32_t link = r.sub_emitter_first + k;
                if (fx.sub_emitters[link].event != kEventThreshold) continue;
                if (emitterEvents(fx, e).threshold_quantity != kThresholdNone) continue;
                RecordCheck c = check(SfxSection::sub_emitters, link);
                c.fail(offsetof(SubEmitterRecord, event),
                       "a threshold link on an emitter without a threshold");
                break;
            }
        }
    }

    void checkCapacities(const CompiledEffect& fx) {
        uint64_t sum = 0;
        for (const EmitterRecord& e : fx.emitters) sum += e.capacity;
        if (sum > fx.effect.capacity) {
            RecordCheck c = check(SfxSection::effect, 0);
            c.fail(offsetof(EffectRecord, capacity),
                   "capacity " + number(uint64_t{fx.effect.capacity}) +
                       " is less than the sum of emitter capacities " + number(sum));
        }
    }

    // Sub-emitter links must not form a cycle (a cycle would spawn without end). Peels emitters
    // whose children are all peeled; whatever remains lies on a cycle.
    void checkSubEmitterGraph(const CompiledEffect& fx) {
        const size_t n = fx.emitters.size();
        std::vector<bool> peeled(n, false);
        for (size_t round = 0; round < n; ++round) {
            bool progress = false;
            for (size_t i = 0; i < n; ++i) {
                if (peeled[i]) continue;
                const EmitterRecord& e = fx.emitters[i];
                bool leaf = true;
                for (uint32_t k = 0; k < e.sub_emitter_count; ++k) {
                    if (!peeled[fx.sub_emitters[e.sub_emitter_first + k].emitter]) leaf = false;
                }
                if (leaf) peeled[i] = progress = true;
            }
            if (!progress) break;
        }
        for (size_t i = 0; i < n; ++i) {
            if (peeled[i]) continue;
            RecordCheck c = check(SfxSection::emitters, static_cast<uint32_t>(i));
            c.fail(offsetof(EmitterRecord, sub_emitter_first),
                   "sub-emitter links form a cycle through this emitter");
            return;
        }
    }

    static std::string hex(uint32_t v) {
        char text[16];
        std::snprintf(text, sizeof(text), "%08x", v);
        return text;
    }
    static std::string hex64(uint64_t v) {
        char text[24];
        std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(v));
        return text;
    }

    std::span<const uint8_t> bytes_;
    SfxHeader header_{};
    SfxSectionEntry entries_[kSfxSectionCount]{};
};

#undef SPINDRIFT_FIELD

} // namespace

bool loadCookedEffect(std::span<const uint8_t> bytes, std::string_view file, CompiledEffect& out,
                      std::vector<Diagnostic>& diagnostics) {
    out = CompiledEffect{};
    Loader loader(bytes);
    CompiledEffect result;
    if (!loader.load(result)) {
        Diagnostic d;
        d.file = std::string(file);
        d.byte_offset = loader.error_offset;
        d.message = loader.error;
        diagnostics.push_back(std::move(d));
        return false;
    }
    out = std::move(result);
    return true;
}

} // namespace spindrift
