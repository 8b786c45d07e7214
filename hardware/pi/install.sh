#!/usr/bin/env bash
# Install bgboard on a Raspberry Pi so that it starts at boot (or remove it again).
#
# Raspberry Pi OS 64-bit, bookworm or trixie; Pi 3, 4, 5, 500 and Zero 2 W. Run from a
# checkout:
#
#   sudo hardware/pi/install.sh              install, or update after `git pull`
#   sudo hardware/pi/install.sh --uart       also make the Pi's UART on GPIO14/15 the
#                                            sensor board's link (instead of USB)
#   sudo hardware/pi/install.sh --no-start   install all but start nothing (an image being
#                                            built, a chroot: hardware/pi/arm64-check.sh)
#   sudo hardware/pi/install.sh --uninstall  remove what it added (settings and saved
#                                            matches stay; --purge removes them too)
#   hardware/pi/install.sh --dry-run --dest /tmp/etc
#                                            print every command, write the unit, rule and
#                                            settings files under /tmp/etc instead of /etc
#
# It is safe to run again: each step checks what is already there. What it does:
# apt packages: GNU Backgammon's program (the computer levels' and the analysis' judgement),
# what the GPIO and LED drivers' builds need (swig, liblgpio-dev where the archive has it,
# compilers and headers); I2C (display) and SPI enabled with
# raspi-config; on a Pi 3/4/Zero 2 W the two boot settings that rpi_ws281x needs to drive
# the LEDs from SPI0 MOSI (GPIO10) without root (its README, "SPI"): spidev.bufsiz=32768
# on the kernel command line and a fixed core clock in config.txt, each added only if
# missing and marked so that --uninstall removes exactly what this script added; a system
# user `bgboard` in dialout, gpio, i2c and spi; the code copied to /opt/bgboard/src and
# installed into the virtual environment /opt/bgboard/venv with the `pi` extra (`pi5` on
# a Pi 5) and the versions of hardware/pi/constraints.txt;
# gnubg's two-sided bear-off database where the gnubg package did not make it;
# /etc/bgboard/config.toml (never overwritten); the udev rule naming the sensor board
# /dev/bgboard; and the systemd service bgboard.service (journalctl -u bgboard).
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE_DIR=$(cd "$SCRIPT_DIR/../.." && pwd)

PREFIX=/opt/bgboard
SERVICE_USER=bgboard
SERVICE_GROUPS=(dialout gpio i2c spi)
STATE_DIR=/var/lib/bgboard
MODEL_FILE=/proc/device-tree/model
BOOT_DIR=/boot/firmware
SPIDEV_BUFSIZ=spidev.bufsiz=32768
# The lines this script adds to config.txt sit between these two markers; a comment inside
# records whether it also appended SPIDEV_BUFSIZ to cmdline.txt (a file without comments).
# Every line stays well under config.txt's limit of 98 characters.
BLOCK_BEGIN="# >>> bgboard: LEDs on SPI (install.sh added this; --uninstall removes it)"
BLOCK_END="# <<< bgboard"
BLOCK_RANGE='/^# >>> bgboard: /,/^# <<< bgboard$/'
CMDLINE_NOTE="# bgboard: install.sh appended $SPIDEV_BUFSIZ to cmdline.txt"
BOOT_CONFIG=$BOOT_DIR/config.txt      # both set again after --boot-dir
BOOT_CMDLINE=$BOOT_DIR/cmdline.txt
OS_RELEASE=/etc/os-release
# gnubg: the judgement (levels, hint, tutor, review, analyze); swig and the compilers: the
# drivers without an aarch64 wheel for every Python (rpi_ws281x; lgpio on Python 3.13).
APT_PACKAGES=(python3-venv python3-dev python3-pip build-essential swig gnubg i2c-tools rsync)
# Raspberry Pi OS's archive has lgpio's C library; Debian's has not: lgpio then builds
# its own copy into the module (PYPI=1, its setup.py's static build).
OPTIONAL_APT_PACKAGES=(liblgpio-dev)
CONSTRAINTS=hardware/pi/constraints.txt
# gnubg's two-sided bear-off database, where controller/evaluation/bearoff_db.py reads it
# (the numpy network's small bear-offs; without it they take the one-sided database and
# differ from gnubg's figures): the gnubg package's postinst makes it there unless debconf's
# gnubg/build-bearoffs was answered no; made here once where it is missing (about 40 s on
# a laptop, a few minutes on a Pi 4).
BEAROFF_DB=/var/lib/gnubg/gnubg_ts0.bd
MAKEBEAROFF=/usr/games/makebearoff
UART_BEGIN="# >>> bgboard-uart: the link on GPIO14/15 (install.sh --uart; --uninstall removes it)"
UART_END="# <<< bgboard-uart"
UART_RANGE='/^# >>> bgboard-uart: /,/^# <<< bgboard-uart$/'
SERIAL_CONSOLE=console=serial0,115200
CONSOLE_NOTE="# bgboard: install.sh removed $SERIAL_CONSOLE from cmdline.txt"

