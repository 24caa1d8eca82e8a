#include "vulkan/keep_libraries.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>

namespace spindrift::vk {

namespace {

int appendLibrary(dl_phdr_info* info, size_t, void* out) {
    // The main program has an empty name; everything else is a shared library.
    if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
        static_cast<std::vector<std::string>*>(out)->emplace_back(info->dlpi_name);
    }
    return 0;
}

} // namespace

std::vector<std::string> loadedLibraries() {
    std::vector<std::string> names;
    dl_iterate_phdr(appendLibrary, &names);
    return names;
}

void keepLibrariesLoadedSince(const std::vector<std::string>& before) {
    for (const std::string& name : loadedLibraries()) {
        if (std::find(before.begin(), before.end(), name) != before.end()) continue;
        // RTLD_NOLOAD: only an already-loaded library; RTLD_NODELETE: never unmapped. The
        // reference this takes is deliberately never released.
        dlopen(name.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    }
}

} // namespace spindrift::vk
