// The OIT composite's full-screen triangle: vertex i (0..2) of one triangle covering the
// viewport, built from gl_VertexIndex (no vertex buffer).
#version 460

void main() {
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