DRY_RUN=0
UNINSTALL=0
NO_START=0
UART=0
CANNOT=()             # what this run could not do: said in one line at the end
PURGE=0
DEST=""
REBOOT_NEEDED=0

usage() {
  cat <<'EOF'
usage: install.sh [--dry-run [--dest DIR]] [--uninstall [--purge]] [--prefix DIR]
                  [--model-file FILE] [--boot-dir DIR] [--uart] [--no-start]

  --dry-run          print every command instead of running it
  --dest DIR         with --dry-run: write the unit, udev rule and settings files under
                     DIR (as if DIR were /etc) so that they can be checked
  --uninstall        remove the service, udev rule, virtual environment and user
  --purge            with --uninstall: also remove /etc/bgboard and /var/lib/bgboard
  --prefix DIR       where the virtual environment goes (default /opt/bgboard)
  --model-file FILE  read the board model from FILE instead of /proc/device-tree/model
  --boot-dir DIR     where config.txt and cmdline.txt are (default /boot/firmware)
  --uart             the sensor board on the UART (GPIO14/15) instead of USB: UART on,
                     serial console off (and Bluetooth off its UART on a Pi 3/4/Zero 2 W)
  --no-start         install everything but start nothing (no udev or systemd calls)
EOF
}

say() { printf '# %s\n' "$*"; }
die() { printf 'install.sh: error: %s\n' "$1" >&2; exit "${2:-1}"; }

# One word as a shell would read it back: bare when safe, else in single quotes.
shell_word() {
  if [[ "$1" =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then
    printf '%s' "$1"
  else
    printf "'%s'" "${1//\'/\'\\\'\'}"
  fi
}

# Print a command (as the shell would read it back) and run it unless this is a dry run.
run() {
  local word line="+"
  for word in "$@"; do
    line+=" $(shell_word "$word")"
  done
  printf '%s\n' "$line"
  if [ "$DRY_RUN" -eq 0 ]; then
    "$@"
  fi
}

# Print `printf '%s\n' LINE... >> FILE` as run does, and append the lines unless this is a
# dry run: a redirection that the printed command shows exactly.
append_lines() {
  local file=$1 word line="+ printf '%s\\n'"
  shift
  for word in "$@"; do
    line+=" $(shell_word "$word")"
  done
  printf '%s >> %s\n' "$line" "$(shell_word "$file")"
  if [ "$DRY_RUN" -eq 0 ]; then
    printf '%s\n' "$@" >>"$file"
  fi
}

# Like run, for a command whose failure is expected and harmless (e.g. stopping a
# service that is not running).
run_tolerant() {
  if ! run "$@"; then
    say "(that failed; carrying on)"
  fi
}

# Where a file under /etc really goes: /etc itself, or the --dest directory in a dry run.
staged() {
  local target=$1
  if [ -n "$DEST" ]; then
    printf '%s/%s' "$DEST" "${target#/etc/}"
  else
    printf '%s' "$target"
  fi
}

# Fill a template from hardware/pi with this installation's values.
render() {
  sed -e "s|@VENV@|$PREFIX/venv|g" \
      -e "s|@USER@|$SERVICE_USER|g" \
      -e "s|@GROUPS@|${SERVICE_GROUPS[*]}|g" \
      "$SCRIPT_DIR/$1"
}

# Install a rendered template at an /etc path with the given mode. A dry run prints the
# command for the real path and, with --dest, writes the file under DEST for checking.
put_file() {
  local template=$1 target=$2 mode=$3 rendered
  rendered=$(mktemp)
  render "$template" >"$rendered"
  run install -D -m "$mode" "$rendered" "$target"
  if [ "$DRY_RUN" -eq 1 ] && [ -n "$DEST" ]; then
    install -D -m "$mode" "$rendered" "$(staged "$target")"
    say "wrote $(staged "$target")"
  fi
  rm -f "$rendered"
}

board_model() {
  if [ -r "$MODEL_FILE" ]; then
    tr -d '\0' <"$MODEL_FILE"
  fi
}

# The pip extra for this board: the Pi 5 family needs rpi-lgpio and the PIO NeoPixel driver.
pip_extra() {
  case "$1" in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) echo pi5 ;;
    *) echo pi ;;
  esac
}

