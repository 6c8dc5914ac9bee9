// POST /api/bids reads the session, moves the bid limiter and places the bid in one database
// call (place_bid_in_session, docs/decisions/1903). The answers must be the ones the separate
// calls gave: 401 for a session that is gone, 429 with Retry-After for a spent limiter, the
// limiter shared with every other path that counts bids, and nothing written when refused.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { Bid } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import { action as bidsAction } from "~/routes/api.bids";
import { RATE_LIMITS } from "~/platform/rate-limit.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { responseOf } from "../support/http";
import { args } from "../support/routes";

async function counter(userId: string) {
  const rows = await sequelize.query<{ points: number }>(
    "SELECT points FROM rate_limits WHERE key = $1",
    { bind: [`bid:${userId}`], type: QueryTypes.SELECT },
  );
  return rows[0]?.points ?? 0;
}

describe("a bid in one database call", () => {
  it("counts each bid on the bidder's limiter, malformed ones too", async () => {
    const user = await createTestUser({ verified: true, deposit: "1000.00" });
    const lot = await createTestLot();
    const before = await counter(user.id);
    const placed = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "100" } })),
    );
    expect(placed.status).toBe(201);
    expect(await counter(user.id)).toBe(before + 1);
    const low = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "100" } })),
    );
    expect(low.status).toBe(400);
    expect(await counter(user.id)).toBe(before + 2);
    const malformed = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "1.001" } })),
    );
    expect(malformed.status).toBe(400);
    expect(await counter(user.id)).toBe(before + 3);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(1);
  });

  it("answers 429 with Retry-After once the limiter is spent, and writes no bid", async () => {
    const user = await createTestUser({ verified: true, deposit: "1000.00" });
    const lot = await createTestLot();
    await sequelize.query(
      `INSERT INTO rate_limits (key, points, expire) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET points = EXCLUDED.points, expire = EXCLUDED.expire`,
      { bind: [`bid:${user.id}`, RATE_LIMITS.bid.points, Date.now() + 30_000] },
    );
    const refused = await responseOf(
      bidsAction(
        args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "100" } })),
      ),
    );
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect((await refused.json()).message).toBe(
      "Too many requests. Please wait a moment and try again.",
    );
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(0);

    // a spent window starts again
    await sequelize.query("UPDATE rate_limits SET expire = $2 WHERE key = $1", {
      bind: [`bid:${user.id}`, Date.now() - 1],
    });
    const again = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "100" } })),
    );
    expect(again.status).toBe(201);
    expect(await counter(user.id)).toBe(1);
  });

  it("answers 401 for a session that expired or was never made, and writes nothing", async () => {
    const user = await createTestUser({ verified: true, deposit: "1000.00" });
    const lot = await createTestLot();
    const request = await requestAs(user, "/api/bids", {
      json: { vehicleId: lot.id, amount: "100" },
    });
    await sequelize.query(
      "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      {
        bind: [user.id],
      },
    );
    const expired = await responseOf(bidsAction(args(request)));
    expect(expired.status).toBe(401);
    const forged = await responseOf(
      bidsAction(
        args(
          await requestAs(null, "/api/bids", {
            json: { vehicleId: lot.id, amount: "100" },
            headers: { Cookie: "__session=forged" },
          }),
        ),
      ),
    );
    expect(forged.status).toBe(401);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(0);
    expect(await counter(user.id)).toBe(0);
  });
});
