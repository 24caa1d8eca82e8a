// What `spindrift render` draws from a file, shared by the command-line tool and the C API
// (spindrift_render_file): which scene a file shows (a scene file, or an effect framed by
// defaultSceneForEffect), the default still time, and one frame of a scene player. Both call these
// functions, so a host that renders frame T of a file gets the tool's image of frame T, byte for
// byte (the same device, backend and resolution).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image/image.h"
#include "render/renderer.h"
#include "render/scene_player.h"
#include "spindrift/diagnostic.h"
#include "spindrift/scene_desc.h"

namespace spindrift::render {

// A JSON file is a scene when its top-level object has a "camera" or an "effects" key and no
// "emitters" key; anything else (a cooked .sfx, text that is not JSON) is read as an effect,
// whose loader then reports what is wrong with it.
bool looksLikeScene(const std::string& path);

// The scene a render of path shows: the scene file, or the effect file (JSON or cooked) in
// defaultSceneForEffect. scene_file gets the file the scene's effect paths are relative to (path
// for a scene, "" for an effect, whose scene names it by its absolute path). Returns false with
// the loader's diagnostics when the file does not load; on success a scene's warnings are
// appended (an effect's are not: they are `validate`'s business).
bool loadRenderScene(const std::string& path, SceneDesc& scene, std::string& scene_file,
                     std::vector<Diagnostic>& diagnostics);

// CPU threads per instance for a player of scene: the cores shared out among its instances
// rather than oversubscribed, 1..8 each (results do not depend on it).
uint32_t playerThreadsFor(const SceneDesc& scene);

// One frame: plays the player to scene time time_s (playFrame with the scene camera's eye) and
// draws it with the scene's view (frameView) into out; continues_previous: the frame follows the
// renderer's previous one in a sequence (FrameView::continues_previous: exposure adapts); raster:
// how its billboards are drawn (FrameView::raster; `spindrift render --raster`). Returns
// false with the errors when an instance fails to play (player.errors, moved into diagnostics) or
// the renderer fails. The player's assets must be uploaded to renderer (uploadAssets).
// With motion (not null) the frame also draws its motion vectors into it (FrameView::motion,
// docs/rendering.md "Motion vectors"): the previous camera is the scene camera at
// max(time_s - settings.interval_s, 0), particles move velocity x settings.interval_s (the
// sequence's frame interval, 1 / fps, in (0, kMaxMotionIntervalS]); the coverage threshold and
// additive_writes come from settings too (its enabled and camera fields are set here).
bool renderSceneFrame(Renderer& renderer, ScenePlayer& player, float time_s,
                      bool continues_previous, Image& out, FrameStats& stats,
                      std::vector<Diagnostic>& diagnostics,
                      RasterPath raster = RasterPath::graphics, MotionImage* motion = nullptr,
                      const MotionVectorsDesc& settings = {});

} // namespace spindrift::render
