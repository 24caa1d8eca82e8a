// The billboard pipeline variant (specialisation constants, ids from src/render/shader/billboard.h),
// and the batch's parameters with the specialised values in place, so the compiler folds every
// branch on them.
#ifndef SPINDRIFT_SHADERS_BILLBOARD_VARIANT_GLSL
#define SPINDRIFT_SHADERS_BILLBOARD_VARIANT_GLSL

#include "billboard.h"

layout(constant_id = kSpecBillboardBlend) const uint kVariantBlend = 0u;
layout(constant_id = kSpecBillboardAlignment) const uint kVariantAlignment = 0u;
layout(constant_id = kSpecBillboardTextured) const uint kVariantTextured = 0u;
layout(constant_id = kSpecBillboardLit) const uint kVariantLit = 0u;
layout(constant_id = kSpecBillboardSoftFade) const uint kVariantSoftFade = 0u;
layout(constant_id = kSpecBillboardFrameBlend) const uint kVariantFrameBlend = 0u;
layout(constant_id = kSpecBillboardOit) const uint kVariantOit = 0u;
layout(constant_id = kSpecBillboardDistortion) const uint kVariantDistortion = 0u;
layout(constant_id = kSpecBillboardMotion) const uint kVariantMotion = 0u;

layout(push_constant, std430) uniform BillboardPush {
    BillboardPushConstants push;
};

BillboardParams variantParams() {
    BillboardParams p = push.params;
    p.blend = kVariantBlend;
    p.alignment = kVariantAlignment;
    return p;
}

#endif
