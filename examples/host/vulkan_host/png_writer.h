// A small PNG writer for the example (8-bit RGBA, stored deflate blocks: no compression library),
// writing to a temporary file renamed into place, so a reader never sees half an image.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// rgba: width x height pixels, rows top to bottom. False with the reason in error.
bool writePngAtomically(const std::string& path, const std::vector<uint8_t>& rgba, uint32_t width,
                        uint32_t height, std::string& error);
