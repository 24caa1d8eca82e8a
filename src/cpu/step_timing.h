// Wall time of a CPU instance's fixed steps, stage by stage: what the editor's statistics show
// inside a step (docs/editor.md, "Statistics") and what World::takeStepTimes reports.
//
// Off by default. When off, a step reads no clock: each stage tests one bool (per step, and per
// chunk inside the update), so an untimed step costs what it did before. Timing reads clocks and
// nothing else; it never changes what a step computes (a test compares state hashes with it on
// and off). Not state: not hashed, not in snapshots, not carried by restart.
#pragma once

#include <cstdint>

#include "driver/stage_clock.h" // StageClock, timingNowNs

namespace spindrift::cpu {

// Nanoseconds summed since the host last took them (World::takeStepTimes zeroes them).
struct StepTiming {
    bool on = false;
    uint64_t steps = 0;           // steps timed
    uint64_t step_ns = 0;         // whole steps: every stage below plus the rest (gameplay capture)
    uint64_t plan_ns = 0;         // the driver's birth plan and the step's resolved uniforms
    uint64_t update_ns = 0;       // velocity ops, integration, death test, trail points
    uint64_t collision_ns = 0;    // collision ops
    uint64_t deaths_ns = 0;       // sub-emitter events collected, dead particles removed
    uint64_t births_ns = 0;       // planned births and sub-emitter births
    uint64_t draw_records_ns = 0; // draw records written (per frame drawn, outside the steps)
};

} // namespace spindrift::cpu
