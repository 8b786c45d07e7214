// bgboard's sensor board on an emulated RP2040 (rp2040js): runs bgboard-pico.uf2 (MicroPython
// with firmware/ frozen in, firmware/image/build-uf2.sh) with the board around it modelled:
//
// - the 74HC165 chain on SPI0: SH/LD (GP17) going low latches the sensors, each SPI byte
//   then shifts the next register out (chain bit k = sensor k // 2, north when k is even,
//   MSB first, as firmware/scan.py reads it); at 1 MHz a byte takes 8 us;
// - BOOTSEL: the QSPI SS pin reads high (released) unless the test presses it;
// - the watchdog wired to a reset: a new chip boots from the same flash with the
//   watchdog's REASON and SCRATCH registers kept, as the RP2040 keeps them;
// - the flash erased and programmed as the bootrom drives it (flash-chip.mjs), so
//   MicroPython's filesystem on it (link.cfg, the calibration) works and survives a reset;
// - USB CDC: the host's bytes come on stdin, the board's go to stdout (the Python side,
//   tests/pico_emulator.py, puts them on a pty for the project's own serial link);
// - UART0 on GP0/GP1 (uart-line.mjs): the host's bytes come on the --uart-in fd, the
//   board's go to the --uart-out fd (a second pty on the Python side).
//
// Control on the --control-in fd (JSON lines): {"sensor": i, "value": v}, {"bootsel": true|false},
// {"stall_spi": true|false} (a stuck chain: each SPI byte takes 3 s), {"stats": true}. Events on the --control-out fd: boot,
// usb, reboot (reason "timer" or "force"), stats. Emulated time only: the chip runs as
// fast as the host machine lets it, its clock is the simulation's (125 MHz).
//
//   node pico.mjs --bootrom BOOTROM --image bgboard-pico.uf2 --control-in FD --control-out FD \
//                 --uart-in FD --uart-out FD
// BOOTROM: the RP2040 B1 bootrom, a 16 KiB .bin or rp2040js's demo/bootrom.ts.
import fs from 'node:fs';
import { ConsoleLogger, GPIOPinState, LogLevel, Simulator, USBCDC } from 'rp2040js';
import { FlashChip } from './flash-chip.mjs';
import { UartLine } from './uart-line.mjs';

const SENSORS = 14 * 13;                  // firmware/main.py ROWS * COLS
const CHAIN_BYTES = Math.ceil((2 * SENSORS) / 8);
const SPI_BYTE_NS = 8000;                 // pins.SPI_BAUD = 1 MHz
const LOAD_PIN = 17;                      // pins.LOAD
const WATCHDOG = 0x40058;
const CYCLE_NS = 8;                       // 125 MHz
const FLASH_START = 0x10000000;

function arg(name) {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) {
    process.stderr.write(`usage: node pico.mjs --bootrom FILE --image FILE.uf2 --control-in FD --control-out FD --uart-in FD --uart-out FD (missing ${name})\n`);
    process.exit(2);
  }
  return process.argv[i + 1];
}

function readBootrom(path) {
  const data = fs.readFileSync(path);
  if (/\.(ts|js)$/.test(path)) {
    const body = data.toString('utf8').split('Uint32Array([')[1] ?? '';
    const words = body.match(/0x[0-9a-fA-F]+/g) ?? [];
    return Uint32Array.from(words.map((w) => parseInt(w, 16)));
  }
  return new Uint32Array(data.buffer, data.byteOffset, data.byteLength >> 2);
}

function readUf2(path) {
  const data = fs.readFileSync(path);
  const blocks = [];
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const magic0 = data.readUInt32LE(off);
    const magic1 = data.readUInt32LE(off + 4);
    if (magic0 !== 0x0a324655 || magic1 !== 0x9e5d5157) {
      throw new Error(`${path}: not a UF2 file (block at ${off})`);
    }
    const addr = data.readUInt32LE(off + 12);
    const size = data.readUInt32LE(off + 16);
    blocks.push([addr - FLASH_START, data.subarray(off + 32, off + 32 + size)]);
  }
  return blocks;
}

const bootrom = readBootrom(arg('--bootrom'));
const image = readUf2(arg('--image'));
const control = fs.createWriteStream(null, { fd: Number(arg('--control-out')) });
const emit = (event) => control.write(JSON.stringify(event) + '\n');
const uartOut = fs.createWriteStream(null, { fd: Number(arg('--uart-out')) });

// -- the board around the chip ----------------------------------------------------------
const sensors = new Uint8Array(SENSORS);
let latched = new Uint8Array(CHAIN_BYTES);
let shifted = 0;
let bootsel = false;
let stallSpi = false;
let spiStuck = false;                       // a transfer left unfinished: the chip spins

