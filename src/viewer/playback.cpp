#include "viewer/playback.h"

#include <algorithm>
#include <cmath>

namespace spindrift::viewer {

void advance(Playback& playback, double wall_dt_s, double duration_s) {
    if (!playback.playing || !(wall_dt_s > 0) || !std::isfinite(wall_dt_s)) return;
    playback.time_s += wall_dt_s * playback.time_scale;
    if (playback.time_s <= duration_s) return;
    if (playback.loop) {
        playback.time_s = 0;
    } else {
        playback.time_s = duration_s;
        playback.playing = false;
    }
}

void stepFrame(Playback& playback, double fps, double duration_s) {
    playback.playing = false;
    if (fps > 0) playback.time_s = std::min(playback.time_s + 1.0 / fps, duration_s);
}

void restart(Playback& playback) {
    playback.time_s = 0;
    playback.playing = true;
}

void seekTo(Playback& playback, double time_s, double duration_s) {
    if (!std::isfinite(time_s)) return;
    playback.time_s = std::clamp(time_s, 0.0, std::max(duration_s, 0.0));
}

void setTimeScale(Playback& playback, float time_scale) {
    if (!std::isfinite(time_scale)) return;
    playback.time_scale = std::clamp(time_scale, kMinTimeScale, kMaxTimeScale);
}

} // namespace spindrift::viewer
