// The JSON spelling of the scene enums, in the table form of authoring/enum_names.h so the
// reader (readEnum), the validator's messages and the writer share one table.
#pragma once

#include "authoring/enum_names.h"
#include "spindrift/scene_desc.h"

namespace spindrift {

template <> std::span<const EnumName<PrimitiveKind>> enumNames();
template <> std::span<const EnumName<LightKind>> enumNames();
template <> std::span<const EnumName<Transparency>> enumNames();
template <> std::span<const EnumName<ParticleResolution>> enumNames();
template <> std::span<const EnumName<Tonemap>> enumNames();
template <> std::span<const EnumName<ExposureMode>> enumNames();

} // namespace spindrift
