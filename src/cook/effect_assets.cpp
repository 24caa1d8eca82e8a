#include "cook/effect_assets.h"

#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "image/png_io.h"
#include "mesh/obj_reader.h"

namespace spindrift {

namespace fs = std::filesystem;

const char* effectAssetKey(EffectAssetKind kind) {
    return kind == EffectAssetKind::texture ? "texture" : "mesh";
}

std::vector<EffectAsset> effectAssets(const CompiledEffect& effect,
                                      const std::string& effect_file) {
    const fs::path folder = fs::path(effect_file).parent_path();
    std::vector<EffectAsset> assets;
    auto add = [&](EffectAssetKind kind, uint32_t e, uint32_t offset, uint32_t length) {
        if (length == 0) return;
        EffectAsset asset;
        asset.kind = kind;
        asset.emitter_index = e;
        asset.authored = std::string(stringAt(effect, offset, length));
        asset.path = (folder / asset.authored).string();
        assets.push_back(std::move(asset));
    };
    for (uint32_t e = 0; e < effect.emitters.size(); ++e) {
        const EmitterRecord& r = effect.emitters[e];
        add(EffectAssetKind::texture, e, r.texture_offset, r.texture_length);
        add(EffectAssetKind::mesh, e, r.mesh_offset, r.mesh_length);
    }
    return assets;
}

Diagnostic effectAssetError(const CompiledEffect& effect, const std::string& effect_file,
                            const EffectAsset& asset,
                            const std::vector<Diagnostic>& reader_diagnostics) {
    const EmitterRecord& e = effect.emitters[asset.emitter_index];
    std::string why = "unreadable";
    if (!reader_diagnostics.empty()) {
        const Diagnostic& d = reader_diagnostics[0];
        why = (d.line != 0 ? "line " + std::to_string(d.line) + ": " : std::string()) + d.message;
    }
    const std::string key = effectAssetKey(asset.kind);
    return {Severity::error,
            effect_file,
            0,
            0,
            0,
            "$.emitters[" + std::to_string(e.source_index) + "].render." + key,
            "emitter '" + std::string(stringAt(effect, e.name_offset, e.name_length)) +
                "': cannot load " + key + " '" + asset.authored + "' (looked for '" + asset.path +
                "', relative to the effect file): " + why};
}

bool checkEffectAssets(const CompiledEffect& effect, const std::string& effect_file,
                       std::vector<Diagnostic>& diagnostics) {
    // A file several emitters name is read once; each emitter naming a bad one gets its error.
    std::map<std::pair<EffectAssetKind, std::string>, std::vector<Diagnostic>> failures;
    std::set<std::pair<EffectAssetKind, std::string>> loaded;
    bool ok = true;
    for (const EffectAsset& asset : effectAssets(effect, effect_file)) {
        const auto key = std::make_pair(asset.kind, asset.path);
        if (loaded.count(key) != 0) continue;
        auto failure = failures.find(key);
        if (failure == failures.end()) {
            std::vector<Diagnostic> reader_diagnostics;
            bool read = false;
            if (asset.kind == EffectAssetKind::texture) {
                Image image;
                read = readPng(asset.path, image, reader_diagnostics);
            } else {
                MeshData mesh;
                read = readObj(asset.path, mesh, reader_diagnostics);
            }
            if (read) {
                loaded.insert(key);
                continue;
            }
            failure = failures.emplace(key, std::move(reader_diagnostics)).first;
        }
        diagnostics.push_back(effectAssetError(effect, effect_file, asset, failure->second));
        ok = false;
    }
    return ok;
}

} // namespace spindrift
