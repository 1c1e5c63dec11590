// The leaderboard page's rows, as plain data: which rows to show and where the gaps are. Pure
// (no page): the ranks, ties included, are the server's (each row carries its rank).

// The top of the board and, when you are further down, the rows around you, in rank order.
// Display names are unique, so a player appears once (the top's row wins).
export function mergeRows(top, around) {
  const names = new Set(top.map((row) => row.player));
  return [...top, ...around.filter((row) => !names.has(row.player))].sort((a, b) => a.rank - b.rank);
}

// How many of `rows` share each rank (a rank shown twice or more is a tie).
export function rankCounts(rows) {
  const counts = new Map();
  for (const row of rows) counts.set(row.rank, (counts.get(row.rank) || 0) + 1);
  return counts;
}

// Whether rows were left out between `previous` and `row` (the top of the board, then the rows
// around you): the next rank after a group of tied rows is the group's rank plus its size.
export function gapBefore(previous, row, counts) {
  return Boolean(previous) && row.rank > previous.rank + counts.get(previous.rank);
}

// A line of the race feed in words: "Ann won in 84 moves, 2 undos", "Bob: 1 card on the
// foundations after 3 moves" (`t` is the page's catalogue, plural forms included).
export function feedLine(item, t) {
  let moves = t("n_moves", { n: item.moves ?? 0 });
  if (item.undos) moves = `${moves}, ${t("undos_note", { n: item.undos })}`;
  const cards = t("n_cards", { n: item.foundation_cards ?? 0 });
  return t(item.status === "won" ? "feed_won" : "feed_progress", { player: item.player, moves, cards });
}
