// Auto-move (a setting, off unless turned on): after each of the player's card moves, the page
// sends, one at a time, the foundation moves the server's state names safe (`safe_moves`: they
// never cost a win nor lengthen the shortest one), and nothing else: never an undo, never a
// move the server did not name. It stops as soon as the player acts (a press or a key), an undo
// starts nothing, and a card the player took back from its foundation by undoing an auto-move
// is not sent up again in this game. Each auto-move is a move like any other, ranked or not.

export class AutoMove {
  // game: the Game (state, moves, busy, move()); enabled(): the setting; waiting(): whether
  // the player's taps wait their turn; decided(seq): told each time the chain stops (the page
  // marks it for its tests).
  constructor(game, { enabled, waiting = () => false, decided = () => {} }) {
    this.game = game;
    this.enabled = enabled;
    this.waiting = waiting;
    this.decided = decided;
    this.acts = 0; // grows each time the player acts: a chain begun before stops
    this.played = []; // the moves made here, oldest first: {card, auto}, popped by undos
    this.declined = new Set(); // cards whose auto-move the player undid
  }

  // The player pressed or typed something.
  interrupt() {
    this.acts += 1;
  }

  // After the game played `token` ({card, auto}): a player's card move starts a chain, an
  // auto-move goes on with it, an undo ends it.
  after(token, { card = null, auto = false } = {}) {
    if (token === "U") {
      const undone = this.played.pop();
      if (undone && undone.auto) this.declined.add(undone.card);
      this.stop();
      return;
    }
    this.played.push({ card, auto });
    const chain = this.acts;
    // Once the game is idle again (the move's answer drawn, waiting taps replayed first).
    setTimeout(() => this.step(chain), 0);
  }

  step(chain) {
    const game = this.game;
    if (chain !== this.acts || !this.enabled() || this.waiting() || game.busy || !game.playing()) {
      this.stop();
      return;
    }
    const move = game.state.safe_moves
      .map((token) => game.moves.find((m) => m.token === token))
      .find((m) => m && !this.declined.has(m.card));
    if (!move) {
      this.stop();
      return;
    }
    game.move(move.token, { card: move.card, src: move.src, dst: move.dst, auto: true }).then((played) => {
      if (!played) this.stop(); // refused (another tab moved first): the chain ends
    });
  }

  stop() {
    if (this.game.state) this.decided(this.game.state.seq);
  }
}

// The auto-move of a page's table (`root`): the player's presses and keys there interrupt it;
// the page marks where each chain stopped (data-auto-move-seq).
export function autoMoveFor(root, game, board, enabled) {
  const auto = new AutoMove(game, {
    enabled,
    waiting: () => board.queue.length > 0,
    decided: (seq) => {
      root.dataset.autoMoveSeq = String(seq);
    },
  });
  root.addEventListener("pointerdown", () => auto.interrupt(), true);
  document.addEventListener("keydown", () => auto.interrupt(), true);
  return auto;
}
