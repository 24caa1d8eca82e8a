// Writing a newborn particle, shared by the planned births (gpu_spawn.comp) and the event births
// (gpu_event_spawn.comp, gpu_events.comp for a child's own birth events): src/cpu/spawn.cpp's
// writeBirth on the GPU. Include after gpu_sim.glsl with birth.h, lut.h, random.h and shape.h.

ShapeSample sampleShape(EmitterRecord e, uint key) {
    if (e.shape_kind != kShapeMesh) return sdSampleShape(e, key);
    uint index = sdMeshPointIndex(e, key);
    MeshPointRecord point = MeshPointsRef(loadTables().lut_mesh_points.zw).points[e.mesh_point_first + index];
    return sdMeshShapeSample(e, key, point.position, point.normal);
}

// A newborn's values in simulation space.
struct Newborn {
    vec3 position;
    vec3 velocity;
    vec4 color;
    Birth b;
};

// The birth colour: the init colour, or the gradient's LUT row at the drawn position.
vec4 birthColor(EmitterRecord e, Birth b) {
    if (e.color_mode == kColorModeGradient) return lutSample(e.color_lut_row, b.color_t);
    return b.color;
}

// An event birth (src/cpu/spawn.cpp, eventPlace): the child's shape centred on the event
// position, oriented by the child's sim_from_emitter at the end of the step (its translation
// ignored), the event's inherited velocity added, age 0.
Newborn eventNewborn(EmitterRecord e, GpuStepEmitter step, uint key, GpuEvent ev) {
    Newborn n;
    n.b = sdBirth(e, key, sampleShape(e, key));
    n.position = rowsVector(step.emitter_end0, step.emitter_end1, step.emitter_end2, n.b.position) +
                 ev.position.xyz;
    n.velocity = rowsVector(step.emitter_end0, step.emitter_end1, step.emitter_end2, n.b.velocity) +
                 ev.velocity.xyz;
    n.position += n.velocity * 0.0; // pre-aged by 0, in writeBirth's order
    n.color = birthColor(e, n.b);
    return n;
}

// Every column of the newborn in slot.
void storeNewborn(GpuEmitterPool pool, uint slot, Newborn n, float age, uint key, uvec2 ordinal) {
    floatColumn(pool, kGpuColumnPositionX).v[slot] = n.position.x;
    floatColumn(pool, kGpuColumnPositionY).v[slot] = n.position.y;
    floatColumn(pool, kGpuColumnPositionZ).v[slot] = n.position.z;
    floatColumn(pool, kGpuColumnVelocityX).v[slot] = n.velocity.x;
    floatColumn(pool, kGpuColumnVelocityY).v[slot] = n.velocity.y;
    floatColumn(pool, kGpuColumnVelocityZ).v[slot] = n.velocity.z;
    floatColumn(pool, kGpuColumnAge).v[slot] = age;
    floatColumn(pool, kGpuColumnLifetime).v[slot] = n.b.lifetime_s;
    floatColumn(pool, kGpuColumnRotation).v[slot] = n.b.rotation_rad;
    uintColumn(pool, kGpuColumnFlags).v[slot] = 0u;
    floatColumn(pool, kGpuColumnAngularVelocity).v[slot] = n.b.angular_velocity_rad_per_s;
    floatColumn(pool, kGpuColumnSize).v[slot] = n.b.size;
    floatColumn(pool, kGpuColumnMass).v[slot] = n.b.mass;
    floatColumn(pool, kGpuColumnColorR).v[slot] = n.color.x;
    floatColumn(pool, kGpuColumnColorG).v[slot] = n.color.y;
    floatColumn(pool, kGpuColumnColorB).v[slot] = n.color.z;
    floatColumn(pool, kGpuColumnColorA).v[slot] = n.color.w;
    uintColumn(pool, kGpuColumnKey).v[slot] = key;
    uintColumn(pool, kGpuColumnOrdinalLo).v[slot] = ordinal.x;
    uintColumn(pool, kGpuColumnOrdinalHi).v[slot] = ordinal.y;
}
