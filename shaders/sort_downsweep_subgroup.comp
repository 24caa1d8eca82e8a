// The downsweep with subgroup-ballot ranking and subgroup scans (devices with subgroup ballot,
// shuffle and arithmetic).
#version 460
#define SORT_SUBGROUP_RANKING 1
#define SORT_SUBGROUP_SCAN 1
#include "sort_downsweep.glsl"
