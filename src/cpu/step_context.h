// What one fixed step of one emitter needs besides its particles: the step's uniforms
// (ResolvedOp, EmitterStep, StepScratch), resolved once per step into simulation space. Both
// backends share them, so they live in src/driver/step_uniforms.h; the CPU loops read them
// through this header.
#pragma once

#include "driver/step_uniforms.h"
