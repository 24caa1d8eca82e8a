// The draw-record loops compiled for AVX2 (8 floats per vector); chosen at run time when the CPU
// has it. Built only on x86-64 (src/cpu/CMakeLists.txt).
#define SPINDRIFT_DRAW_ISA avx2
#include "cpu/draw_loops.inl"