check_platform() {
  local model=$1 codename="" arch
  if [ -z "$model" ]; then
    say "warning: no Raspberry Pi model in $MODEL_FILE; installing the generic 'pi' extra"
  elif [[ "$model" != "Raspberry Pi"* ]]; then
    say "warning: '$model' is not a Raspberry Pi; carrying on"
  fi
  if [ -r "$OS_RELEASE" ]; then
    # shellcheck source=/dev/null
    codename=$(. "$OS_RELEASE" && echo "${VERSION_CODENAME:-}")
  fi
  case "$codename" in
    bookworm | trixie) ;;
    *) say "warning: made for Raspberry Pi OS bookworm or trixie, this is '${codename:-unknown}'" ;;
  esac
  arch=$(uname -m)
  if [ "$arch" != "aarch64" ]; then
    say "warning: made for 64-bit Raspberry Pi OS (aarch64), this is $arch"
  fi
}

# True when raspi-config reports the interface (i2c or spi) enabled. raspi-config's
# get_* answers 0 for enabled.
interface_enabled() {
  command -v raspi-config >/dev/null 2>&1 || return 1
  [ "$(raspi-config nonint "get_$1" 2>/dev/null)" = "0" ]
}

enable_interfaces() {
  local iface
  for iface in i2c spi; do
    if interface_enabled "$iface"; then
      say "$iface already enabled"
    elif [ "$DRY_RUN" -eq 1 ] || command -v raspi-config >/dev/null 2>&1; then
      run raspi-config nonint "do_$iface" 0
      REBOOT_NEEDED=1
    else
      if [ "$iface" = i2c ]; then
        say "warning: no raspi-config here; enable i2c by hand (dtparam=i2c_arm=on)"
        CANNOT+=("enable I2C (dtparam=i2c_arm=on)")
      else
        say "warning: no raspi-config here; enable spi by hand (dtparam=spi=on)"
        CANNOT+=("enable SPI (dtparam=spi=on)")
      fi
    fi
  done
}

# The fixed core clock that rpi_ws281x's SPI mode needs (its README, "SPI"): the SPI clock
# is divided from the core clock, and a clock that scales with load breaks the WS2812B
# timing. Nothing for a board this script does not know.
core_clock_lines() {
  case "$1" in
    "Raspberry Pi 3"* | "Raspberry Pi Compute Module 3"* | "Raspberry Pi Zero 2"*)
      printf '%s\n' core_freq=250 ;;
    "Raspberry Pi 4"* | "Raspberry Pi Compute Module 4"*)     # "Pi 4"* takes the Pi 400 too
      printf '%s\n' core_freq=500 core_freq_min=500 ;;
  esac
}

# The bgboard block in config.txt now, markers included; empty when there is none.
current_block() {
  if [ -r "$BOOT_CONFIG" ]; then
    sed -n "${BLOCK_RANGE}p" "$BOOT_CONFIG"
  fi
}

