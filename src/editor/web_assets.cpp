#include "editor/web_assets.h"

namespace spindrift::editor {

const WebAsset* findWebAsset(std::string_view path) {
    for (const WebAsset& asset : webAssets()) {
        if (path == asset.path) return &asset;
    }
    return nullptr;
}

} // namespace spindrift::editor
