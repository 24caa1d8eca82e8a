"""libspindrift.so exports the public API and nothing else (issue 16; docs/package.md).

Every dynamic symbol the library defines must be one of:
  - a C API function: exactly the functions spindrift.h declares SPINDRIFT_API, all of them;
  - a C++ symbol that demangles into namespace spindrift's public surface: a class the public
    headers declare `class SPINDRIFT_API Name` (its members, type information and virtual table)
    or a free function they declare SPINDRIFT_API; nothing nested in such a class that the headers
    leave undefined (Impl), nothing of another namespace (std:: instantiations, src/ internals
    such as spindrift::cpu::, spindrift::render::, spindrift::vk::);
  - the version node of package/exports.map.

Usage: exported_symbols_test.py LIBRARY INCLUDE_DIR
"""

import pathlib
import re
import subprocess
import sys

# What the demangler puts before a class name for its special symbols.
SPECIAL_PREFIXES = (
    "typeinfo name for ",
    "typeinfo for ",
    "vtable for ",
    "VTT for ",
    "construction vtable for ",
    "non-virtual thunk to ",
    "virtual thunk to ",
)
# Nested names the public headers declare but define only inside the library.
PRIVATE_NESTED = {"Impl"}


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def c_api_declarations(header):
    """The functions spindrift.h declares SPINDRIFT_API, and how many SPINDRIFT_API it has."""
    text = strip_comments(header.read_text())
    markers = len(re.findall(r"\bSPINDRIFT_API\b", text))
    names = re.findall(r"\bSPINDRIFT_API\b[^;(]*?\b(spindrift_\w+)\s*\(", text)
    return names, markers


def public_cxx_names(include_dir):
    """Classes and free functions the C++ headers mark SPINDRIFT_API."""
    classes, functions = set(), set()
    for header in sorted(include_dir.glob("*.h")):
        if header.name == "spindrift.h":
            continue
        text = strip_comments(header.read_text())
        classes.update(re.findall(r"\b(?:class|struct)\s+SPINDRIFT_API\s+(\w+)", text))
        for declaration in re.findall(r"\bSPINDRIFT_API\b([^;{]*?)\(", text):
            if not re.match(r"\s*(?:class|struct)\b", declaration):
                functions.add(re.findall(r"(\w+)\s*$", declaration)[0])
    return classes, functions


def split_qualified(name):
    """'spindrift::World::create(a::b) const' -> ['spindrift', 'World', 'create']."""
    parts, depth, current, i = [], 0, "", 0
    while i < len(name):
        c = name[i]
        if c in "<(":
            if c == "(" and depth == 0:
                break
            depth += 1
        elif c in ">)":
            depth -= 1
        if depth == 0 and name.startswith("::", i):
            parts.append(current)
            current, i = "", i + 2
            continue
        current += c
        i += 1
    parts.append(current)
    return parts


def main():
    library, include_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    nm = subprocess.run(["nm", "-D", "--defined-only", str(library)], check=True,
                        capture_output=True, text=True).stdout
    symbols = []
    for line in nm.splitlines():
        fields = line.split()
        if len(fields) >= 2:
            symbols.append((fields[-2], re.sub(r"@.*$", "", fields[-1])))
    mangled = [name for _, name in symbols if name.startswith("_Z")]
    demangled = subprocess.run(["c++filt"], input="\n".join(mangled), check=True,
                               capture_output=True, text=True).stdout.splitlines()
    demangle = dict(zip(mangled, demangled))

    c_names, c_markers = c_api_declarations(include_dir / "spindrift.h")
    classes, functions = public_cxx_names(include_dir)
    errors, exported_c, cxx_count = [], set(), 0
    for kind, name in symbols:
        if kind == "A" and re.fullmatch(r"SPINDRIFT_\d+", name):
            continue  # the version node
        if name.startswith("spindrift_"):
            exported_c.add(name)
            continue
        if not name.startswith("_Z"):
            errors.append(f"{name}: neither the C API nor C++")
            continue
        text = demangle[name]
        for prefix in SPECIAL_PREFIXES:
            if text.startswith(prefix):
                text = text[len(prefix):]
        parts = split_qualified(re.sub(r"\[abi:\w+\]", "", text))
        cxx_count += 1
        if parts[0] != "spindrift" or len(parts) < 2:
            errors.append(f"{demangle[name]}: outside namespace spindrift")
        elif parts[1] in classes:
            if any(p in PRIVATE_NESTED for p in parts[2:]):
                errors.append(f"{demangle[name]}: a class the public headers only declare")
        elif parts[1] not in functions or len(parts) != 2:
            errors.append(f"{demangle[name]}: not a public class or function of spindrift")

    if len(c_names) != c_markers:
        errors.append(f"spindrift.h: {c_markers} SPINDRIFT_API markers but {len(c_names)} "
                      "function declarations found after them")
    for missing in sorted(set(c_names) - exported_c):
        errors.append(f"{missing}: declared in spindrift.h, not exported")
    for extra in sorted(exported_c - set(c_names)):
        errors.append(f"{extra}: exported, not declared SPINDRIFT_API in spindrift.h")

    print(f"{library.name}: {len(exported_c)} C API functions (spindrift.h declares "
          f"{len(c_names)}), {cxx_count} C++ symbols of {len(classes)} public classes and "
          f"{len(functions)} public functions")
    for error in errors:
        print("FAIL:", error)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