# Pi 3/4/Zero 2 W: rpi_ws281x drives the LEDs on GPIO10 through /dev/spidev0.0 (group spi)
# and /dev/gpiomem (group gpio), so the service needs no root, but the kernel's SPI buffer
# must hold a whole frame and the core clock must stay put. A Pi 5 uses its RP1 PIO.
configure_led_spi() {
  local extra=$1 model=$2 block note="" clock wanted
  if [ "$extra" != pi ]; then
    say "the LEDs use the RP1's PIO (/dev/pio0) here; no boot settings to change"
    return 0
  fi
  block=$(current_block)
  if [[ "$block" == *"$CMDLINE_NOTE"* ]]; then
    note=$CMDLINE_NOTE
  fi
  if [ -r "$BOOT_CMDLINE" ] && grep -q 'spidev\.bufsiz=' "$BOOT_CMDLINE"; then
    say "$BOOT_CMDLINE already sets spidev.bufsiz; kept as it is"
  elif [ "$DRY_RUN" -eq 1 ] || [ -w "$BOOT_CMDLINE" ]; then
    run sed -i "1 s/\$/ $SPIDEV_BUFSIZ/" "$BOOT_CMDLINE"
    note=$CMDLINE_NOTE
    REBOOT_NEEDED=1
  else
    say "warning: cannot write $BOOT_CMDLINE; append $SPIDEV_BUFSIZ to its line by hand"
  fi
  mapfile -t clock < <(core_clock_lines "$model")
  if [ "${#clock[@]}" -eq 0 ]; then
    say "warning: no known core clock for '${model:-unknown}'; fix it in config.txt by hand" \
      "(core_freq=250 on a Pi 3, core_freq=500 and core_freq_min=500 on a Pi 4)"
  fi
  wanted=("$BLOCK_BEGIN" "[all]" "${clock[@]}")
  if [ -n "$note" ]; then
    wanted+=("$note")
  fi
  wanted+=("$BLOCK_END")
  if [ "$block" = "$(printf '%s\n' "${wanted[@]}")" ]; then
    say "$BOOT_CONFIG already has bgboard's lines"
  elif [ "$DRY_RUN" -eq 1 ] || [ -w "$BOOT_CONFIG" ]; then
    if [ -n "$block" ]; then
      run sed -i "${BLOCK_RANGE}d" "$BOOT_CONFIG"
    fi
    if [ -s "$BOOT_CONFIG" ] && [ -n "$(tail -c 1 "$BOOT_CONFIG")" ]; then
      wanted=("" "${wanted[@]}")        # end the file's unfinished last line first
    fi
    append_lines "$BOOT_CONFIG" "${wanted[@]}"
    REBOOT_NEEDED=1
  else
    say "warning: cannot write $BOOT_CONFIG; add ${clock[*]} to it by hand"
  fi
}

# Remove what configure_led_spi added, and only that: the marked block in config.txt, and
# spidev.bufsiz in cmdline.txt when the block records that this script appended it.
unconfigure_led_spi() {
  local block
  if [ "$DRY_RUN" -eq 1 ] && [ ! -r "$BOOT_CONFIG" ]; then
    say "no $BOOT_CONFIG here; shown as if install.sh had added its boot settings"
    block="$BLOCK_BEGIN"$'\n'"$CMDLINE_NOTE"
  else
    block=$(current_block)
  fi
  if [ -z "$block" ]; then
    say "no bgboard lines in $BOOT_CONFIG; boot settings left as they are"
    return 0
  fi
  if [[ "$block" == *"$CMDLINE_NOTE"* ]]; then
    run sed -i "1 s/ ${SPIDEV_BUFSIZ//./\\.}\\b//" "$BOOT_CMDLINE"
  fi
  run sed -i "${BLOCK_RANGE}d" "$BOOT_CONFIG"
  REBOOT_NEEDED=1
}

# The optional packages this system's archive has (a dry run lists them all).
available_optional() {
  local package
  for package in "${OPTIONAL_APT_PACKAGES[@]}"; do
    if [ "$DRY_RUN" -eq 1 ] || apt-cache --quiet=2 policy "$package" 2>/dev/null |
        sed -n 's/^ *Candidate: *//p' | grep -qv '(none)'; then
      printf '%s\n' "$package"
    fi
  done
}

