// The mesh pipeline variant (specialisation constants, ids from src/render/shader/mesh.h) and the
// batch's push constants.
#ifndef SPINDRIFT_SHADERS_MESH_VARIANT_GLSL
#define SPINDRIFT_SHADERS_MESH_VARIANT_GLSL

#include "mesh.h"

layout(constant_id = kSpecMeshBlend) const uint kVariantBlend = 0u;
layout(constant_id = kSpecMeshLit) const uint kVariantLit = 0u;
layout(constant_id = kSpecMeshOit) const uint kVariantOit = 0u;
layout(constant_id = kSpecMeshTextured) const uint kVariantTextured = 0u;
layout(constant_id = kSpecMeshMotion) const uint kVariantMotion = 0u;

layout(push_constant, std430) uniform MeshPush {
    MeshPushConstants push;
};

#endif
