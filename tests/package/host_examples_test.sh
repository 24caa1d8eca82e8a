#!/usr/bin/env bash
# The installed package works for a host (issue 16): installs the build into a scratch prefix,
# checks the installed tree, moves the prefix (so that anything pointing at where it was installed
# breaks), then builds every host example of examples/host/ against it and runs it from the
# repository root:
#   - every examples/host/NAME/ with a CMakeLists.txt: configured with CMAKE_PREFIX_PATH, built,
#     and its executable NAME run; once more with -DSPINDRIFT_HOST_STATIC=ON when its
#     CMakeLists.txt offers that option (spindrift::spindrift_static);
#   - c_minimal also with pkg-config alone, against spindrift.pc and spindrift-static.pc;
#   - every examples/host/NAME/*.py with /usr/bin/python3, PYTHONPATH the installed package.
# A folder of examples/host/ with neither is an error: nothing is skipped silently, and each
# step says what it ran.
# Usage: host_examples_test.sh BUILD_DIR SOURCE_DIR WORK_DIR LIBDIR C_COMPILER CXX_COMPILER [LAUNCHER]
# (LIBDIR: the library folder under the prefix, CMAKE_INSTALL_LIBDIR.)
set -euo pipefail

build_dir=$1
source_dir=$2
work=$3
libdir=$4
c_compiler=$5
cxx_compiler=$6
launcher=${7:-}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
say() { printf '[package] %s\n' "$*"; }

rm -rf "$work"
mkdir -p "$work"
staged=$work/staged
prefix=$work/prefix

say "cmake --install $build_dir --prefix $staged"
cmake --install "$build_dir" --prefix "$staged" >"$work/install.log" ||
    { cat "$work/install.log"; fail "cmake --install"; }

# The installed tree: what docs/package.md promises.
for f in include/spindrift/spindrift.h include/spindrift/runtime.h include/spindrift/export.h \
    "$libdir/libspindrift.a" "$libdir/cmake/spindrift/spindriftConfig.cmake" \
    "$libdir/cmake/spindrift/spindriftConfigVersion.cmake" "$libdir/pkgconfig/spindrift.pc" \
    "$libdir/pkgconfig/spindrift-static.pc"; do
    [ -f "$staged/$f" ] || fail "not installed: $f"
done
for h in "$source_dir"/include/spindrift/*.h; do
    [ -f "$staged/include/spindrift/$(basename "$h")" ] || fail "public header not installed: $h"
done
soname=$(objdump -p "$staged/$libdir/libspindrift.so" | awk '$1 == "SONAME" { print $2 }')
[ -n "$soname" ] || fail "libspindrift.so has no SONAME"
[ -e "$staged/$libdir/$soname" ] || fail "no $soname beside libspindrift.so"
say "installed: headers, $libdir/libspindrift.so ($soname), $libdir/libspindrift.a, CMake package, pkg-config files"

# Relocatable: no path of this build in the package's files (the prefix lies inside the build
# folder, so an absolute prefix is caught too).
for dir in "$staged/$libdir/cmake" "$staged/$libdir/pkgconfig"; do
    if grep -rn -e "$build_dir" -e "$source_dir" "$dir"; then
        fail "absolute build or source path in $dir (above)"
    fi
done
say "no absolute build or source path in $libdir/cmake, $libdir/pkgconfig"

mv "$staged" "$prefix"
say "prefix moved to $prefix"

cd "$source_dir"
launcher_args=()
if [ -n "$launcher" ]; then
    launcher_args=(-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
fi

# run LABEL COMMAND...: runs an example from the repository root; its output is shown.
run() {
    local label=$1
    shift
    say "run $label: $*"
    "$@" || fail "$label exited with $?"
}

# build_cmake NAME VARIANT [CMAKE ARGS...]: configures, builds and runs examples/host/NAME.
build_cmake() {
    local name=$1 variant=$2
    shift 2
    local out=$work/build-$name-$variant
    say "cmake $name ($variant): configure, build"
    cmake -S "examples/host/$name" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$c_compiler" \
        -DCMAKE_CXX_COMPILER="$cxx_compiler" "${launcher_args[@]}" "$@" >"$out.log" 2>&1 ||
        { cat "$out.log"; fail "configure $name ($variant)"; }
    cmake --build "$out" >>"$out.log" 2>&1 || { cat "$out.log"; fail "build $name ($variant)"; }
    [ -x "$out/$name" ] || fail "examples/host/$name built no executable named $name"
    if [ "$variant" = static ] && readelf -d "$out/$name" | grep -q 'NEEDED.*libspindrift'; then
        fail "$name ($variant) still needs libspindrift.so"
    fi
    run "$name ($variant)" "$out/$name"
}

ran=0
for dir in examples/host/*/; do
    name=$(basename "$dir")
    found=0
    if [ -f "$dir/CMakeLists.txt" ]; then
        found=1
        build_cmake "$name" shared
        ran=$((ran + 1))
        if grep -q SPINDRIFT_HOST_STATIC "$dir/CMakeLists.txt"; then
            build_cmake "$name" static -DSPINDRIFT_HOST_STATIC=ON
            ran=$((ran + 1))
        else
            say "$name: no SPINDRIFT_HOST_STATIC option, built against the shared library only"
        fi
    fi
    for script in "$dir"*.py; do
        [ -f "$script" ] || continue
        found=1
        run "$script" env PYTHONPATH="$prefix/$libdir/python3/dist-packages" /usr/bin/python3 \
            "$script"
        ran=$((ran + 1))
    done
    [ "$found" = 1 ] || fail "examples/host/$name has neither a CMakeLists.txt nor a .py script"
done

# pkg-config alone, as a Makefile host would: the C example against both .pc files.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
c_flags=(-std=c99 -Wall -Wextra -Wpedantic -Werror)
for pc in spindrift spindrift-static; do
    exe=$work/c_minimal-pkg-config-$pc
    flags=$(pkg-config --cflags --libs "$pc") || fail "pkg-config $pc"
    say "cc examples/host/c_minimal/c_minimal.c $flags"
    # shellcheck disable=SC2086 # the flags are words
    $c_compiler "${c_flags[@]}" examples/host/c_minimal/c_minimal.c $flags -o "$exe" ||
        fail "c_minimal with pkg-config $pc"
    if [ "$pc" = spindrift ]; then
        run "c_minimal (pkg-config $pc)" env LD_LIBRARY_PATH="$prefix/$libdir" "$exe"
    else
        if readelf -d "$exe" | grep -q 'NEEDED.*libspindrift'; then
            fail "c_minimal linked with spindrift-static still needs libspindrift.so"
        fi
        run "c_minimal (pkg-config $pc)" "$exe"
    fi
    ran=$((ran + 1))
done

[ "$ran" -gt 0 ] || fail "no host example found in examples/host/"
say "$ran host example runs passed"