install_packages() {
  local optional
  run apt-get update
  mapfile -t optional < <(available_optional)
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    "${APT_PACKAGES[@]}" "${optional[@]}"
}

create_user() {
  local group joined
  for group in "${SERVICE_GROUPS[@]}"; do
    if ! getent group "$group" >/dev/null; then
      run groupadd --system "$group"
    fi
  done
  joined=$(IFS=,; echo "${SERVICE_GROUPS[*]}")
  if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    run usermod --append --groups "$joined" "$SERVICE_USER"
  else
    run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
      --shell /usr/sbin/nologin --groups "$joined" "$SERVICE_USER"
  fi
}

# The code is copied to $PREFIX/src and installed from there in editable mode: the
# controller finds hardware/profiles (and the simulator its page) relative to the
# source tree, and the service user cannot read a checkout in a home directory
# (0700 on Bookworm, and hidden by ProtectHome=). Re-running copies the new code over.
install_venv() {
  local extra=$1 venv="$PREFIX/venv" src="$PREFIX/src"
  if [ "$SOURCE_DIR" != "$src" ]; then
    run mkdir -p "$PREFIX"           # a fresh system has no $PREFIX for rsync to create src in
    run rsync -a --delete --exclude .git --exclude .venv --exclude __pycache__ \
      --exclude '*.egg-info' "$SOURCE_DIR/" "$src/"
  fi
  if [ ! -x "$venv/bin/python" ]; then
    run python3 -m venv "$venv"
  fi
  run "$venv/bin/python" -m pip install --quiet --upgrade pip
  # PYPI=1: lgpio's setup.py builds its C library into the module where no wheel fits
  # (Python 3.13) and liblgpio-dev is missing; with a wheel it changes nothing.
  run env PYPI=1 "$venv/bin/python" -m pip install --quiet --upgrade \
    --constraint "$src/$CONSTRAINTS" --editable "${src}[$extra]"
}

install_bearoff_db() {
  if [ -s "$BEAROFF_DB" ]; then
    say "$BEAROFF_DB exists; kept as it is"
  elif [ "$DRY_RUN" -eq 0 ] && [ ! -x "$MAKEBEAROFF" ]; then
    CANNOT+=("make $BEAROFF_DB: $MAKEBEAROFF is missing (sudo apt install gnubg)")
  else
    run mkdir -p "$(dirname "$BEAROFF_DB")"
    run "$MAKEBEAROFF" -t 6x6 -f "$BEAROFF_DB.part"
    run mv "$BEAROFF_DB.part" "$BEAROFF_DB"
  fi
}

install_settings() {
  if [ -e /etc/bgboard/config.toml ]; then
    say "/etc/bgboard/config.toml exists; kept as it is"
  else
    put_file config.toml /etc/bgboard/config.toml 0644
  fi
}

install_udev_rule() {
  put_file 99-bgboard.rules /etc/udev/rules.d/99-bgboard.rules 0644
  if [ "$NO_START" -eq 1 ]; then
    return 0
  fi
  run udevadm control --reload-rules
  run udevadm trigger --subsystem-match=tty --action=add
}

install_service() {
  put_file bgboard.service /etc/systemd/system/bgboard.service 0644
  if [ "$NO_START" -eq 1 ]; then
    say "not started (--no-start): sudo systemctl enable --now bgboard.service on the Pi"
    return 0
  fi
  run systemctl daemon-reload
  run systemctl enable bgboard.service
  run systemctl restart bgboard.service
}

# The boot settings that make GPIO14/15 the link's UART (issue 25; the Pico's GP0/GP1):
# the serial console off (it would talk on the same pins), and the PL011 UART there. A Pi
# 3/4/Zero 2 W gives its PL011 to Bluetooth and /dev/serial0 to the mini UART, whose baud
# rate follows the core clock: disable-bt gives the PL011 back (serial0 = ttyAMA0). A Pi 5's
# GPIO14/15 UART is uart0 (/dev/ttyAMA0), off until dtparam=uart0=on; its serial0 is the
# debug connector's UART.
uart_lines() {
  case "$1" in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) printf '%s\n' dtparam=uart0=on ;;
    "Raspberry Pi 3"* | "Raspberry Pi Compute Module 3"* | "Raspberry Pi Zero 2"* | \
      "Raspberry Pi 4"* | "Raspberry Pi Compute Module 4"*)
      printf '%s\n' enable_uart=1 dtoverlay=disable-bt ;;
    *) printf '%s\n' enable_uart=1 ;;
  esac
}

