# Writes OUTPUT_CPP / OUTPUT_H embedding SPIRV_FILES (compiled from SHADER_NAMES, same order) as
# arrays of 32-bit words: `spindrift::shaders::kOpaqueVert` for opaque.vert, and so on.
# Run by shaders/CMakeLists.txt with cmake -P; the outputs are never edited by hand.
cmake_minimum_required(VERSION 3.25)

list(JOIN SHADER_NAMES ", shaders/" source_list)
set(first_line "// Generated from shaders/${source_list} by shaders/embed_spirv.cmake; do not edit.")

set(header "${first_line}\n#pragma once\n\n#include <cstddef>\n#include <cstdint>\n\n")
string(APPEND header "namespace spindrift::shaders {\n\n")
string(APPEND header "struct SpirvCode {\n    const uint32_t* words;\n    size_t word_count;\n")
string(APPEND header "    const char* source; // the shader's file name under shaders/\n};\n\n")

set(body "${first_line}\n#include \"embedded_shaders.h\"\n\nnamespace spindrift::shaders {\n")

list(LENGTH SHADER_NAMES count)
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
    list(GET SHADER_NAMES ${i} name)
    list(GET SPIRV_FILES ${i} spv)
    # opaque.vert -> kOpaqueVert, kernel_check.comp -> kKernelCheckComp.
    string(REGEX REPLACE "[._]" ";" parts "${name}")
    set(symbol "k")
    foreach(part ${parts})
        string(SUBSTRING "${part}" 0 1 head)
        string(SUBSTRING "${part}" 1 -1 tail)
        string(TOUPPER "${head}" head)
        string(APPEND symbol "${head}${tail}")
    endforeach()

    file(READ "${spv}" hex HEX)
    string(LENGTH "${hex}" hex_length)
    math(EXPR remainder "${hex_length} % 8")
    if(hex_length EQUAL 0 OR NOT remainder EQUAL 0)
        message(FATAL_ERROR "${spv}: not a whole number of 32-bit words")
    endif()
    # SPIR-V words are little-endian: bytes b0 b1 b2 b3 make the word 0xb3b2b1b0.
    string(REGEX REPLACE "([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])"
                         "0x\\4\\3\\2\\1u, " words "${hex}")
    # Eight words a line (CMake regular expressions have no {n} repeat).
    set(word "0x[0-9a-f]+u, ")
    string(REGEX REPLACE "(${word}${word}${word}${word}${word}${word}${word}${word})" "\\1\n    "
                         words "${words}")
    string(REPLACE ", \n" ",\n" words "${words}")
    string(STRIP "${words}" words)

    string(APPEND header "extern const SpirvCode ${symbol};\n")
    string(APPEND body "\nnamespace {\nconst uint32_t ${symbol}Words[] = {\n    ${words}\n};\n}\n")
    string(APPEND body "const SpirvCode ${symbol} = {${symbol}Words, sizeof(${symbol}Words) / 4, \"${name}\"};\n")
endforeach()

string(APPEND header "\n} // namespace spindrift::shaders\n")
string(APPEND body "\n} // namespace spindrift::shaders\n")

# Write only on change so dependants are not rebuilt for nothing.
foreach(pair "OUTPUT_H;header" "OUTPUT_CPP;body")
    list(GET pair 0 path_var)
    list(GET pair 1 text_var)
    set(old "")
    if(EXISTS "${${path_var}}")
        file(READ "${${path_var}}" old)
    endif()
    if(NOT old STREQUAL "${${text_var}}")
        file(WRITE "${${path_var}}" "${${text_var}}")
    endif()
endforeach()
