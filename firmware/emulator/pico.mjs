// bgboard's sensor board on an emulated RP2040 (rp2040js): runs bgboard-pico.uf2 (MicroPython
// with firmware/ frozen in, firmware/image/build-uf2.sh) with the board around it modelled:
//
// - the sensing front end (front-end.mjs, hardware/front-end.md): the multiplexers' address
//   on GP2..GP5, the token chain on GP6 TCLK / GP7 TOKEN / GP8 RET, each sensor's voltage
//   on the analogue bus into ADC0 with its settling, the supply monitor on ADC1;
// - BOOTSEL: the QSPI SS pin reads high (released) unless the test presses it;
// - the watchdog wired to a reset: a new chip boots from the same flash with the
//   watchdog's REASON and SCRATCH registers kept, as the RP2040 keeps them;
// - the flash erased and programmed as the bootrom drives it (flash-chip.mjs), so
//   MicroPython's filesystem on it (link.cfg, the calibration) works and survives a reset;
// - USB CDC: the host's bytes come on stdin, the board's go to stdout (the Python side,
//   tests/pico_emulator.py, puts them on a pty for the project's own serial link);
// - UART0 on GP0/GP1 (uart-line.mjs): the host's bytes come on the --uart-in fd, the
//   board's go to the --uart-out fd (a second pty on the Python side).
// scan-stats.mjs measures the scanning in emulated cycles.
//
// Control on the --control-in fd (JSON lines): {"volts": [[sensor, v], ...], "expect":
// [sensor, class]} (sensor outputs in volts; the class the next SCAN should show for one of
// them, timed), {"supply": v}, {"noise_mv": x}, {"break_chain": m | null}, {"stall_adc":
// true|false} (a conversion that never ends), {"bootsel": true|false}, {"time": true},
// {"stats": true}. Events on the --control-out fd: boot, usb, reboot (reason "timer" or
// "force"), time, stats.
// Emulated time only: the chip runs as fast as the host machine lets it, its clock is the
// simulation's (125 MHz).
//
//   node pico.mjs --bootrom BOOTROM --image bgboard-pico.uf2 --control-in FD --control-out FD \
//                 --uart-in FD --uart-out FD
// BOOTROM: the RP2040 B1 bootrom, a 16 KiB .bin or rp2040js's demo/bootrom.ts.
import fs from 'node:fs';
import { ConsoleLogger, LogLevel, Simulator, USBCDC } from 'rp2040js';
import { FlashChip } from './flash-chip.mjs';
import { FrontEnd } from './front-end.mjs';
import { ScanStats } from './scan-stats.mjs';
import { UartLine } from './uart-line.mjs';

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
const stats = new ScanStats();
const front = new FrontEnd();
front.onScanStart = (nanos) => stats.scanStart(nanos);
front.onScanEnd = (nanos) => stats.scanEnd(nanos);
const flashChip = new FlashChip();
const watchUsb = stats.frameWatcher();
const watchUart = stats.frameWatcher();
const uart = new UartLine((bytes) => {
  watchUart(bytes, chip.s.clock.nanos);
  uartOut.write(Buffer.from(bytes));
});
let bootsel = false;

// -- the chip ---------------------------------------------------------------------------
let reboot = null;                          // REASON of a watchdog reset to carry out
let flash = null;
let outRead = null;                         // an OUT transfer the device has armed

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
  front.attach(mcu, s.clock);
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
  stats.booted();
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

let chip = makeChip(null);
const toBoard = [];

function hostToBoard() {
  if (outRead === null || !toBoard.length) return;
  const n = Math.min(outRead, toBoard.length);
  outRead = null;
  chip.mcu.usbCtrl.endpointReadDone(chip.cdc.outEndpoint, Uint8Array.from(toBoard.splice(0, n)));
}

/** A conversion that never ends: the firmware spins on READY, nothing else changes. */
const spinning = () => front.stalled && chip.mcu.adc.busy;

function slice() {
  const { s, mcu } = chip;
  const clock = s.clock;
  for (let i = 0; i < 200000 && reboot === null; i++) {
    if ((i & 0xff) === 0) hostToBoard();
    if (mcu.core.waiting) {
      const wait = clock.nanosToNextAlarm;   // asleep (WFE/WFI): skip to the next event
      clock.tick(wait > 0 && wait < 1e9 ? wait : 1000);
    } else {
      if (spinning()) {
        // nothing changes until the next timer event (the watchdog's, at the latest),
        // so time jumps there
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
    front.stalled = false;                  // a reset frees a stuck conversion
    chip = makeChip(kept);
  }
  setImmediate(slice);
}

function command(cmd) {
  const nanos = chip.s.clock.nanos;
  front.control(cmd);
  if (cmd.expect) stats.expect(cmd.expect[0], cmd.expect[1], nanos);
  if ('bootsel' in cmd) {
    bootsel = !!cmd.bootsel;
    chip.mcu.qspi[1].setInputValue(!bootsel);
  }
  if (cmd.time) emit({ event: 'time', ns: nanos });
  if (cmd.stats) {
    emit({
      event: 'stats', ns: nanos, ...stats.report(), adc_stalled: spinning(),
      front: front.counts, watchdog_ctrl: chip.mcu.peripherals[WATCHDOG].readUint32(0) >>> 0,
      uart: uart.stats(), flash: flashChip.counts,
    });
  }
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
    if (line.trim()) command(JSON.parse(line));
  }
});

slice();
