// Storing a newborn, shared by the planned births (gpu_spawn.comp) and the event births
// (gpu_event_spawn.comp); gpu_events.comp evaluates event newborns for their own birth events. The
// newborn itself is the kernel's (src/kernels/birth.h, sdNewborn, which the CPU's
// src/cpu/spawn.cpp calls too): these only fetch its inputs and store its columns. Include after
// gpu_sim.glsl with birth.h.

// The effect's mesh surface points (read by a mesh emitter's births only).
MeshPointsRef meshPoints() { return MeshPointsRef(loadTables().lut_mesh_points.zw); }

// The newborn of emitter `index` (record e) with spawn ordinal `ordinal`, placed at place.
Newborn newborn(EmitterRecord e, GpuStepEmitter step, uint index, uvec2 ordinal, BirthPlace place) {
    return sdNewborn(e, step.seed, index, ordinal.x, ordinal.y, place, lutAtlas(), meshPoints());
}

// Where an event's children are born (sdEventBirthPlace): the child's rows at the end of the step.
BirthPlace eventBirthPlace(GpuStepEmitter step, GpuEvent ev) {
    return sdEventBirthPlace(step.emitter_end0, step.emitter_end1, step.emitter_end2,
                             ev.position.xyz, ev.velocity.xyz);
}

// Every column of the newborn in slot, aged `age` seconds.
void storeNewborn(GpuEmitterPool pool, uint slot, Newborn n, float age, uvec2 ordinal) {
    floatColumn(pool, kGpuColumnPositionX).v[slot] = n.position.x;
    floatColumn(pool, kGpuColumnPositionY).v[slot] = n.position.y;
    floatColumn(pool, kGpuColumnPositionZ).v[slot] = n.position.z;
    floatColumn(pool, kGpuColumnVelocityX).v[slot] = n.velocity.x;
    floatColumn(pool, kGpuColumnVelocityY).v[slot] = n.velocity.y;
    floatColumn(pool, kGpuColumnVelocityZ).v[slot] = n.velocity.z;
    floatColumn(pool, kGpuColumnAge).v[slot] = age;
    floatColumn(pool, kGpuColumnLifetime).v[slot] = n.birth.lifetime_s;
    floatColumn(pool, kGpuColumnRotation).v[slot] = n.birth.rotation_rad;
    uintColumn(pool, kGpuColumnFlags).v[slot] = 0u;
    floatColumn(pool, kGpuColumnAngularVelocity).v[slot] = n.birth.angular_velocity_rad_per_s;
    floatColumn(pool, kGpuColumnSize).v[slot] = n.birth.size;
    floatColumn(pool, kGpuColumnMass).v[slot] = n.birth.mass;
    floatColumn(pool, kGpuColumnColorR).v[slot] = n.color.x;
    floatColumn(pool, kGpuColumnColorG).v[slot] = n.color.y;
    floatColumn(pool, kGpuColumnColorB).v[slot] = n.color.z;
    floatColumn(pool, kGpuColumnColorA).v[slot] = n.color.w;
    uintColumn(pool, kGpuColumnKey).v[slot] = n.key;
    uintColumn(pool, kGpuColumnOrdinalLo).v[slot] = ordinal.x;
    uintColumn(pool, kGpuColumnOrdinalHi).v[slot] = ordinal.y;
}
