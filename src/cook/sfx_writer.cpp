#include "cook/sfx_writer.h"

#include <bit>
#include <cstddef>
#include <cstring>

#include "cook/sfx_format.h"

namespace spindrift {
namespace {

static_assert(std::endian::native == std::endian::little,
              "records are copied as host bytes; a big-endian host needs byte swapping here");

struct SectionBytes {
    const void* data;
    uint32_t count;
};

SectionBytes sectionBytes(const CompiledEffect& e, SfxSection id) {
    auto of = [](const auto& v) { return SectionBytes{v.data(), static_cast<uint32_t>(v.size())}; };
    switch (id) {
    case SfxSection::effect:
        return {&e.effect, 1};
    case SfxSection::emitters:
        return of(e.emitters);
    case SfxSection::ops:
        return of(e.ops);
    case SfxSection::bursts:
        return of(e.bursts);
    case SfxSection::colliders:
        return of(e.colliders);
    case SfxSection::force_fields:
        return of(e.force_fields);
    case SfxSection::mesh_points:
        return of(e.mesh_points);
    case SfxSection::sub_emitters:
        return of(e.sub_emitters);
    case SfxSection::lut:
        return {e.lut.data(), e.lutRowCount()};
    case SfxSection::strings:
        return of(e.strings);
    case SfxSection::parameters:
        return of(e.parameters);
    case SfxSection::parameter_bindings:
        return of(e.parameter_bindings);
    case SfxSection::emitter_events:
        return of(e.emitter_events);
    case SfxSection::scalability:
        return of(e.scalability);
    case SfxSection::particle_lights:
        return of(e.particle_lights);
    }
    return {nullptr, 0};
}

} // namespace

std::vector<uint8_t> cookEffect(const CompiledEffect& effect) {
    SfxSectionEntry table[kSfxSectionCount]{};
    uint64_t offset = alignSfxOffset(sizeof(SfxHeader) + sizeof(table));
    for (uint32_t i = 0; i < kSfxSectionCount; ++i) {
        const SfxSectionInfo& info = sfxSectionInfo(i);
        const SectionBytes bytes = sectionBytes(effect, info.id);
        table[i].id = static_cast<uint32_t>(info.id);
        table[i].record_size = info.record_size;
        table[i].count = bytes.count;
        table[i].offset = offset;
        table[i].byte_size = uint64_t{info.record_size} * bytes.count;
        offset = alignSfxOffset(offset + table[i].byte_size);
    }

    std::vector<uint8_t> file(offset, 0);
    for (uint32_t i = 0; i < kSfxSectionCount; ++i) {
        const SectionBytes bytes = sectionBytes(effect, sfxSectionInfo(i).id);
        if (table[i].byte_size != 0) {
            std::memcpy(file.data() + table[i].offset, bytes.data, table[i].byte_size);
        }
    }
    std::memcpy(file.data() + sizeof(SfxHeader), table, sizeof(table));

    SfxHeader header{};
    std::memcpy(header.magic, kSfxMagic, sizeof(kSfxMagic));
    header.format_version = kSfxFormatVersion;
    header.endianness = kSfxEndiannessMarker;
    header.section_count = kSfxSectionCount;
    header.file_size = file.size();
    header.structural_hash = effect.structural_hash;
    std::memcpy(file.data(), &header, sizeof(header));
    // The checksum covers the header too, so it is computed last, over the header in place.
    header.checksum = sfxChecksum(file);
    std::memcpy(file.data() + offsetof(SfxHeader, checksum), &header.checksum,
                sizeof(header.checksum));
    return file;
}

} // namespace spindrift
