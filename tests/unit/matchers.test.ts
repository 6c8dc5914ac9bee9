// The custom matchers of tests/support/matchers.ts (a setup file of every project).
import { describe, expect, it } from "vitest";
import { UserError } from "~/utils/user-error";

class LotError extends UserError {}

describe("toBeRefused", () => {
  it("takes a thrown UserError (any subclass) with its status, and its whole message or a pattern", async () => {
    const refused = () => Promise.reject(new LotError("This lot has closed.", { status: 409 }));
    await expect(refused()).toBeRefused(409);
    await expect(refused()).toBeRefused(409, "This lot has closed.");
    await expect(refused()).toBeRefused(409, /has closed/);
    await expect(refused()).not.toBeRefused(400);
    await expect(refused()).not.toBeRefused(409, "This lot has");
    await expect(refused()).not.toBeRefused(409, /still open/);
  });

  it("takes a Response, returned or thrown, with its status and the message in its body", async () => {
    const json = () => Response.json({ error: "Cross-origin request refused" }, { status: 403 });
    await expect(json()).toBeRefused(403, "Cross-origin request refused");
    await expect(Promise.resolve(json())).toBeRefused(403, /Cross-origin/);
    await expect(Promise.reject(json())).toBeRefused(403);
    await expect(json()).not.toBeRefused(404);
    const page = new Response("<p>You can&#x27;t bid on your own lot</p>", {
      status: 400,
      headers: { "content-type": "text/html" },
    });
    await expect(page).toBeRefused(400, "You can't bid on your own lot");
  });

  it("fails on an answer that is not a refusal, and lets any other error through", async () => {
    await expect(expect(Promise.resolve({ ok: true })).toBeRefused(400)).rejects.toThrow(
      /expected a refusal 400, got accepted/,
    );
    await expect(Promise.resolve("fine")).not.toBeRefused(400);
    await expect(expect(Promise.reject(new TypeError("a bug"))).toBeRefused(400)).rejects.toThrow(
      "a bug",
    );
  });
});
