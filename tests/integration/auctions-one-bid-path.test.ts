// The lot page's form and POST /api/bids place a bid the same one way (docs/decisions/3602):
// placeBid, whose one statement is place_bid_in_session (db/functions/030), which calls place_bid.
// The service has no other way in, and the app calls no bid function but that one.
import fs from "node:fs";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { describe, expect, it, vi } from "vitest";
import { Bid } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import { action as bidsAction } from "~/routes/api.bids";
import { action as lotAction } from "~/routes/auctions.$lotId/route";
import * as bidding from "~/services/auctions/bidding.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";

vi.mock("~/services/auctions/bidding.server", async (original) => {
  const real = await original<typeof import("~/services/auctions/bidding.server")>();
  return { ...real, placeBid: vi.fn(real.placeBid) };
});

const args = (request: Request, params: Record<string, string> = {}) => ({
  request,
  params,
  context: {},
});

async function outcome(promise: Promise<unknown>): Promise<Response> {
  try {
    return (await promise) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function counter(userId: string) {
  const rows = await sequelize.query<{ points: number }>(
    "SELECT points FROM rate_limits WHERE key = $1",
    { bind: [`bid:${userId}`], type: QueryTypes.SELECT },
  );
  return rows[0]?.points ?? 0;
}

describe("one bid path", () => {
  it("the form and /api/bids both place their bid through placeBid, on the same limiter", async () => {
    const spy = vi.mocked(bidding.placeBid);
    const user = await createTestUser({ verified: true, deposit: "2000.00" });
    const lot = await createTestLot();

    spy.mockClear();
    const byForm = await outcome(
      lotAction(
        args(
          await requestAs(user, `/auctions/${lot.id}`, { form: { intent: "bid", amount: "75" } }),
          { lotId: lot.id },
        ),
      ),
    );
    expect(byForm.status).toBe(302);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0][1]).toMatchObject({ lotId: lot.id, amount: "75", isProxy: false });
    expect(await counter(user.id)).toBe(1);

    spy.mockClear();
    const byApi = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "200" } })),
    );
    expect(byApi.status).toBe(201);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0][1]).toMatchObject({ lotId: lot.id, amount: "200", isProxy: false });
    expect(await counter(user.id)).toBe(2);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(2);
  });

  it("the form answers a spent limiter with the 429 /api/bids gives, and writes no bid", async () => {
    const user = await createTestUser({ verified: true, deposit: "2000.00" });
    const lot = await createTestLot();
    await sequelize.query(
      "INSERT INTO rate_limits (key, points, expire) VALUES ($1, 1000000, $2)",
      { bind: [`bid:${user.id}`, Date.now() + 30_000] },
    );
    const refused = await outcome(
      lotAction(
        args(
          await requestAs(user, `/auctions/${lot.id}`, { form: { intent: "bid", amount: "75" } }),
          { lotId: lot.id },
        ),
      ),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(0);
  });

  it("the service has one way to place a bid, and the app calls no other bid function", async () => {
    const real = await vi.importActual<typeof import("~/services/auctions/bidding.server")>(
      "~/services/auctions/bidding.server",
    );
    expect("placeBidInSession" in real).toBe(false);
    expect(typeof real.placeBid).toBe("function");
    const calls: string[] = [];
    for (const root of ["app", "server"]) {
      for (const name of fs.readdirSync(root, { recursive: true }) as string[]) {
        if (!/\.tsx?$/.test(name)) continue;
        const file = path.join(root, name);
        for (const m of fs.readFileSync(file, "utf8").matchAll(/place_bid(_in_session)?\(/g))
          calls.push(`${file}: ${m[0]}`);
      }
    }
    expect(calls).toEqual(["app/services/auctions/bidding.server.ts: place_bid_in_session("]);
  });
});
