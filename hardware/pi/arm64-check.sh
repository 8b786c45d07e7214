#!/usr/bin/env bash
# bgboard on arm64, proven without a Pi: an arm64 Debian root built with debootstrap from
# Debian's packages, run under qemu-user (binfmt_misc), the project installed into it by
# hardware/pi/install.sh itself (--no-start: nothing that needs a booted Pi), then the
# smoke suite hardware/pi/arm64_smoke.py inside it. Run by .ci/run; usable by hand:
#
#   sudo hardware/pi/arm64-check.sh [--suite bookworm|trixie] [--cache DIR]
#
# The root (Debian's packages, install.sh's apt list) is cached as a tar under --cache
# (default /var/cache/bgboard), keyed by the suite and the package list, and pip's cache
# (the wheels built for arm64: rpi_ws281x, lgpio on Python 3.13) beside it, so a second run
# skips debootstrap and the C builds. Emulated times say nothing about a Pi's speed.
# Every failure fails the run; a network hiccup in debootstrap is retried once.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECKOUT=$(cd "$SCRIPT_DIR/../.." && pwd)
SUITE=bookworm
CACHE=/var/cache/bgboard
MIRROR=http://deb.debian.org/debian
BINFMT=/proc/sys/fs/binfmt_misc
T0=$SECONDS
STAGE_T=$SECONDS

stage() {
  printf 'arm64 %s: %s (%ds, %ds in all)\n' "$SUITE" "$*" $((SECONDS - STAGE_T)) $((SECONDS - T0))
  STAGE_T=$SECONDS
}
die() { printf 'arm64 %s: FAILED: %s\n' "$SUITE" "$1" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --suite) SUITE=${2:?--suite needs bookworm or trixie}; shift ;;
    --cache) CACHE=${2:?--cache needs a directory}; shift ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
case "$SUITE" in bookworm | trixie) ;; *) die "--suite is bookworm or trixie, not '$SUITE'" ;; esac
[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap and chroot need it)"

# The host's tools: Debian's debootstrap and qemu-user-static (binfmt-support registers it).
need=()
command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
# trixie's root is made by mmdebstrap (apt resolves its dependencies), see below
[ "$SUITE" = bookworm ] || command -v mmdebstrap >/dev/null 2>&1 || need+=(mmdebstrap)
command -v qemu-aarch64-static >/dev/null 2>&1 || need+=(qemu-user-static)
command -v update-binfmts >/dev/null 2>&1 || need+=(binfmt-support)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# binfmt_misc runs arm64 programs through qemu inside the chroot (every exec, pip's
# compilers and bgboard's subprocesses included). The F flag opens the interpreter at
# registration, so the root needs no copy of qemu.
if [ ! -e "$BINFMT/register" ]; then
  mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null ||
    die "binfmt_misc cannot be mounted here (modprobe binfmt_misc; a container needs it from the host)"
