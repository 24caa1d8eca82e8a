// Keeps the shared libraries vkCreateInstance loaded (the Vulkan driver, its dependencies, the
// layers) mapped until the process exits. Two reasons:
// - The NVIDIA driver (580, on the H200) cannot be loaded again and again in one process: after
//   29 cycles of creating and destroying a vk::Context, vkCreateInstance fails with
//   VK_ERROR_INCOMPATIBLE_DRIVER (no ICD could be loaded), with or without validation
//   (measured 2026-12-03). The loader unloads the driver with the instance and loads it anew
//   with the next; pinned, it is loaded once. A host that makes one effect per GPU instance, or
//   a test binary, makes many.
// - LeakSanitizer, which runs at exit, can then name the frames of allocations the driver and
//   layers made (and never freed); tests/lsan.supp suppresses leaks inside them by library name.
// Only what the instance brought in is pinned: libraries the host loaded itself stay its own.
#pragma once

#include <string>
#include <vector>

namespace spindrift::vk {

// The paths of the shared libraries loaded now.
std::vector<std::string> loadedLibraries();

// Pins every library loaded now that is not in `before` (loadedLibraries() taken earlier).
void keepLibrariesLoadedSince(const std::vector<std::string>& before);

} // namespace spindrift::vk
