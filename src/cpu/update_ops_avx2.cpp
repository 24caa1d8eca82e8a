// The update loops compiled for AVX2 (8 floats per vector); chosen at run time when the CPU has
// it. Built only on x86-64 (src/cpu/CMakeLists.txt).
#define SPINDRIFT_UPDATE_ISA avx2
#include "cpu/update_loops.inl"
