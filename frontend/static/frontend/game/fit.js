// The table's size for a screen: the card width that lets a layout fit both the table's width
// and the height left for it under the page's controls, and how far a long fan must close up
// to stay inside that height. Pure arithmetic, no page: table.js measures and applies it.

// The widest card for the arrangements a layout offers ({name, across, gapsAcross, tall,
// gapsTall, extra}: the table's width and height in card widths, in gaps, and in pixels of
// text), within width x height pixels; gap is one gap in pixels. The arrangement with the
// larger card wins (before the smallest card is imposed: the one that needs less room when
// neither fits); the first on a tie.
export function bestFit(arrangements, { width, height, gap, maxWidth, minWidth }) {
  let best = null;
  for (const a of arrangements) {
    const across = (width - a.gapsAcross * gap) / a.across;
    const tall = (height - a.gapsTall * gap - (a.extra || 0)) / a.tall;
    const raw = Math.min(maxWidth, across, tall);
    if (!best || raw > best.raw + 0.5) best = { name: a.name, raw };
  }
  return { name: best.name, width: Math.max(minWidth, best.raw) };
}

// The fan offsets of a column of `down` face-down and `up` face-up cards under its top card:
// the natural ones when the column fits in `budget` pixels, else closed up (the face-down
// strips first, down to half) so that it does; a face-up strip never goes under `minFan`.
export function fanFor({ budget, cardHeight, down, up, fanDown, fanUp, minFan = 6 }) {
  if (cardHeight + down * fanDown + up * fanUp <= budget) return { fanDown, fanUp };
  const room = Math.max(0, budget - cardHeight);
  if (!up) return { fanDown: Math.max(minFan / 2, Math.min(fanDown, room / Math.max(down, 1))), fanUp };
  const closedDown = Math.max(minFan / 2, Math.min(fanDown / 2, room / (down + up)));
  const fu = Math.max(minFan, Math.min(fanUp, (room - down * closedDown) / up));
  return { fanDown: closedDown, fanUp: fu };
}
