// Vulkan results as error values (STYLE: every Vulkan call that can fail is checked and turned
// into a diagnostic naming the call; none is only asserted).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <vulkan/vulkan.h>

#include "spindrift/diagnostic.h"

namespace spindrift::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", or "VkResult(<number>)" for a value this build does not know.
std::string resultName(VkResult result);

// An error whose path is the call ("vkCreateDevice") and whose message names the result and,
// when given, what was being done ("the colour target, 1280x720").
Diagnostic vulkanError(std::string_view call, VkResult result, std::string_view what = {});

// An error about the Vulkan setup that no single call returned (no device, missing feature).
Diagnostic vulkanSetupError(std::string_view where, std::string message);

// True when result is VK_SUCCESS; otherwise appends vulkanError(call, result, what).
bool check(VkResult result, std::string_view call, std::vector<Diagnostic>& diagnostics,
           std::string_view what = {});

} // namespace spindrift::vk
