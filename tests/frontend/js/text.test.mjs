// Unit tests of the pure parts of the site's scripts (node --test tests/frontend/js/): words,
// numbers and the cookie reader of common/.
import assert from "node:assert/strict";
import test from "node:test";

import { cookie } from "../../../frontend/static/frontend/common/http.js";
import { capitalise, clock, countdown, format, t, useCatalogue } from "../../../frontend/static/frontend/common/text.js";

test("format fills the placeholders it has values for and keeps the others", () => {
  assert.equal(format("{a} and {b}", { a: 1 }), "1 and {b}");
  assert.equal(format("{n}", { n: 0 }), "0");
});

test("t reads the catalogue, falls back to the key, and picks plural forms by language", () => {
  useCatalogue(
    {
      moves: "Moves",
      stock_label: "Stock: {n} cards",
      stock_label_one: "Stock: 1 card",
      cards: { one: "{n} карта", few: "{n} карты", many: "{n} карт", other: "{n} карты" },
    },
    "ru",
  );
  assert.equal(t("moves"), "Moves");
  assert.equal(t("missing_key"), "missing_key");
  assert.equal(t("stock_label", { n: 1 }), "Stock: 1 card");
  assert.equal(t("stock_label", { n: 5 }), "Stock: 5 cards");
  assert.deepEqual(
    [1, 2, 5, 11, 21, 22].map((n) => t("cards", { n })),
    ["1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты"],
  );
  useCatalogue({ cards: { one: "{n} card", other: "{n} cards" } }, "en");
  assert.deepEqual([0, 1, 2].map((n) => t("cards", { n })), ["0 cards", "1 card", "2 cards"]);
});

test("clock and countdown write seconds as a person reads them", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(462.9), "7:42");
  assert.equal(clock(3723), "1:02:03");
  assert.equal(clock(null), "–");
  assert.equal(countdown(7 * 3600 + 5 * 60 + 9), "07:05:09");
  assert.equal(countdown(-3), "00:00:00");
  assert.equal(capitalise("été"), "Été");
});

test("cookie finds one cookie among several and decodes it", () => {
  assert.equal(cookie("csrftoken", "a=1; csrftoken=x%3Dy; b=2"), "x=y");
  assert.equal(cookie("missing", "a=1"), "");
});
