// Under AddressSanitizer only: keeps the Vulkan driver and layer libraries the loader opened
// mapped until the process exits. The loader unloads them when the instance is destroyed, and
// LeakSanitizer, which runs at exit, then cannot name the frames of allocations they made (and
// never freed); with them mapped it can, and tests/lsan.supp suppresses leaks inside them by
// library name. Without AddressSanitizer this does nothing.
#pragma once

namespace spindrift::vk {

void keepVulkanLibrariesLoadedForLeakChecks();

} // namespace spindrift::vk