# The device the link's `port` names after --uart and a reboot.
uart_port() {
  case "$1" in
    "Raspberry Pi 5"* | "Raspberry Pi Compute Module 5"*) echo /dev/ttyAMA0 ;;
    *) echo /dev/serial0 ;;
  esac
}

configure_uart() {
  local model=$1 block note="" wanted lines
  block=""
  if [ -r "$BOOT_CONFIG" ]; then
    block=$(sed -n "${UART_RANGE}p" "$BOOT_CONFIG")
  fi
  if [[ "$block" == *"$CONSOLE_NOTE"* ]]; then
    note=$CONSOLE_NOTE
  fi
  if [ -r "$BOOT_CMDLINE" ] && grep -q "$SERIAL_CONSOLE *" "$BOOT_CMDLINE"; then
    if [ "$DRY_RUN" -eq 1 ] || [ -w "$BOOT_CMDLINE" ]; then
      run sed -i "1 s/$SERIAL_CONSOLE *//" "$BOOT_CMDLINE"
      note=$CONSOLE_NOTE
      REBOOT_NEEDED=1
    else
      CANNOT+=("remove $SERIAL_CONSOLE from $BOOT_CMDLINE")
    fi
  fi
  mapfile -t lines < <(uart_lines "$model")
  wanted=("$UART_BEGIN" "[all]" "${lines[@]}")
  if [ -n "$note" ]; then
    wanted+=("$note")
  fi
  wanted+=("$UART_END")
  if [ "$block" = "$(printf '%s\n' "${wanted[@]}")" ]; then
    say "$BOOT_CONFIG already has bgboard's UART lines"
  elif [ "$DRY_RUN" -eq 1 ] || [ -w "$BOOT_CONFIG" ]; then
    if [ -n "$block" ]; then
      run sed -i "${UART_RANGE}d" "$BOOT_CONFIG"
    fi
    if [ -s "$BOOT_CONFIG" ] && [ -n "$(tail -c 1 "$BOOT_CONFIG")" ]; then
      wanted=("" "${wanted[@]}")
    fi
    append_lines "$BOOT_CONFIG" "${wanted[@]}"
    REBOOT_NEEDED=1
  else
    CANNOT+=("add ${lines[*]} to $BOOT_CONFIG")
  fi
  say "the link's UART: port = \"$(uart_port "$model")\" in /etc/bgboard/config.toml" \
    "(GPIO14 TXD to the Pico's GP1, GPIO15 RXD to its GP0)"
}

# Remove what configure_uart added: its block, and the serial console it took out.
unconfigure_uart() {
  local block=""
  if [ -r "$BOOT_CONFIG" ]; then
    block=$(sed -n "${UART_RANGE}p" "$BOOT_CONFIG")
  fi
  if [ -z "$block" ]; then
    return 0
  fi
  if [[ "$block" == *"$CONSOLE_NOTE"* ]]; then
    run sed -i "1 s/^/$SERIAL_CONSOLE /" "$BOOT_CMDLINE"
  fi
  run sed -i "${UART_RANGE}d" "$BOOT_CONFIG"
  REBOOT_NEEDED=1
}