function encodeChain() {
  const buf = new Uint8Array(CHAIN_BYTES);
  for (let i = 0; i < SENSORS; i++) {
    for (const [bit, mask] of [[2 * i, 1], [2 * i + 1, 2]]) {
      if (sensors[i] & mask) buf[bit >> 3] |= 1 << (7 - (bit & 7));
    }
  }
  return buf;
}

// -- timing and the SCAN watch ------------------------------------------------------------
const stats = {
  boots: 0, latches: 0, busyCycles: 0, idleLatchCycles: [], changeLatchCycles: [],
  change: null, scanSeen: null, scanTimes: [], errors: [], usbBytes: 0,
};
let busyAtLatch = 0;
let pendingChange = 0;                      // latches after a change whose work is counted

function onLatch(nanos) {
  const busy = stats.busyCycles - busyAtLatch;
  busyAtLatch = stats.busyCycles;
  if (stats.latches > 0) {
    (pendingChange > 0 ? stats.changeLatchCycles : stats.idleLatchCycles).push(busy);
    if (pendingChange > 0) pendingChange -= 1;
  }
  stats.latches += 1;
  latched = encodeChain();
  shifted = 0;
}

// The board's frames on one link, decoded just enough to see the first SCAN showing a
// change (its emulated time and how many latches it came after). COBS, then type byte 0x02.
function frameWatcher() {
  let frameBytes = [];
  return (chunk, nanos) => {
    for (const b of chunk) {
      if (b !== 0) { frameBytes.push(b); continue; }
      const raw = [];
      let i = 0;
      while (i < frameBytes.length) {
        const code = frameBytes[i];
        for (let k = 1; k < code && i + k < frameBytes.length; k++) raw.push(frameBytes[i + k]);
        i += code;
        if (code < 255 && i < frameBytes.length) raw.push(0);
      }
      frameBytes = [];
      const c = stats.change;
      if (raw[0] === 0x7f) stats.errors.push([stats.boots, raw[2]]);   // ERROR: boot, code
      if (raw[0] === 0x02) {
        stats.scanTimes.push(nanos);
        if (stats.scanTimes.length > 12) stats.scanTimes.shift();
      }
      if (raw[0] === 0x02 && c && !stats.scanSeen) {
        const payload = raw.slice(2, raw.length - 4);
        const value = (payload[c.sensor >> 2] >> (2 * (c.sensor & 3))) & 3;
        if (value === c.value) {
          stats.scanSeen = { ns: nanos - c.ns, latches: stats.latches - c.latches };
        }
      }
    }
  };
}
const watchUsb = frameWatcher();
const watchUart = frameWatcher();
const uart = new UartLine((bytes) => {
  watchUart(bytes, chip.s.clock.nanos);
  uartOut.write(Buffer.from(bytes));
});

// -- the chip ---------------------------------------------------------------------------
let sim = null;
const flashChip = new FlashChip();
let reboot = null;                          // REASON of a watchdog reset to carry out
let flash = null;

function makeChip(kept) {
  const s = new Simulator();
  const mcu = s.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(bootrom);                 // resets the chip: flash reads erased
  if (flash) {
    mcu.flash.set(flash);                   // the flash (and its filesystem) stays
  } else {
    for (const [addr, bytes] of image) mcu.flash.set(bytes, addr);
  }
  flash = mcu.flash;
  flashChip.attach(mcu);
  const watchdog = mcu.peripherals[WATCHDOG];
  if (kept) {
    watchdog.scratchData.set(kept.scratch);
    watchdog.reason = kept.reason;          // private in rp2040js: the chip keeps it
  }
  watchdog.onWatchdogTrigger = () => {
    reboot = watchdog.reason;
    // the reset stops the watchdog; left running, rp2040js's periodic alarm at counter 0
    // would fire again at the same instant forever
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
  };
  mcu.qspi[1].padValue = 0x5a;             // PADS_QSPI SS at reset: input enabled, pull-up
  mcu.qspi[1].setInputValue(!bootsel);
  mcu.gpio[LOAD_PIN].addListener((state, old) => {
    if (state === GPIOPinState.Low && old !== GPIOPinState.Low) onLatch(s.clock.nanos);
  });
  const spi = mcu.spi[0];
  const done = s.clock.createAlarm(() => {
    spi.completeTransmit(shifted < CHAIN_BYTES ? latched[shifted] : 0);
    shifted += 1;
  });
  spi.onTransmit = () => {
    spiStuck = stallSpi;                    // a stuck chain: a byte takes 3 s, not 8 us
    done.schedule(stallSpi ? 3e9 : SPI_BYTE_NS);
  };
  const cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => emit({ event: 'usb', ns: s.clock.nanos });
  cdc.onSerialData = (buf) => {
    watchUsb(buf, s.clock.nanos);
    stats.usbBytes += buf.length;
    process.stdout.write(Buffer.from(buf));
  };
  uart.attach(mcu, s.clock);
  // A host answers the device's OUT transfer only when it has bytes to send (a real one
  // NAKs meanwhile); rp2040js's CDC model answers at once with nothing, and the
  // zero-length packets would keep the USB interrupt busy all the time.
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint) outRead = size;
  };
  mcu.core.PC = 0x10000000;                 // boot2 at the start of flash, as rp2040js's CI does
  stats.boots += 1;
  stats.usbBytes = 0;
  emit({ event: 'boot', boots: stats.boots });
  outRead = null;
  return { s, mcu, cdc };
}

