// The update loops for the baseline instruction set of the build (SSE2 on x86-64).
#define SPINDRIFT_UPDATE_ISA baseline
#include "cpu/update_loops.inl"
