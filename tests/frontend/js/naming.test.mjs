// The end's offer of a name: what is sent, and what a refusal is said as.
import assert from "node:assert/strict";
import test from "node:test";

import { refusalKey, tidyName } from "../../../frontend/static/frontend/game/naming.js";

test("a name is sent tidied, and only when its length is allowed", () => {
  assert.equal(tidyName("  Ann   Lee "), "Ann Lee");
  assert.equal(tidyName("A"), "");
  assert.equal(tidyName("x".repeat(25)), "");
  assert.equal(tidyName("x".repeat(24)), "x".repeat(24));
  assert.equal(tidyName(undefined), "");
});

test("a refused name says why: taken, not allowed, too many tries, or anything else", () => {
  assert.equal(refusalKey({ status: 409, code: "display_name_taken" }), "name_offer_taken");
  assert.equal(refusalKey({ status: 400, code: "invalid" }), "name_offer_bad");
  assert.equal(refusalKey({ status: 429, code: "throttled" }), "name_offer_throttled");
  assert.equal(refusalKey({ status: 0, code: "network" }), "name_offer_failed");
  assert.equal(refusalKey(null), "name_offer_failed");
});