do_install() {
  local model extra
  model=$(board_model)
  extra=$(pip_extra "$model")
  check_platform "$model"
  say "board: ${model:-unknown}; pip extra: $extra; source: $SOURCE_DIR; prefix: $PREFIX"
  install_packages
  install_bearoff_db
  enable_interfaces
  configure_led_spi "$extra" "$model"
  if [ "$UART" -eq 1 ]; then
    configure_uart "$model"
  fi
  create_user
  install_venv "$extra"
  install_settings
  install_udev_rule
  install_service
  if [ "$NO_START" -eq 1 ]; then
    say "installed (not started): the board starts at the next boot once enabled"
  else
    say "installed: the board starts at boot; logs: journalctl -u bgboard -f"
  fi
  say "install.sh cannot check the wiring, the LEDs' power or the sensor board:" \
    "run bgboard selftest after the reboot"
  if [ ${#CANNOT[@]} -gt 0 ]; then
    local joined
    joined=$(printf '%s; ' "${CANNOT[@]}")
    say "not done here, do it by hand: ${joined%; }"
  fi
  if [ "$REBOOT_NEEDED" -eq 1 ]; then
    say "reboot once (sudo reboot) so that the I2C, SPI and boot settings take effect"
  fi
}

do_uninstall() {
  if [ "$DRY_RUN" -eq 1 ] || [ -e /etc/systemd/system/bgboard.service ]; then
    run_tolerant systemctl disable --now bgboard.service
  fi
  run rm -f /etc/systemd/system/bgboard.service
  run systemctl daemon-reload
  run_tolerant systemctl reset-failed bgboard.service
  run rm -f /etc/udev/rules.d/99-bgboard.rules
  run udevadm control --reload-rules
  run rm -rf "$PREFIX"
  if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    run userdel "$SERVICE_USER"
  fi
  if [ "$PURGE" -eq 1 ]; then
    run rm -rf /etc/bgboard "$STATE_DIR"
  else
    say "kept /etc/bgboard (settings) and $STATE_DIR (saved matches); --purge removes them"
  fi
  unconfigure_led_spi
  unconfigure_uart
  say "left as they were: I2C, SPI, the groups and the apt packages (and dtparam=audio=off" \
    "if an older install.sh set it)"
  if [ "$REBOOT_NEEDED" -eq 1 ]; then
    say "reboot once (sudo reboot) so that the core clock and SPI buffer are the defaults again"
  fi
}

main() {
  local original=("$@")
  while [ $# -gt 0 ]; do
    case "$1" in
      --dry-run) DRY_RUN=1 ;;
      --dest) [ $# -ge 2 ] || die "--dest needs a directory" 2; DEST=$2; shift ;;
      --uninstall) UNINSTALL=1 ;;
      --purge) PURGE=1 ;;
      --prefix) [ $# -ge 2 ] || die "--prefix needs a directory" 2; PREFIX=$2; shift ;;
      --model-file) [ $# -ge 2 ] || die "--model-file needs a file" 2; MODEL_FILE=$2; shift ;;
      --boot-dir) [ $# -ge 2 ] || die "--boot-dir needs a directory" 2; BOOT_DIR=$2; shift ;;
      --uart) UART=1 ;;
      --no-start) NO_START=1 ;;
      -h | --help) usage; exit 0 ;;
      *) usage >&2; die "unknown option '$1'" 2 ;;
    esac
    shift
  done
  BOOT_CONFIG=$BOOT_DIR/config.txt
  BOOT_CMDLINE=$BOOT_DIR/cmdline.txt
  if [ -n "$DEST" ] && [ "$DRY_RUN" -eq 0 ]; then
    die "--dest only goes with --dry-run" 2
  fi
  if [ "$PURGE" -eq 1 ] && [ "$UNINSTALL" -eq 0 ]; then
    die "--purge only goes with --uninstall" 2
  fi
  case "$PREFIX" in
    /*) ;;
    *) die "--prefix must be an absolute path" 2 ;;
  esac
  if [[ "$PREFIX" =~ [^A-Za-z0-9_./-] ]]; then
    die "--prefix may hold only letters, digits and . _ / -" 2
  fi
  if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run as root: sudo $0 ${original[*]}"
  fi
  if [ "$DRY_RUN" -eq 1 ]; then
    say "dry run: nothing below is run${DEST:+; files written under $DEST}"
  fi
  if [ "$UNINSTALL" -eq 1 ]; then
    do_uninstall
  else
    do_install
  fi
}

# Run when executed; tests source the file to call its functions on files of their own.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  main "$@"
fi
