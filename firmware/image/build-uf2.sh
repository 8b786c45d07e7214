#!/bin/sh
# Build bgboard-pico.uf2: MicroPython's RPI_PICO port with firmware/ frozen in.
#
#   firmware/image/build-uf2.sh [MICROPYTHON_DIR [OUT_DIR]]
#
# Both default to the user's own cache (frozen.py's one definition: BGBOARD_PICO_CACHE,
# else $XDG_CACHE_HOME/bgboard/pico, else ~/.cache/bgboard/pico), so no root is needed:
# MICROPYTHON_DIR to its micropython/, OUT_DIR to the cache itself. MICROPYTHON_DIR is a
# MicroPython checkout with lib/pico-sdk, lib/tinyusb, lib/micropython-lib and lib/mbedtls
# present (v1.28.0 with its pinned submodules: firmware/README.md gives the commands).
# OUT_DIR receives bgboard-pico.uf2, bgboard-pico.uf2.sources (the digest of the frozen
# firmware, which tests/pico_emulator.py compares with the firmware it is asked to test)
# and the build tree; nothing is written inside this repository. A second build is
# incremental (about a minute). Needs gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake,
# make and python3. JOBS (default 2) sets make -j. picotool is not needed: the .uf2 is made
# from the .bin by MicroPython's uf2conv.py.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=$(python3 "$HERE/frozen.py" dir)
MPY_ARG=${1:-$CACHE/micropython}
OUT_ARG=${2:-$CACHE}
if [ $# -gt 2 ] || [ ! -f "$MPY_ARG/ports/rp2/Makefile" ]; then
    echo "usage: $0 [MICROPYTHON_DIR [OUT_DIR]]  (no MicroPython tree at $MPY_ARG: firmware/README.md says how to get one)" >&2
    exit 2
fi
# physical paths: the build tree remembers them, and a symlink must not look like another tree
MPY=$(cd "$MPY_ARG" && pwd -P)
OUT=$(mkdir -p "$OUT_ARG" && cd "$OUT_ARG" && pwd -P)
JOBS=${JOBS:-2}
for sub in pico-sdk tinyusb mbedtls micropython-lib; do  # the last: its build refuses a frozen manifest without it
    [ -f "$MPY/lib/$sub/LICENSE" ] || [ -f "$MPY/lib/$sub/LICENSE.TXT" ] || { echo "$MPY/lib/$sub is missing (a submodule of MicroPython)" >&2; exit 2; }
done
# what is frozen, taken before the build: a file changed meanwhile leaves the image stale
DIGEST=$(python3 "$HERE/frozen.py" digest)
make -s -C "$MPY/mpy-cross" -j"$JOBS"
# the port's Makefile configures a build tree only once: point an existing one at this manifest
if [ -f "$OUT/build-RPI_PICO/CMakeCache.txt" ]; then
    cmake -S "$MPY/ports/rp2" -B "$OUT/build-RPI_PICO" -DMICROPY_FROZEN_MANIFEST="$HERE/manifest.py" >/dev/null
fi
# CMAKE_ARGS through the environment: the port's Makefile appends its own to it
CMAKE_ARGS="-DPICO_NO_PICOTOOL=1" make -s -C "$MPY/ports/rp2" BOARD=RPI_PICO \
    BUILD="$OUT/build-RPI_PICO" FROZEN_MANIFEST="$HERE/manifest.py" -j"$JOBS"
rm -f "$OUT/bgboard-pico.uf2.sources"     # an image half written is no image of these sources
python3 "$MPY/tools/uf2conv.py" --base 0x10000000 --family 0xe48bff56 --convert \
    --output "$OUT/bgboard-pico.uf2" "$OUT/build-RPI_PICO/firmware.bin"
python3 "$HERE/frozen.py" stamp "$OUT/bgboard-pico.uf2" "$DIGEST"
echo "$OUT/bgboard-pico.uf2"
