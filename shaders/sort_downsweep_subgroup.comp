// The downsweep with subgroup-ballot ranking (devices with subgroup ballot and shuffle).
#version 460
#define SORT_SUBGROUP_RANKING 1
#include "sort_downsweep.glsl"
