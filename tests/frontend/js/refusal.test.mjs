// Unit tests of the refusal sentences (game/refusal.js): built from the server's reason code
// and facts in the page's language, never from the server's English text.
import assert from "node:assert/strict";
import test from "node:test";

import { useCatalogue } from "../../../frontend/static/frontend/common/text.js";
import { factWords, refusalText } from "../../../frontend/static/frontend/game/refusal.js";

const FRENCH = {
  card_name: "{rank} de {suit}",
  rank_7: "sept",
  rank_8: "huit",
  rank_6: "six",
  rank_A: "as",
  suit_H: "cœur",
  suit_C: "trèfle",
  pile_column: "colonne {n}",
  pile_cellar: "cave",
  colour_black: "noire",
  refusal_or: " ou ",
  refusal_column_takes: "{card} ne va pas sur {onto} : seule une carte {colour} de rang « {rank} » y va.",
  refusal_row_takes: "{card} ne va pas sur {onto} : seule la carte « {ranks} » de la même couleur y va.",
  refusal_pile_empty: "{place} : vide, rien à prendre.",
  refusal_other: "Ce coup n’est pas permis ici.",
};

test("a refusal is a sentence of the page's language, from the code and the facts", () => {
  useCatalogue(FRENCH, "fr");
  const body = {
    code: "illegal_move",
    detail: "7H>T2 is not allowed here: 7H cannot go on 8H: it takes a black 7 (rule 8)",
    reason: "column_takes",
    facts: { card: "7H", onto: "8H", colour: "black", rank: "7" },
  };
  assert.equal(refusalText(body), "Sept de cœur ne va pas sur huit de cœur : seule une carte noire de rang « sept » y va.");
  assert.equal(
    refusalText({ reason: "row_takes", facts: { card: "AC", onto: "7H", ranks: ["6", "8"] } }),
    "As de trèfle ne va pas sur sept de cœur : seule la carte « six ou huit » de la même couleur y va.",
  );
  assert.equal(refusalText({ reason: "pile_empty", facts: { place: "T3" } }), "Colonne 3 : vide, rien à prendre.");
});

test("a reason the page does not know, or none, gives the general sentence, never the English", () => {
  useCatalogue(FRENCH, "fr");
  assert.equal(refusalText({ reason: "new_rule", facts: {}, detail: "English words" }), "Ce coup n’est pas permis ici.");
  assert.equal(refusalText({ detail: "English words" }), "Ce coup n’est pas permis ici.");
});

test("facts become words: cards, places, ranks, colours", () => {
  useCatalogue(FRENCH, "fr");
  assert.deepEqual(factWords({ card: "7H", place: "C", rank: "A", colour: "black", ranks: ["6"] }), {
    card: "sept de cœur",
    place: "cave",
    rank: "as",
    colour: "noire",
    ranks: "six",
  });
});
