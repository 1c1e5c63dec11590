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

// The move one tap on the card `lead` of pile `src` makes (the one-tap "smart move"): to its
// foundation when the server lists that, else to its only listed place; null when it has no
// move or several places (the card is then picked up). `spared`: the names of places a tap
// never fills (a layout's: Masterpiece's one-card cellar); a card whose only place is one of
// them is picked up, and the person puts it there if they mean it.
export function smartMove(moves, src, lead, { spared = [] } = {}) {
  const from = movesFrom(moves, src, lead);
  const places = new Set(from.map((m) => m.dst));
  const home = from.find((m) => m.dst === "F");
  if (home) return home;
  return places.size === 1 && !spared.includes(from[0].dst) ? from[0] : null;
}
