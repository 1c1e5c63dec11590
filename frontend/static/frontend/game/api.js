// The play page's requests: the REST API's attempt endpoints, and the end panel's reads. A
// move is safe to send again (a repeated seq answers as the first time), so the play requests
// retry on the network and on 5xx/429.

import { request } from "../common/http.js";

const PLAY = { retries: 4 };
const READ = { retries: 1 };

export const api = {
  start: (game, date) => request("POST", `/api/dailies/${game}/${date}/attempts/`, undefined, PLAY),
  state: (id) => request("GET", `/api/attempts/${id}/`, undefined, PLAY),
  move: (id, seq, move) => request("POST", `/api/attempts/${id}/moves/`, { seq, move }, PLAY),
  resign: (id) => request("POST", `/api/attempts/${id}/resign/`, undefined, PLAY),
  // A hint searches on the server for up to a second or two; asked again only by the player.
  hint: (id) => request("POST", `/api/attempts/${id}/hint/`),
  // A ranked game whose day ended while it was played goes on in practice (the same moves).
  continueAsPractice: (id) => request("POST", `/api/attempts/${id}/continue/`, undefined, PLAY),
  finish: (id, seq) => request("POST", `/api/attempts/${id}/finish/`, { seq }, PLAY),
  // The end panel's reads: your row of the day's board, the day's histogram, and the solver's
  // line of a day that is over (a page of the site, not the API: it is never served sooner).
  board: (game, date) => request("GET", `/api/leaderboards/${game}/${date}/?around=me`, undefined, READ),
  distribution: (game, date) => request("GET", `/api/leaderboards/${game}/${date}/distribution/`, undefined, READ),
  solution: (game, date) => request("GET", `/play/${game}/${date}/solution/`, undefined, READ),
  // What today's results do to your week's points, overall and in your leagues.
  week: () => request("GET", "/api/players/me/week/", undefined, READ),
  // Whether friends may race this game's deal (the server's rule), and the race made on it.
  raceOffer: (id) => request("GET", `/api/races/offer/${id}/`, undefined, READ),
  raceMake: (game, id) => request("POST", "/api/races/", { game, attempt: id }),
};
