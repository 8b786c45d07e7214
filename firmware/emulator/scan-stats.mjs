// What the emulated Pico measures of the firmware's scanning, in emulated cycles (125 MHz)
// and nanoseconds: the busy cycles of each scan period (from one token clocked into the
// chain to the next), apart for the periods just after a sensor changed; each scan's own
// length (token in to token out of the last module); and, from the board's frames on
// either link, the SCAN frames' spacing, the first SCAN that shows an awaited change, and
// the ERROR frames (with the boot they came in).
const CHANGE_PERIODS = 4;                   // periods after a change counted as "change"
const KEEP = 64;

export class ScanStats {
  constructor() {
    this.boots = 0;
    this.busyCycles = 0;                    // every instruction's cycles, asleep excluded
    this.scans = 0;
    this.idlePeriods = [];
    this.changePeriods = [];
    this.scanCycles = [];
    this.scanNs = [];
    this.scanTimes = [];
    this.errors = [];
    this.change = null;
    this.scanSeen = null;
    this.usbBytes = 0;
    this.busyAtStart = null;
    this.startNs = null;
    this.pendingChange = 0;
  }

  /** A token clocked into module 0: a scan begins, and with it a scan period. */
  scanStart(nanos) {
    if (this.busyAtStart !== null) {
      const busy = this.busyCycles - this.busyAtStart;
      push(this.pendingChange > 0 ? this.changePeriods : this.idlePeriods, busy);
      if (this.pendingChange > 0) this.pendingChange -= 1;
    }
    this.busyAtStart = this.busyCycles;
    this.startNs = nanos;
    this.scans += 1;
  }

  /** The token left the last module: the scan's reading is done. */
  scanEnd(nanos) {
    if (this.startNs === null) return;
    push(this.scanCycles, this.busyCycles - this.busyAtStart);
    push(this.scanNs, nanos - this.startNs);
  }

  /** A new chip: the periods of the old one are not compared across the reboot. */
  booted() {
    this.boots += 1;
    this.usbBytes = 0;
    this.busyAtStart = null;
    this.startNs = null;
  }

  /** The test changed sensor `sensor`, whose SCAN class should become `value`. */
  expect(sensor, value, nanos) {
    this.change = { sensor, value, ns: nanos, scans: this.scans };
    this.scanSeen = null;
    this.pendingChange = CHANGE_PERIODS;
  }

  /** A decoder of one link's frames: COBS, then the type byte (hardware/protocol.md). */
  frameWatcher() {
    let bytes = [];
    return (chunk, nanos) => {
      for (const b of chunk) {
        if (b !== 0) { bytes.push(b); continue; }
        this.frame(cobsDecode(bytes), nanos);
        bytes = [];
      }
    };
  }

  frame(raw, nanos) {
    if (raw[0] === 0x7f) this.errors.push([this.boots, raw[2]]);   // ERROR: boot, code
    if (raw[0] !== 0x02) return;
    push(this.scanTimes, nanos, 12);
    const c = this.change;
    if (c && !this.scanSeen) {
      const payload = raw.slice(2, raw.length - 4);
      if (((payload[c.sensor >> 2] >> (2 * (c.sensor & 3))) & 3) === c.value) {
        this.scanSeen = { ns: nanos - c.ns, scans: this.scans - c.scans };
      }
    }
  }

  report() {
    const sorted = (a) => [...a].sort((x, y) => x - y);
    const median = (a) => sorted(a)[a.length >> 1] ?? null;
    const max = (a) => (a.length ? Math.max(...a) : null);
    return {
      boots: this.boots, scans: this.scans,
      idle_cycles_median: median(this.idlePeriods), idle_cycles_max: max(this.idlePeriods),
      change_cycles_max: max(this.changePeriods), change_cycles: this.changePeriods.slice(-8),
      scan_cycles_median: median(this.scanCycles), scan_cycles_max: max(this.scanCycles),
      scan_ns_median: median(this.scanNs),
      scan_seen: this.scanSeen, errors: this.errors,
      scan_gaps_ms: this.scanTimes.slice(1).map((t, i) => (t - this.scanTimes[i]) / 1e6),
      usb_bytes_since_boot: this.usbBytes,
    };
  }
}

function push(list, value, keep = KEEP) {
  list.push(value);
  if (list.length > keep) list.shift();
}

function cobsDecode(bytes) {
  const raw = [];
  let i = 0;
  while (i < bytes.length) {
    const code = bytes[i];
    for (let k = 1; k < code && i + k < bytes.length; k++) raw.push(bytes[i + k]);
    i += code;
    if (code < 255 && i < bytes.length) raw.push(0);
  }
  return raw;
}
