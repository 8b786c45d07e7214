// The sensing front end around the chip (hardware/front-end.md, version 2): every module's
// CD74HC4067 multiplexer and token flip-flop, the shared analogue bus into ADC0 and the
// supply monitor on ADC1, as the firmware's pins see them:
//
// - GP2..GP5 (S0..S3) address every multiplexer at once; GP6 TCLK's rising edge moves the
//   token one module on (module 0 takes GP7 TOKEN; the flip-flops keep their state through
//   a reset of the Pico, which does not power them down); GP8 RET reads the last module's
//   flip-flop through its shunt (a broken chain: RET from module m on reads 0);
// - the module holding the token (its /Q enables its multiplexer) drives AOUT with its
//   channel's sensor through 1 kOhm; a channel without a sensor is tied to GND; nobody: the
//   47 kOhm pull-down; two or more (before the boot flush): their outputs averaged, as two
//   equal resistors into one node average them. AOUT reaches the ADC through 100 Ohm with
//   1 nF to GND, so the ADC's node follows a switch with tau = (the source's resistance +
//   100 Ohm) x 1 nF: 1.2 us behind a multiplexer (R_on + 1 kOhm), 47 us when nobody drives
//   the bus and only the pull-down empties the capacitor; the ADC samples the node when a
//   conversion starts (2 us a conversion, as rp2040js has);
// - ADC1 reads the sensors' 5 V through the carrier's 10k/10k divider;
// - per-sensor levels are set in volts at the sensor's output (so a test can put a
//   worst-case part, a checker or a fault there), with seeded Gaussian noise added to every
//   conversion if asked (mV rms at the sensor);
// - a stalled ADC (a conversion that never finishes) for the watchdog test.
// The ADC's code: round(V / 3.3 V x 4095), clamped; rp2040js's read_u16 scaling is the
// firmware's own.
import { GPIOPinState } from 'rp2040js';

export const MODULE_SIZES = [...Array(12).fill(12), 4, 4, 15, 15];
export const SENSORS = MODULE_SIZES.reduce((a, b) => a + b, 0);
const FIRST = MODULE_SIZES.map((_, m) => MODULE_SIZES.slice(0, m).reduce((a, b) => a + b, 0));
const ADDRESS_PINS = [2, 3, 4, 5];
const TCLK = 6;
const TOKEN = 7;
const RET = 8;
const ADC_BUS = 0;                          // GP26
const ADC_SUPPLY = 1;                       // GP27
const R_SERIES = 1000;                      // COM -> AOUT
const R_ON = 70;                            // CD74HC4067 at 3.3 V, typical
const R_PULLDOWN = 47000;
const R_ADC = 100;
const C_ADC = 1e-9;
const VREF = 3.3;
const CONVERSION_NS = 2000;

export class FrontEnd {
  constructor(seed = 1) {
    this.volts = new Float64Array(SENSORS).fill(1.02);   // the typical part, empty
    this.supply = 5.0;
    this.noiseMv = 0;
    this.breakAt = null;                    // a chain broken before module m: RET and tokens stop there
    this.stalled = false;
    this.q = new Uint8Array(MODULE_SIZES.length).fill(1);  // power-up: every flip-flop set
    this.rng = mulberry32(seed);
    this.node = { from: 0, to: 0, at: 0, tau: 1 };  // the ADC node's settling
    this.counts = { scans: 0, conversions: 0, clocks: 0 };
    this.onScanStart = null;                // (nanos) => void: a token clocked in
    this.onScanEnd = null;                  // (nanos) => void: the token clocked out of the last module
  }

  /** Wire the model to a (new) chip. */
  attach(mcu, clock) {
    this.mcu = mcu;
    this.clock = clock;
    const { volts, tau } = this.source();
    this.node = { from: volts, to: volts, at: clock.nanos, tau };
    const settle = () => this.retarget();
    for (const gp of ADDRESS_PINS) mcu.gpio[gp].addListener(settle);
    mcu.gpio[TCLK].addListener((state, old) => {
      if (state === GPIOPinState.High && old !== GPIOPinState.High) this.tclk();
    });
    mcu.gpio[RET].setInputValue(this.ret());
    const adc = mcu.adc;
    adc.onADCRead = (channel) => {
      if (this.stalled) return;             // the conversion never ends: READY stays low
      const code = this.code(channel, clock.nanos);
      this.counts.conversions += 1;
      const done = clock.createAlarm(() => adc.completeADCRead(code, false));
      done.schedule(CONVERSION_NS);
    };
  }

