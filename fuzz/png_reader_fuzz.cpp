// libFuzzer target for the PNG reader. Any bytes must give either an RGBA8 image within the size
// limit or exactly one error, never a crash, a leak, an out-of-bounds read or a hang. An image
// that decodes must survive an encode and decode unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include "image/png_io.h"

namespace {

void check(bool condition) {
    if (!condition) std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<spindrift::Diagnostic> diagnostics;
    spindrift::Image image;
    if (!spindrift::decodePng(std::span<const uint8_t>(data, size), "fuzz.png", image,
                              diagnostics)) {
        check(diagnostics.size() == 1);
        check(diagnostics[0].severity == spindrift::Severity::error);
        check(diagnostics[0].file == "fuzz.png");
        check(!diagnostics[0].message.empty());
        check(image.width == 0 && image.height == 0 && image.rgba8.empty());
        return 0;
    }
    check(diagnostics.empty());
    check(image.width >= 1 && image.width <= spindrift::kMaxImageDimension);
    check(image.height >= 1 && image.height <= spindrift::kMaxImageDimension);
    check(image.rgba8.size() == size_t{image.width} * image.height * 4);
    std::vector<uint8_t> encoded;
    check(spindrift::encodePng(image, "fuzz.png", encoded, diagnostics));
    spindrift::Image again;
    check(spindrift::decodePng(encoded, "fuzz.png", again, diagnostics));
    check(again.width == image.width && again.height == image.height && again.rgba8 == image.rgba8);
    return 0;
}
