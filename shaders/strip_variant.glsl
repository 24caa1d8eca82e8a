// The strip pipeline variant (specialisation constants, ids from src/render/shader/strip_draw.h), and the
// batch's parameters with the specialised values in place, so the compiler folds every branch on
// them.
#ifndef SPINDRIFT_SHADERS_STRIP_VARIANT_GLSL
#define SPINDRIFT_SHADERS_STRIP_VARIANT_GLSL

#include "strip_draw.h"

layout(constant_id = kSpecStripBlend) const uint kVariantBlend = 0u;
layout(constant_id = kSpecStripTextured) const uint kVariantTextured = 0u;
layout(constant_id = kSpecStripLit) const uint kVariantLit = 0u;
layout(constant_id = kSpecStripSoftFade) const uint kVariantSoftFade = 0u;
layout(constant_id = kSpecStripOit) const uint kVariantOit = 0u;
layout(constant_id = kSpecStripBlocks) const uint kVariantBlocks = 0u;
layout(constant_id = kSpecStripMotion) const uint kVariantMotion = 0u;
layout(constant_id = kSpecStripCaster) const uint kVariantCaster = 0u;

layout(push_constant, std430) uniform StripPush {
    StripPushConstants push;
};

StripParams variantParams() {
    StripParams p = push.params;
    p.blend = kVariantBlend;
    return p;
}

#endif