// BGBOARD_PICO_PROFILE=1: sampled program counters on stderr at exit (where cycles go)
const profile = process.env.BGBOARD_PICO_PROFILE ? new Map() : null;
if (profile) {
  process.on('exit', () => {
    const top = [...profile.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
    for (const [pc, n] of top) process.stderr.write(`${pc.toString(16)} ${n}\n`);
  });
}

let outRead = null;                         // an OUT transfer the device has armed
let chip = makeChip(null);
const toBoard = [];

function hostToBoard() {
  if (outRead === null || !toBoard.length) return;
  const n = Math.min(outRead, toBoard.length);
  outRead = null;
  chip.mcu.usbCtrl.endpointReadDone(chip.cdc.outEndpoint, Uint8Array.from(toBoard.splice(0, n)));
}

function slice() {
  const { s, mcu, cdc } = chip;
  const clock = s.clock;
  for (let i = 0; i < 200000 && reboot === null; i++) {
    if ((i & 0xff) === 0) hostToBoard();
    if (mcu.core.waiting) {
      const wait = clock.nanosToNextAlarm;   // asleep (WFE/WFI): skip to the next event
      clock.tick(wait > 0 && wait < 1e9 ? wait : 1000);
    } else {
      if (spiStuck) {
        // the firmware spins on a transfer that never ends: nothing changes until the
        // next timer event (the watchdog's, at the latest), so time jumps there
        const wait = clock.nanosToNextAlarm;
        if (wait > 0 && wait < 1e10) clock.tick(Math.min(wait, 1e6));
      }
      if (profile && (stats.busyCycles & 0x3ff) < 4) {
        const pc = mcu.core.PC >>> 0;
        profile.set(pc, (profile.get(pc) ?? 0) + 1);
      }
      const cycles = mcu.core.executeInstruction();
      clock.tick(cycles * CYCLE_NS);
      stats.busyCycles += cycles;
    }
  }
  uart.flush();
  if (reboot !== null) {
    const reason = reboot;
    reboot = null;
    const kept = { scratch: Uint32Array.from(mcu.peripherals[WATCHDOG].scratchData), reason };
    emit({ event: 'reboot', reason: reason & 1 ? 'timer' : 'force', scratch0: kept.scratch[0] });
    stallSpi = false;                       // a reset frees a stuck chain read
    spiStuck = false;
    chip = makeChip(kept);
  }
  setImmediate(slice);
}

process.stdin.on('data', (chunk) => { for (const b of chunk) toBoard.push(b); });
process.stdin.on('end', () => process.exit(0));
fs.createReadStream(null, { fd: Number(arg('--uart-in')) }).on('data', (chunk) => uart.feed(chunk));

let pending = '';
fs.createReadStream(null, { fd: Number(arg('--control-in')) }).on('data', (chunk) => {
  pending += chunk.toString('utf8');
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (!line.trim()) continue;
    const cmd = JSON.parse(line);
    const nanos = chip.s.clock.nanos;
    if ('sensor' in cmd) {
      sensors[cmd.sensor] = cmd.value;
      stats.change = { sensor: cmd.sensor, value: cmd.value, ns: nanos, latches: stats.latches };
      stats.scanSeen = null;
      pendingChange = 4;
    }
    if ('bootsel' in cmd) {
      bootsel = !!cmd.bootsel;
      chip.mcu.qspi[1].setInputValue(!bootsel);
    }
    if ('stall_spi' in cmd) stallSpi = !!cmd.stall_spi;
    if (cmd.stats) {
      const sorted = (a) => [...a].sort((x, y) => x - y);
      const idle = sorted(stats.idleLatchCycles);
      const change = sorted(stats.changeLatchCycles);
      emit({
        event: 'stats', ns: nanos, boots: stats.boots, latches: stats.latches,
        idle_cycles_median: idle[idle.length >> 1] ?? null, idle_cycles_max: idle[idle.length - 1] ?? null,
        change_cycles_max: change[change.length - 1] ?? null, change_cycles: stats.changeLatchCycles.slice(-8),
        scan_seen: stats.scanSeen, spi_stuck: spiStuck, errors: stats.errors,
        watchdog_ctrl: chip.mcu.peripherals[WATCHDOG].readUint32(0) >>> 0,
        scan_gaps_ms: stats.scanTimes.slice(1).map((t, i) => (t - stats.scanTimes[i]) / 1e6),
        usb_bytes_since_boot: stats.usbBytes, uart: uart.stats(), flash: flashChip.counts,
      });
    }
  }
});

slice();
