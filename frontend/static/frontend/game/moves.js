// The moves the server listed in a state, as the board uses them. Pure: no page, no rules.

// {token, src, dst, card, count} for each of `state.moves` (the server says which face-up card
// leads each move and how many cards it carries; a stock draw's card is null).
export function movesOf(state) {
  return (state.moves || []).map((m) => {
    const [src, dst] = m.move.split(">");
    return { token: m.move, src, dst, card: m.card, count: m.count };
  });
}

// The moves from pile `src`; with a `lead` card, only those that move the cards it leads.
export function movesFrom(moves, src, lead = null) {
  const from = moves.filter((m) => m.src === src);
  return lead ? from.filter((m) => m.card === lead) : from;
}
