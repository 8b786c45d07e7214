// The optional UART link (hardware/README.md): the Pico's UART0 on GP0 (TX) and GP1 (RX),
// 115200 8N1, to a host. rp2040js's UART passes bytes without a line; this gives it one:
//
// - the board's bytes go through a 32-byte TX FIFO, one per character time, and leave only
//   while GP0 is muxed to UART0 (function 2), as on the chip, where a pin left as GPIO sends
//   nothing; the TX interrupt is the PL011's (ARM DDI 0183, 2.4.3): raised when the FIFO
//   level drops through the UARTIFLS trigger level, cleared by filling it above that level
//   or by UARTICR. rp2040js's own raises it at every check, which MicroPython's interrupt
//   handler (it clears it and returns) answers forever: the board hung in the handler;
// - the host's bytes arrive one per character time (10 bits at the host's baud rate) in
//   emulated time, only while GP1 is muxed to UART0 and the UART receives; a byte that finds
//   the 32-byte RX FIFO full is lost (an overrun), as a real UART loses it;
// - the board's baud rate (from its divider and clk_peri) is reported, so a test sees the
//   firmware set the host's rate: rp2040js does not garble a mismatch, and the board's
//   bytes take the host's character time here.
const UART_FUNCTION = 2;                    // RP2040 datasheet 2.19.2: GP0/GP1 F2 = UART0 TX/RX
const TX_PIN = 0;
const RX_PIN = 1;
const FIFO_DEPTH = 32;
const UARTIFLS = 0x34;
const IFLS_RESET = 0x12;                    // both trigger levels at half full
const TRIGGER_EIGHTHS = [1, 2, 4, 6, 7];    // TXIFLSEL: <= 1/8, 1/4, 1/2, 3/4, 7/8 full
const TXINTR = 1 << 5;
const FLAG_BUSY = 1 << 3;
const FLAG_RXFE = 1 << 4;
const FLAG_TXFF = 1 << 5;
const FLAG_RXFF = 1 << 6;
const FLAG_TXFE = 1 << 7;

export class UartLine {
  constructor(write, hostBaud = 115200) {
    this.write = write;                     // (Uint8Array) => void: bytes to the host
    this.byteNs = Math.round((10 * 1e9) / hostBaud);
    this.toBoard = [];
    // to_board_unheard: host bytes that came while GP1 was no UART input or the UART was off
    this.counts = { to_host: 0, to_board: 0, overruns: 0, to_board_unheard: 0, to_host_unmuxed: 0 };
    this.chip = null;
  }

  /** Wire the line to a (new) chip; the host's bytes still on their way keep going. */
  attach(mcu, clock) {
    const uart = mcu.uart[0];
    const chip = {
      mcu, uart, out: [], tx: [], sending: false, ifls: IFLS_RESET,
      alarm: clock.createAlarm(() => this.deliver()),
      txAlarm: clock.createAlarm(() => this.shiftOut()),
    };
    this.chip = chip;
    const txTrigger = () => (FIFO_DEPTH * (TRIGGER_EIGHTHS[chip.ifls & 7] ?? 4)) / 8;
    chip.txTrigger = txTrigger;
    uart.checkInterrupts = () => mcu.setInterrupt(uart.irq, !!(uart.interruptStatus & uart.interruptMask));
    Object.defineProperty(uart, 'flags', {
      get: () => (uart.rxFIFO.full ? FLAG_RXFF : 0) | (uart.rxFIFO.empty ? FLAG_RXFE : 0)
        | (chip.tx.length >= FIFO_DEPTH ? FLAG_TXFF : 0)
        | (!chip.tx.length && !chip.sending ? FLAG_TXFE : 0) | (chip.sending ? FLAG_BUSY : 0),
    });
    const read = uart.readUint32.bind(uart);
    const write = uart.writeUint32.bind(uart);
    uart.readUint32 = (offset) => (offset === UARTIFLS ? chip.ifls : read(offset));
    uart.writeUint32 = (offset, value) => {
      if (offset === UARTIFLS) chip.ifls = value & 0x3f;
      else write(offset, value);
    };
    uart.onByte = (b) => {
      if (chip.tx.length < FIFO_DEPTH) chip.tx.push(b);
      if (chip.tx.length > txTrigger()) uart.interruptStatus &= ~TXINTR;
      uart.checkInterrupts();
      if (!chip.sending) { chip.sending = true; chip.txAlarm.schedule(this.byteNs); }
    };
    if (this.toBoard.length) chip.alarm.schedule(this.byteNs);
  }

  /** One character of the board's has left the TX shift register. */
  shiftOut() {
    const chip = this.chip;
    const b = chip.tx.shift();
    if (chip.mcu.gpio[TX_PIN].functionSelect === UART_FUNCTION) chip.out.push(b);
    else this.counts.to_host_unmuxed += 1;
    if (chip.tx.length === Math.floor(chip.txTrigger())) {
      chip.uart.interruptStatus |= TXINTR;   // the level dropped through the trigger
      chip.uart.checkInterrupts();
    }
    if (chip.tx.length) chip.txAlarm.schedule(this.byteNs);
    else chip.sending = false;
  }

  /** The board's bytes of the last slice, written out at once. */
  flush() {
    const out = this.chip?.out;
    if (!out || !out.length) return;
    this.counts.to_host += out.length;
    this.write(Uint8Array.from(out.splice(0)));
  }

  /** Bytes from the host: they start on the line now, one character time apart. */
  feed(bytes) {
    const idle = !this.toBoard.length;
    for (const b of bytes) this.toBoard.push(b);
    if (idle && this.chip) this.chip.alarm.schedule(this.byteNs);
  }

  deliver() {
    const { mcu, uart, alarm } = this.chip;
    const b = this.toBoard.shift();
    if (mcu.gpio[RX_PIN].functionSelect !== UART_FUNCTION || !uart.enabled || !uart.rxEnabled) {
      this.counts.to_board_unheard += 1;
    } else if (uart.rxFIFO.full) {
      this.counts.overruns += 1;
    } else {
      uart.feedByte(b);
      this.counts.to_board += 1;
    }
    if (this.toBoard.length) alarm.schedule(this.byteNs);
  }

  stats() {
    const uart = this.chip?.uart;
    return { ...this.counts, board_baud: uart && uart.baudDivider ? uart.baudRate : null };
  }
}
