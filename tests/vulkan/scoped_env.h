// Sets an environment variable for the life of a test and restores it after. Vulkan's loader
// reads VK_ICD_FILENAMES, VK_DRIVER_FILES and VK_LAYER_PATH each time an instance is created.
#ifndef SPINDRIFT_TESTS_VULKAN_SCOPED_ENV_H
#define SPINDRIFT_TESTS_VULKAN_SCOPED_ENV_H

#include <cstdlib>
#include <optional>
#include <string>

namespace spindrift::test {

class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_) {
            setenv(name_, old_->c_str(), 1);
        } else {
            unsetenv(name_);
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

} // namespace spindrift::test

#endif // SPINDRIFT_TESTS_VULKAN_SCOPED_ENV_H
