// The race's view as the page holds it, kept up to date from two kinds of messages (pure
// functions, no page): a whole view (REST, the socket's snapshot and events), whose `version`
// counts the changes of the race, and one racer's progress (the socket's progress messages),
// whose `version` is that racer's own. Each racer in a view names their version too, so a
// racer's figures come from whichever says the higher one.

// The figures a racer's progress carries (and their version).
const PROGRESS = ["version", "moves", "foundation_cards", "foundations", "seconds"];

function progressOf(racer) {
  return Object.fromEntries(PROGRESS.map((k) => [k, racer[k]]));
}

// A whole view over the one held: null when it is older (the held one stays); else the view,
// each racer's figures kept from the held one when those are newer.
export function mergeView(held, view) {
  if (held && view.version < held.version) return null;
  const known = new Map((held ? held.racers : []).map((r) => [r.id, r]));
  const racers = view.racers.map((racer) => {
    const mine = known.get(racer.id);
    return mine && mine.version > racer.version ? { ...racer, ...progressOf(mine) } : racer;
  });
  return { ...view, racers };
}

// One racer's progress over the view held: { race, resync }. `race` is the view with their
// new figures (the held one itself when they are not newer); `resync` says a version of theirs
// was skipped (or the racer is unknown): the page should ask for a snapshot.
export function applyProgress(held, progress) {
  const at = held.racers.findIndex((r) => r.id === progress.id);
  if (at < 0) return { race: held, resync: true };
  const racer = held.racers[at];
  if (progress.version <= racer.version) return { race: held, resync: false };
  const racers = held.racers.slice();
  racers[at] = { ...racer, ...progressOf(progress) };
  return { race: { ...held, racers }, resync: progress.version > racer.version + 1 };
}
