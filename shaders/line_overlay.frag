// The line overlay's colour: written as it is (no blending), after the post, so the frame's
// readback encodes it to exactly the segment's display colour.
#version 460

layout(location = 0) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void main() {
    out_color = in_color;
}
