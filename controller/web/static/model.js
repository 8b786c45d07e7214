// What the page shows: the last snapshot from the simulator, with the hand's own last
// gesture laid over it until the snapshot confirms it. A click lifts the checker on the
// page at once (the server's answer takes a round trip); the snapshot stays the truth:
// a gesture it does not confirm within a second, or one answered by a notice, is dropped.

const PENDING_MS = 1000;

export class Model {
  constructor() {
    this.state = null;
    this.pending = null;  // {kind: "lift"|"place", cell, colour, from, at, handBefore}
  }

  /** A new snapshot: drop the pending gesture once the snapshot shows it done. */
  update(state, now) {
    this.state = state;
    const p = this.pending;
    if (!p) return;
    const hand = state.hand ?? [];
    const confirmed = p.kind === "lift"
      ? hand.some((h) => h.from === p.cell && h.colour === p.colour)
      : hand.length < p.handBefore;
    if (confirmed || now - p.at > PENDING_MS) this.pending = null;
  }

  /** The server answered with a notice (whatever the page guessed did not happen), or the
   * hand did something the page does not guess at (a convenience): show the snapshot. */
  forget() {
    this.pending = null;
  }

  lift(cell, colour, now) {
    this.pending = { kind: "lift", cell, colour, at: now };
  }

  place(cell, colour, now) {
    const held = this.hand();
    this.pending = { kind: "place", cell, colour, from: held[held.length - 1]?.from, at: now,
                     handBefore: held.length };
  }

  /** The checkers in the hand, as the page shows them. */
  hand() {
    const hand = [...(this.state?.hand ?? [])];
    const p = this.pending;
    if (p?.kind === "lift") hand.push({ colour: p.colour, from: p.cell });
    if (p?.kind === "place") hand.pop();
    return hand;
  }

  /** The board's [white, black] counts per cell, as the page shows them. */
  board() {
    const board = { ...(this.state?.board ?? {}) };
    const p = this.pending;
    if (!p) return board;
    const [w, b] = board[p.cell] ?? [0, 0];
    const d = p.kind === "lift" ? -1 : 1;
    board[p.cell] = p.colour === "white" ? [Math.max(0, w + d), b] : [w, Math.max(0, b + d)];
    return board;
  }

  /** The colour a hand takes from `cell`: the side on turn's on a shared bar. */
  topColourAt(cell) {
    const [w, b] = this.board()[cell] ?? [0, 0];
    if (w && b) return this.state?.match?.turn === "black" ? "black" : "white";
    return w ? "white" : b ? "black" : null;
  }
}
