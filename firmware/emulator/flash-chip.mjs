// The Pico's QSPI flash (a W25Q16JV) as the bootrom's flash functions drive it, so that
// MicroPython's littlefs on the flash works. rp2040js serves execute-in-place reads from its
// flash array but ignores erase and program commands, its SSI has no receive FIFO, and its
// IO_QSPI is unimplemented (every read 0xffffffff): the bootrom's flash functions read that
// as their abort flag (GPIO_QSPI_SD1_CTRL INOVER, the debugger's way to stop a flash
// operation) and return at once, so `_boot.py` never formatted the filesystem and every
// open() for writing failed (ENODEV).
//
// Here IO_QSPI keeps its registers (no abort), the SSI has its receive FIFO in direct mode
// (each byte clocked out brings one in; RXFLR counts them, DR0 pops them; disabling the SSI
// clears it, as DW_apb_ssi does: boot2 leaves bytes it never reads there), and while the
// SS pin is forced low through GPIO_QSPI_SS_CTRL OUTOVER (as the bootrom's flash functions
// and pico-sdk's flash_do_cmd select the chip) every byte goes to a command decoder
// (W25Q16JV datasheet, 8.2):
//   06 write enable; 04 write disable; 05 read status (never busy: erase and program are
//   instant here); 03 read data; 9F JEDEC ID (EF 40 15);
//   02 page program (bits only go 1 -> 0, the address wraps within its 256-byte page);
//   20 / 52 / D8 erase 4 / 32 / 64 KiB to FF (write enable needed, as on the chip).
// XIP reads and the bootrom's other commands (the continuous-read exit, the QE setup) pass
// through untouched.
const IO_QSPI = 0x40018;
const SS_CTRL = 0x0c;                       // GPIO_QSPI_SS_CTRL
const OUTOVER_LOW = 2;
const SSI = 0x18000;                        // XIP_SSI at 0x18000000
const SSI_SSIENR = 0x08;
const SSI_TXFLR = 0x20;
const SSI_RXFLR = 0x24;
const SSI_SR = 0x28;
const SSI_DR0 = 0x60;
const SR_TFNF_TFE = 0x06;                   // transmit FIFO not full and empty: bytes go at once
const SR_RFNE = 0x08;
const FIFO_DEPTH = 16;
const ERASE_SIZES = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };
const JEDEC_ID = [0xef, 0x40, 0x15];

/** IO_QSPI's registers, kept (rp2040js answers 0xffffffff and drops writes). */
class QspiIo {
  constructor(onSsCtrl) {
    this.regs = new Uint32Array(12);
    this.onSsCtrl = onSsCtrl;
    this.rawWriteValue = 0;
  }

  readUint32(offset) {
    return offset < 0x30 ? this.regs[offset >> 2] : 0;
  }

  writeUint32(offset, value) {
    if (offset >= 0x30) return;
    this.regs[offset >> 2] = value >>> 0;
    if (offset === SS_CTRL) this.onSsCtrl(value);
  }

  writeUint32Atomic(offset, value, atomicType) {
    this.rawWriteValue = value;
    const old = this.readUint32(offset);
    const next = [value, old ^ value, old | value, old & ~value][atomicType];
    this.writeUint32(offset, next);
  }
}

export class FlashChip {
  constructor() {
    this.counts = { erases: 0, pages: 0, refused: 0 };
  }

  /** Wire the model into a (new) chip; the flash array is the chip's own. */
  attach(mcu) {
    this.flash = mcu.flash;
    this.selected = false;
    this.bytes = [];
    this.writeEnabled = false;
    mcu.peripherals[IO_QSPI] = new QspiIo((value) => this.select(((value >> 8) & 3) === OUTOVER_LOW));
    const ssi = mcu.peripherals[SSI];
    const rx = [];
    const read = ssi.readUint32.bind(ssi);
    const write = ssi.writeUint32.bind(ssi);
    ssi.readUint32 = (offset) => {
      if (offset === SSI_TXFLR) return 0;
      if (offset === SSI_RXFLR) return rx.length;
      if (offset === SSI_SR) return SR_TFNF_TFE | (rx.length ? SR_RFNE : 0);
      if (offset === SSI_DR0) return rx.length ? rx.shift() : 0;
      return read(offset);
    };
    ssi.writeUint32 = (offset, value) => {
      if (offset === SSI_SSIENR && !(value & 1)) rx.length = 0;   // disabled: FIFOs cleared
      if (offset !== SSI_DR0) { write(offset, value); return; }
      const answer = this.selected ? this.byte(value & 0xff) : null;
      if (rx.length < FIFO_DEPTH) rx.push(answer ?? 0);
    };
  }

  select(low) {
    if (this.selected && !low && this.bytes[0] === 0x02) this.writeEnabled = false;
    if (low !== this.selected) this.bytes = [];
    this.selected = low;
  }

  address() {
    const [, a2, a1, a0] = this.bytes;
    return (a2 << 16) | (a1 << 8) | a0;
  }

  /** One byte clocked in while selected; the byte clocked out, or null for none (0). */
  byte(value) {
    this.bytes.push(value);
    const n = this.bytes.length;
    const cmd = this.bytes[0];
    if (n === 1 && cmd === 0x06) this.writeEnabled = true;
    if (n === 1 && cmd === 0x04) this.writeEnabled = false;
    if (cmd === 0x9f && n >= 2) return JEDEC_ID[n - 2] ?? 0;
    if (cmd === 0x03 && n >= 5) return this.flash[(this.address() + n - 5) & 0xffffff];
    if (cmd in ERASE_SIZES && n === 4) {
      if (!this.writeEnabled) { this.counts.refused += 1; return null; }
      const size = ERASE_SIZES[cmd];
      const start = this.address() & ~(size - 1);
      this.flash.fill(0xff, start, start + size);
      this.counts.erases += 1;
      this.writeEnabled = false;
    }
    if (cmd === 0x02 && n >= 5) {
      if (!this.writeEnabled) { this.counts.refused += 1; return null; }
      const page = this.address() & ~0xff;
      const at = page | ((this.address() + n - 5) & 0xff);
      this.flash[at] &= value;
      if (n === 5) this.counts.pages += 1;
    }
    return null;
  }
}
