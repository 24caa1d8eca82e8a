#include "vulkan/keep_libraries.h"

#if defined(__SANITIZE_ADDRESS__)
#define SPINDRIFT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPINDRIFT_ASAN 1
#endif
#endif

#ifdef SPINDRIFT_ASAN
#include <dlfcn.h>
#include <link.h>

#include <cstring>
#endif

namespace spindrift::vk {

#ifdef SPINDRIFT_ASAN
namespace {

// Drivers are libvulkan_<name>.so, layers libVkLayer_<name>.so (the loader itself,
// libvulkan.so.1, is linked and stays anyway).
bool isVulkanModule(const char* path) {
    const char* slash = std::strrchr(path, '/');
    const char* name = slash != nullptr ? slash + 1 : path;
    return std::strncmp(name, "libvulkan_", 10) == 0 || std::strncmp(name, "libVkLayer_", 11) == 0;
}

int pinModule(dl_phdr_info* info, size_t, void*) {
    if (info->dlpi_name != nullptr && isVulkanModule(info->dlpi_name)) {
        // RTLD_NOLOAD: only an already-loaded library; RTLD_NODELETE: never unmapped. The
        // reference this takes is deliberately never released.
        dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    }
    return 0;
}

} // namespace

void keepVulkanLibrariesLoadedForLeakChecks() {
    dl_iterate_phdr(pinModule, nullptr);
}
#else
void keepVulkanLibrariesLoadedForLeakChecks() {}
#endif

} // namespace spindrift::vk
