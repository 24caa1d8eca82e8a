// The viewer's clock: scene time, play or pause, time scale, single steps, restart, scrubbing.
// Plain data and pure functions; the session turns the time into a frame (an exact seek: any
// time, forward or back, gives the frame `spindrift render --time` gives).
#pragma once

namespace spindrift::viewer {

struct Playback {
    double time_s = 0;
    bool playing = true;
    float time_scale = 1; // [kMinTimeScale, kMaxTimeScale]
    bool loop = true;     // past the scene's duration: back to 0
};

inline constexpr float kMinTimeScale = 0.0f;
inline constexpr float kMaxTimeScale = 8.0f;

// Moves a playing clock on by wall_dt_s x time_scale (a paused one stays). Past duration_s it
// loops to 0 (loop) or stops at duration_s and pauses.
void advance(Playback& playback, double wall_dt_s, double duration_s);
// One frame of the scene (1 / fps) forward, and pauses: single stepping.
void stepFrame(Playback& playback, double fps, double duration_s);
// Back to time 0, playing.
void restart(Playback& playback);
// Jumps to time_s, clamped to [0, duration_s]; playing or paused as before.
void seekTo(Playback& playback, double time_s, double duration_s);
// Sets the time scale, clamped to [kMinTimeScale, kMaxTimeScale].
void setTimeScale(Playback& playback, float time_scale);

} // namespace spindrift::viewer