  /** TCLK's rising edge: every flip-flop takes its D (module 0 TOKEN, the others the one before). */
  tclk() {
    const token = this.mcu.gpio[TOKEN].value === GPIOPinState.High ? 1 : 0;
    const before = this.q[this.q.length - 1];
    for (let m = this.q.length - 1; m > 0; m--) this.q[m] = this.q[m - 1];
    this.q[0] = token;
    if (this.breakAt !== null) this.q.fill(0, this.breakAt);
    this.counts.clocks += 1;
    if (token) { this.counts.scans += 1; this.onScanStart?.(this.clock.nanos); }
    if (before && !this.q[this.q.length - 1]) this.onScanEnd?.(this.clock.nanos);
    this.mcu.gpio[RET].setInputValue(this.ret());
    this.retarget();
  }

  ret() {
    return !!this.q[this.q.length - 1];
  }

  address() {
    let k = 0;
    ADDRESS_PINS.forEach((gp, bit) => {
      if (this.mcu.gpio[gp].value === GPIOPinState.High) k |= 1 << bit;
    });
    return k;
  }

  /** What drives the ADC's node now: the voltage it settles to (Thevenin, the pull-down
   * included) and the time constant (ns) it settles with. */
  source() {
    const k = this.mcu ? this.address() : 0;
    const drivers = [];
    this.q.forEach((held, m) => {
      if (held) drivers.push(k < MODULE_SIZES[m] ? this.volts[FIRST[m] + k] : 0);
    });
    if (!drivers.length) return { volts: 0, tau: (R_PULLDOWN + R_ADC) * C_ADC * 1e9 };
    const mean = drivers.reduce((a, b) => a + b, 0) / drivers.length;
    const r = (R_ON + R_SERIES) / drivers.length;
    const thevenin = (r * R_PULLDOWN) / (r + R_PULLDOWN);
    return { volts: (mean * R_PULLDOWN) / (R_PULLDOWN + r), tau: (thevenin + R_ADC) * C_ADC * 1e9 };
  }

  /** A switch of the source: the node starts from where it is towards the new level. */
  retarget() {
    const now = this.clock.nanos;
    const { volts, tau } = this.source();
    this.node = { from: this.nodeAt(now), to: volts, at: now, tau };
  }

  nodeAt(nanos) {
    const { from, to, at, tau } = this.node;
    return to + (from - to) * Math.exp(-(nanos - at) / tau);
  }

  code(channel, nanos) {
    let v = 0;
    if (channel === ADC_BUS) {
      v = this.nodeAt(nanos);
      if (this.noiseMv > 0 && this.drivenBySensor()) v += (gauss(this.rng) * this.noiseMv) / 1000;
    } else if (channel === ADC_SUPPLY) {
      v = this.supply / 2;
    }
    return Math.max(0, Math.min(4095, Math.round((v / VREF) * 4095)));
  }

  drivenBySensor() {
    const k = this.address();
    return this.q.some((held, m) => held && k < MODULE_SIZES[m]);
  }

  /** Control: {"volts": [[sensor, v], ...]}, {"supply": v}, {"noise_mv": x}, {"break_chain": m|null}, {"stall_adc": bool}. */
  control(cmd) {
    if ('volts' in cmd) for (const [i, v] of cmd.volts) this.volts[i] = v;
    if ('supply' in cmd) this.supply = cmd.supply;
    if ('noise_mv' in cmd) this.noiseMv = cmd.noise_mv;
    if ('break_chain' in cmd) this.breakAt = cmd.break_chain;
    if ('stall_adc' in cmd) this.stalled = !!cmd.stall_adc;
    if (this.mcu) this.retarget();
  }
}

/** A small seeded generator (mulberry32), so a noisy run is the same run again. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gauss(rng) {
  const u = Math.max(rng(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}
