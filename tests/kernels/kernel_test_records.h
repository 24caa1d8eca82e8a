// Records for kernel tests: an EmitterRecord with the identity transform and the authored
// defaults that matter to the kernels, which each test then changes.
#ifndef SPINDRIFT_TESTS_KERNELS_KERNEL_TEST_RECORDS_H
#define SPINDRIFT_TESTS_KERNELS_KERNEL_TEST_RECORDS_H

#include "kernels/effect_records.h"

namespace spindrift::test {

inline EmitterRecord makeTestEmitter() {
    EmitterRecord e{};
    e.transform_row0 = vec4(1, 0, 0, 0);
    e.transform_row1 = vec4(0, 1, 0, 0);
    e.transform_row2 = vec4(0, 0, 1, 0);
    e.capacity = 1024;
    e.shape_kind = kShapePoint;
    e.emit_from = kEmitFromVolume;
    e.shape_radius = 0.5f;
    e.shape_tube_radius = 0.1f;
    e.shape_length = 1.0f;
    e.shape_angle_rad = 25.0f * 3.14159265f / 180.0f;
    e.shape_size = vec4(1, 1, 1, 6.28318531f);
    e.lifetime_min_s = e.lifetime_max_s = 1.0f;
    e.size_min = e.size_max = 0.1f;
    e.speed_min = e.speed_max = 1.0f;
    e.mass_min = e.mass_max = 1.0f;
    e.color_a = e.color_b = vec4(1, 1, 1, 1);
    e.color_mode = kColorModeConstant;
    e.color_lut_row = kNone;
    e.flipbook_columns = e.flipbook_rows = e.flipbook_frames = 1;
    e.flipbook_cycles = 1.0f;
    return e;
}

} // namespace spindrift::test

#endif // SPINDRIFT_TESTS_KERNELS_KERNEL_TEST_RECORDS_H
