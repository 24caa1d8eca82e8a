// The frame the world tests step by: 1/60 s (World::update(kFrame)).
#pragma once

namespace spindrift::test {

inline constexpr double kFrame = 1.0 / 60.0;

} // namespace spindrift::test
