// Moving points and vectors between emitter space and its parent with the 3x4 rows of an
// EmitterRecord (parent_from_emitter): p_parent[i] = dot(row_i.xyz, p) + row_i.w. The rotation
// part is orthonormal (the compiler builds it from Rz * Ry * Rx), so the inverse is its transpose.
#ifndef SPINDRIFT_KERNELS_TRANSFORM_H
#define SPINDRIFT_KERNELS_TRANSFORM_H

#include "effect_records.h"
#include "shared_types.h"

SD_BEGIN_NAMESPACE

// row.xyz . v summed x, y, z left to right: written out rather than dot() so the GPU (whose dot
// may sum in another order) and the CPU round the same way. This is the one rows-times-vector
// text of the project; every 3x4 transform, on either backend and in the driver, goes through it.
SD_FUNC float sdRowDot(vec4 row, vec3 v) {
    return row.x * v.x + row.y * v.y + row.z * v.z;
}

// The 3x4 rows applied to a direction or velocity (the linear part only).
SD_FUNC vec3 sdTransformVector(vec4 row0, vec4 row1, vec4 row2, vec3 v) {
    return vec3(sdRowDot(row0, v), sdRowDot(row1, v), sdRowDot(row2, v));
}

// The 3x4 rows applied to a point: the linear part, then the translation (row.w).
SD_FUNC vec3 sdTransformPoint(vec4 row0, vec4 row1, vec4 row2, vec3 p) {
    return sdTransformVector(row0, row1, row2, p) + vec3(row0.w, row1.w, row2.w);
}

// emitter_from_parent applied to a point: R^T (p - t).
SD_FUNC vec3 sdInverseTransformPoint(vec4 row0, vec4 row1, vec4 row2, vec3 p) {
    vec3 d = p - vec3(row0.w, row1.w, row2.w);
    return vec3(row0) * d.x + vec3(row1) * d.y + vec3(row2) * d.z;
}

// emitter_from_parent applied to a vector: R^T v.
SD_FUNC vec3 sdInverseTransformVector(vec4 row0, vec4 row1, vec4 row2, vec3 v) {
    return vec3(row0) * v.x + vec3(row1) * v.y + vec3(row2) * v.z;
}

// The emitter's rows, for the common case.
SD_FUNC vec3 sdEmitterPoint(EmitterRecord e, vec3 p) {
    return sdTransformPoint(e.transform_row0, e.transform_row1, e.transform_row2, p);
}
SD_FUNC vec3 sdEmitterVector(EmitterRecord e, vec3 v) {
    return sdTransformVector(e.transform_row0, e.transform_row1, e.transform_row2, v);
}

// The emitter's up axis in its parent (its local +Y): the rotation's second column. Buoyancy
// pushes along it.
SD_FUNC vec3 sdEmitterUp(EmitterRecord e) {
    return vec3(e.transform_row0.y, e.transform_row1.y, e.transform_row2.y);
}

SD_END_NAMESPACE

#endif // SPINDRIFT_KERNELS_TRANSFORM_H