fi
[ -e "$BINFMT/qemu-aarch64" ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -qx enabled "$BINFMT/qemu-aarch64" 2>/dev/null ||
  die "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64)"
stage "host ready: debootstrap $(dpkg-query -W -f '${Version}' debootstrap)," \
  "qemu $(dpkg-query -W -f '${Version}' qemu-user-static)"

# install.sh's apt list is the root's package list: one definition, and the cache's key.
# shellcheck source=hardware/pi/install.sh disable=SC1091
PACKAGES=$(. "$SCRIPT_DIR/install.sh" && printf '%s\n' "${APT_PACKAGES[@]}" | sort | paste -sd, -)
KEY=$(printf '%s %s %s' "$SUITE" "$PACKAGES" "$MIRROR" | sha256sum | cut -c1-12)
TARBALL=$CACHE/arm64-$SUITE-$KEY.tar
PIP_CACHE=$CACHE/pip-arm64-$SUITE
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bgboard-arm64-XXXXXX")
ROOT=$WORK/root
mkdir -p "$CACHE" "$PIP_CACHE" "$ROOT"

cleanup() {
  local m
  for m in "$ROOT/root/.cache/pip" "$ROOT/dev" "$ROOT/proc" "$ROOT/sys"; do
    if mountpoint -q "$m" 2>/dev/null; then umount -R "$m" 2>/dev/null || umount -lR "$m" || true; fi
  done
  # only after every mount is gone: never delete through a bind mount
  if ! grep -q " $WORK/" /proc/mounts; then rm -rf "$WORK"; fi
}
trap cleanup EXIT

if [ -s "$TARBALL" ]; then
  tar -xf "$TARBALL" -C "$ROOT"
  stage "root from the cache ($TARBALL)"
else
  # keyrings: the host's debian-archive-keyring knows bookworm's and trixie's keys.
  # debootstrap resolves no alternative of a virtual package: in trixie dconf-service (gnubg's
  # GTK brings it) needs default-dbus-session-bus | dbus-session-bus, which it leaves out, and
  # the root fails "dependency problems prevent configuration of dconf-service". mmdebstrap
  # lets apt choose, as apt does on the Pi; bookworm's root stays debootstrap's (the cache's).
  try_debootstrap() {
    rm -rf "$ROOT" && mkdir -p "$ROOT"
    if [ "$SUITE" = bookworm ]; then
      debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" \
        "$SUITE" "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1
    else
      rmdir "$ROOT" && mmdebstrap --arch=arm64 --variant=minbase --include="$PACKAGES" \
        "$SUITE" "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1
    fi
  }
  if ! try_debootstrap; then
    tail -3 "$WORK/debootstrap.log" >&2
    stage "debootstrap failed once; trying again"
    try_debootstrap || { tail -20 "$WORK/debootstrap.log" >&2; die "debootstrap $SUITE arm64"; }
  fi
  chroot "$ROOT" apt-get clean
  rm -f "$CACHE"/arm64-"$SUITE"-*.tar   # an older package list's root
  tar -cf "$TARBALL.part" -C "$ROOT" . && mv "$TARBALL.part" "$TARBALL"
  stage "root built by $([ "$SUITE" = bookworm ] && echo debootstrap || echo mmdebstrap) and cached ($TARBALL, $(du -sh "$TARBALL" | cut -f1))"
fi
[ "$(chroot "$ROOT" uname -m)" = aarch64 ] || die "the root does not run as aarch64"

mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys" && mount --make-rslave "$ROOT/sys"
mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev"   # /dev/pts: the virtual board's pty
mkdir -p "$ROOT/root/.cache/pip"
mount --bind "$PIP_CACHE" "$ROOT/root/.cache/pip"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# This machine's certificate authorities (a proxy's own CA among them, where there is one):
# pip inside the root reaches PyPI through the same network as the host.
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"

# The checkout as a person would have it on the Pi (tracked files only: no .venv, no caches).
mkdir -p "$ROOT/home/pi/bgboard"
git -C "$CHECKOUT" ls-files -z --cached --others --exclude-standard |
  (cd "$CHECKOUT" && xargs -0 cp --parents -t "$ROOT/home/pi/bgboard" 2>/dev/null) ||
  die "copying the checkout into the root"
printf 'Raspberry Pi 4 Model B Rev 1.5\0' >"$ROOT/home/pi/model-pi4"
printf 'Raspberry Pi 5 Model B Rev 1.0\0' >"$ROOT/home/pi/model-pi5"
mkdir -p "$ROOT/home/pi/boot"
printf 'console=serial0,115200 console=tty1 root=PARTUUID=0 rootwait\n' >"$ROOT/home/pi/boot/cmdline.txt"
printf '[all]\n' >"$ROOT/home/pi/boot/config.txt"
stage "checkout copied into the root"

in_root() { chroot "$ROOT" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 PIP_CERT=/etc/ssl/certs/ca-certificates.crt SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=120 "$@"; }
install_once() {  # MODEL_FILE: install.sh as on that Pi, without starting anything
  in_root /home/pi/bgboard/hardware/pi/install.sh --no-start --model-file "$1" \
    --boot-dir /home/pi/boot --uart >"$WORK/install.log" 2>&1
}
# A download that the network broke off (PyPI or Debian's mirror resetting the connection
# until pip's own five retries ran out: seen once in CI) is tried once more after a pause:
# install.sh may run again over itself. Any other failure stops at once.
NETWORK_FAULT='Connection reset by peer|Max retries exceeded|Temporary failure in name resolution|Failed to fetch|Read timed out'
install_as() {
  if ! install_once "$1"; then
    grep -Eq "$NETWORK_FAULT" "$WORK/install.log" ||
      { tail -30 "$WORK/install.log" >&2; die "install.sh ($1)"; }
    echo "arm64 $SUITE: install.sh ($1) lost the network: $(grep -Eo "$NETWORK_FAULT" "$WORK/install.log" | head -1); once more in 30 s"
    sleep 30
    install_once "$1" || { tail -30 "$WORK/install.log" >&2; die "install.sh ($1), tried twice"; }
  fi
  grep -q '^# installed' "$WORK/install.log" || { cat "$WORK/install.log" >&2; die "install.sh said nothing of success"; }
}
install_as /home/pi/model-pi4
stage "install.sh as on a Pi 4 (extra pi): $(grep -c '^+ ' "$WORK/install.log") steps"
install_as /home/pi/model-pi5
stage "install.sh again as on a Pi 5 (extra pi5, into the same venv)"
in_root /opt/bgboard/venv/bin/python -m pip check >"$WORK/pipcheck.log" 2>&1 ||
  { cat "$WORK/pipcheck.log" >&2; die "pip check"; }
stage "pip check: $(cat "$WORK/pipcheck.log")"

in_root /opt/bgboard/venv/bin/python /opt/bgboard/src/hardware/pi/arm64_smoke.py ||
  die "the smoke suite (above: the first check that failed)"
stage "smoke suite passed; python $(in_root /opt/bgboard/venv/bin/python -c 'import platform; print(platform.python_version(), platform.machine())')"
