// The downsweep with shared-memory ranking: any Vulkan 1.3 device.
#version 460
#define SORT_SUBGROUP_RANKING 0
#include "sort_downsweep.glsl"
