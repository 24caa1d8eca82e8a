// The files an effect names besides itself (emitters' textures and meshes): where each is looked
// for, and whether it decodes. One text for every host: `validate` checks them, the scene player
// loads them, `render` refuses to write over them, all with the same paths and the same words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/compiled_effect.h"
#include "spindrift/diagnostic.h"

namespace spindrift {

enum class EffectAssetKind : uint8_t { texture, mesh };

struct EffectAsset {
    EffectAssetKind kind = EffectAssetKind::texture;
    uint32_t emitter_index = 0; // compiled emitter
    std::string authored;       // the path as the effect wrote it
    std::string path;           // where it is looked for: relative to the effect file's folder
};

// "texture" or "mesh": the key under render.
const char* effectAssetKey(EffectAssetKind kind);

// Every texture and mesh the effect's emitters name, in emitter order (texture before mesh), one
// entry per emitter that names one (the same file named twice is listed twice).
std::vector<EffectAsset> effectAssets(const CompiledEffect& effect, const std::string& effect_file);

// The error for an asset that did not load: at $.emitters[i].render.<key>, naming the effect
// file, the emitter, the path as written and as looked for, and why (the first of the reader's
// diagnostics, with its line where it has one).
Diagnostic effectAssetError(const CompiledEffect& effect, const std::string& effect_file,
                            const EffectAsset& asset,
                            const std::vector<Diagnostic>& reader_diagnostics);

// Reads every asset once (a PNG texture decodes, an OBJ mesh parses); one effectAssetError for
// each that does not. Returns true when all load.
bool checkEffectAssets(const CompiledEffect& effect, const std::string& effect_file,
                       std::vector<Diagnostic>& diagnostics);

} // namespace spindrift
