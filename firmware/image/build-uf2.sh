#!/bin/sh
# Build bgboard-pico.uf2: MicroPython's RPI_PICO port with firmware/ frozen in.
#
#   firmware/image/build-uf2.sh MICROPYTHON_DIR [OUT_DIR]
#
# MICROPYTHON_DIR is a MicroPython checkout with lib/pico-sdk, lib/tinyusb, lib/micropython-lib and
# lib/mbedtls present (v1.28.0 with its pinned submodules is what this was built and
# tested with). OUT_DIR (default /var/cache/bgboard) receives bgboard-pico.uf2 and
# the build tree; nothing is written inside this repository. Needs gcc-arm-none-eabi,
# libnewlib-arm-none-eabi, cmake, make and python3. JOBS (default 2) sets make -j.
# picotool is not needed: the .uf2 is made from the .bin by MicroPython's uf2conv.py.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/ports/rp2/Makefile" ]; then
    echo "usage: $0 MICROPYTHON_DIR [OUT_DIR]  (MICROPYTHON_DIR: a MicroPython checkout with its rp2 submodules)" >&2
    exit 2
fi
MPY=$(cd "$1" && pwd)
OUT=$(mkdir -p "${2:-/var/cache/bgboard}" && cd "${2:-/var/cache/bgboard}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
JOBS=${JOBS:-2}
for sub in pico-sdk tinyusb mbedtls micropython-lib; do  # the last: its build refuses a frozen manifest without it
    [ -f "$MPY/lib/$sub/LICENSE" ] || [ -f "$MPY/lib/$sub/LICENSE.TXT" ] || { echo "$MPY/lib/$sub is missing (a submodule of MicroPython)" >&2; exit 2; }
done
make -s -C "$MPY/mpy-cross" -j"$JOBS"
# the port's Makefile configures a build tree only once: point an existing one at this manifest
if [ -f "$OUT/build-RPI_PICO/CMakeCache.txt" ]; then
    cmake -S "$MPY/ports/rp2" -B "$OUT/build-RPI_PICO" -DMICROPY_FROZEN_MANIFEST="$HERE/manifest.py" >/dev/null
fi
# CMAKE_ARGS through the environment: the port's Makefile appends its own to it
CMAKE_ARGS="-DPICO_NO_PICOTOOL=1" make -s -C "$MPY/ports/rp2" BOARD=RPI_PICO \
    BUILD="$OUT/build-RPI_PICO" FROZEN_MANIFEST="$HERE/manifest.py" -j"$JOBS"
python3 "$MPY/tools/uf2conv.py" --base 0x10000000 --family 0xe48bff56 --convert \
    --output "$OUT/bgboard-pico.uf2" "$OUT/build-RPI_PICO/firmware.bin"
echo "$OUT/bgboard-pico.uf2"
