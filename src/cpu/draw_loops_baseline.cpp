// The draw-record loops compiled for the build's baseline instruction set.
#define SPINDRIFT_DRAW_ISA baseline
#include "cpu/draw_loops.inl"
