import { describe, expect, it } from "vitest";
import { Bid, Lot, Watch } from "~/models/auction.server";
import { sequelize } from "~/models/db.server";
import { Notification } from "~/models/notification.server";
import { action as bidsAction } from "~/routes/api.bids";
import { loader as auctionsApi } from "~/routes/api.auctions";
import { loader as vehiclesApi } from "~/routes/api.vehicles";
import { loader as auctionsPage } from "~/routes/auctions._index/route";
import {
  action as lotAction,
  loader as lotPage,
  type BidActionData,
} from "~/routes/auctions.$lotId/route";
import {
  action as notificationsAction,
  loader as notificationsPage,
} from "~/routes/notifications._index";
import { decodeCursor } from "~/services/auctions/lots.server";
import { activeBidCount } from "~/services/auctions/bidding.server";
import { createTestUser, requestAs } from "../support/auth";
import { runJobs } from "../support/jobs";
import { createTestLot } from "../support/lots";
import { answerOf, statusOf } from "../support/http";
import { args } from "../support/routes";

describe("POST /api/bids", () => {
  it("places a bid and answers 201; errors are 4xx JSON with the spec's message", async () => {
    const user = await createTestUser({ verified: true, deposit: "1000.00" });
    const lot = await createTestLot();
    const ok = await bidsAction(
      args(
        await requestAs(user, "/api/bids", {
          json: { vehicleId: lot.id, amount: "100.50", isProxyBid: true, maxAmount: "300" },
        }),
      ),
    );
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({
      message: "Bid Placed Successfully: Your bid has been submitted to the auction.",
      bid: { outcome: "leading", currentBid: "100.50", bidCount: 1 },
    });

    const low = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: 120 } })),
    );
    expect(low.status).toBe(400);
    expect((await low.json()).message).toBe("Invalid Bid: Minimum bid is $150.50");

    const funds = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: "1000.01" } })),
    );
    expect((await funds.json()).message).toBe(
      "Insufficient Funds: Bid amount exceeds your available deposit.",
    );
    const missing = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: "999999999", amount: "100" } })),
    );
    expect(missing.status).toBe(404);
    const garbage = await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { amount: "x" } })),
    );
    expect(garbage.status).toBe(400);
    const unverified = await createTestUser({ verified: false, deposit: "1000.00" });
    const refused = await bidsAction(
      args(await requestAs(unverified, "/api/bids", { json: { vehicleId: lot.id, amount: 500 } })),
    );
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(
      "Verification Required: Please complete KYC verification before bidding.",
    );
    const anonymous = await answerOf<Response>(
      bidsAction(args(await requestAs(null, "/api/bids", { json: { vehicleId: lot.id } }))),
    );
    expect(anonymous.status).toBe(401);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(1);
    expect(await activeBidCount(user.id)).toBe(1);
  });
});

describe("GET /api/auctions and /api/vehicles", () => {
  it("filter on the server and page by keyset with no overlap", async () => {
    const user = await createTestUser();
    const make = `Mk${Date.now().toString(36)}`;
    const base = Date.now() + 60 * 60 * 1000;
    for (let i = 0; i < 30; i++) {
      await createTestLot({
        make,
        locationState: i % 2 === 0 ? "CA" : "TX",
        damageType: i % 3 === 0 ? "hail" : "collision",
        auctionHouse: i % 5 === 0 ? "iaai" : "copart",
        endsAt: new Date(base + (i % 7) * 60_000),
      });
    }
    const first = await auctionsApi(
      args(await requestAs(user, `/api/auctions?make=${make}&location=CA`)),
    );
    const page1 = await first.json();
    expect(page1.total).toBe(15);
    expect(page1.vehicles).toHaveLength(15);
    expect(page1.nextCursor).toBeNull();

    const all = await (
      await auctionsApi(args(await requestAs(user, `/api/auctions?make=${make}`)))
    ).json();
    expect(all.total).toBe(30);
    expect(all.vehicles).toHaveLength(24);
    expect(decodeCursor(all.nextCursor)).not.toBeNull();
    const rest = await (
      await auctionsApi(
        args(await requestAs(user, `/api/auctions?make=${make}&cursor=${all.nextCursor}`)),
      )
    ).json();
    expect(rest.vehicles).toHaveLength(6);
    const ids = [...all.vehicles, ...rest.vehicles].map((v: { id: string }) => v.id);
    expect(new Set(ids).size).toBe(30);
    const ends = [...all.vehicles, ...rest.vehicles].map((v: { endsAt: string }) => v.endsAt);
    expect([...ends].sort()).toEqual(ends);

    const hailIaai = await (
      await auctionsApi(
        args(await requestAs(user, `/api/auctions?make=${make}&damageType=hail&auctionHouse=iaai`)),
      )
    ).json();
    expect(
      hailIaai.vehicles.every(
        (v: { damageType: string; auctionHouse: string }) =>
          v.damageType === "hail" && v.auctionHouse === "iaai",
      ),
    ).toBe(true);
    expect(hailIaai.total).toBe(2);

    const list = await vehiclesApi(
      args(await requestAs(user, `/api/vehicles?make=${make}&status=active`)),
    );
    expect(list.headers.get("X-Total-Count")).toBe("30");
    expect(list.headers.get("Link")).toContain("cursor=");
    const vehicles = await list.json();
    expect(Array.isArray(vehicles)).toBe(true);
    // the soonest ends within the hour
    expect(vehicles[0]).toMatchObject({ make, status: "active", badge: "ENDING SOON" });

    const bad = await answerOf<Response>(
      auctionsApi(args(await requestAs(user, "/api/auctions?auctionHouse=ebay"))),
    );
    expect(bad.status).toBe(400);
    const anonymous = await answerOf<Response>(
      auctionsApi(args(await requestAs(null, "/api/auctions"))),
    );
    expect(anonymous.status).toBe(401);
  });

  it("pages without repeats when end times carry microseconds", async () => {
    const user = await createTestUser();
    const make = `Us${Date.now().toString(36)}`;
    await sequelize.query(
      `INSERT INTO lots (auction_house, lot_number, vin, year, make, model, location_city,
         location_state, starts_at, ends_at)
       SELECT 'copart', :prefix || g, 'MICROVIN' || lpad(g::text, 9, '0'), 2020, :make, 'X',
              'Austin', 'TX', now() - interval '1 hour',
              now() + interval '3 hours' + g * interval '1.234567 seconds'
         FROM generate_series(1, 30) AS g`,
      { replacements: { prefix: make.slice(-8), make } },
    );
    const first = await (
      await auctionsApi(args(await requestAs(user, `/api/auctions?make=${make}`)))
    ).json();
    const second = await (
      await auctionsApi(
        args(await requestAs(user, `/api/auctions?make=${make}&cursor=${first.nextCursor}`)),
      )
    ).json();
    const ids = [...first.vehicles, ...second.vehicles].map((v: { id: string }) => v.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it("searches make, model and VIN, and the More Filters", async () => {
    const user = await createTestUser();
    const vin = `5YJ3E1EA${Date.now().toString().slice(-9)}`;
    await createTestLot({
      vin,
      make: "Tesla",
      model: "Model 3",
      year: 2021,
      titleType: "rebuilt",
      runsDrives: true,
    });
    const byVin = await (
      await auctionsApi(args(await requestAs(user, `/api/auctions?search=${vin.slice(-8)}`)))
    ).json();
    expect(byVin.vehicles.map((v: { vin: string }) => v.vin)).toEqual([vin]);
    const filtered = await (
      await auctionsApi(
        args(
          await requestAs(
            user,
            `/api/auctions?search=${vin.slice(-8)}&yearMin=2021&yearMax=2021&titleType=rebuilt&runsDrives=yes`,
          ),
        ),
      )
    ).json();
    expect(filtered.total).toBe(1);
    const none = await (
      await auctionsApi(
        args(await requestAs(user, `/api/auctions?search=${vin.slice(-8)}&yearMin=2022`)),
      )
    ).json();
    expect(none.total).toBe(0);
  });
});

describe("the /auctions page and the lot page", () => {
  it("redirect a visitor to sign in", async () => {
    const response = await answerOf<Response>(
      auctionsPage(args(await requestAs(null, "/auctions"))),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toContain("/api/login");
  });

  it("a no-JS bid post redirects with a toast; an invalid one answers 400 and writes nothing", async () => {
    const user = await createTestUser({ verified: true, deposit: "2000.00" });
    const lot = await createTestLot();
    const bad = await lotAction(
      args(
        await requestAs(user, `/auctions/${lot.id}`, {
          form: { intent: "bid", amount: "10", isProxyBid: "" },
        }),
        { lotId: lot.id },
      ),
    );
    expect(statusOf(bad)).toBe(400);
    const ok = await answerOf<Response>(
      lotAction(
        args(
          await requestAs(user, `/auctions/${lot.id}`, {
            form: { intent: "bid", amount: "75", redirectTo: "/auctions?make=Ford" },
          }),
          { lotId: lot.id },
        ),
      ),
    );
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/auctions?make=Ford");
    expect(ok.headers.get("Set-Cookie")).toContain("__toast");
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(1);

    const evil = await answerOf<Response>(
      lotAction(
        args(
          await requestAs(user, `/auctions/${lot.id}`, {
            form: { intent: "bid", amount: "200", redirectTo: "https://evil.example" },
          }),
          { lotId: lot.id },
        ),
      ),
    );
    expect(evil.headers.get("Location")).toBe(`/auctions/${lot.id}`);

    const page = await lotPage(
      args(await requestAs(user, `/auctions/${lot.id}`), { lotId: lot.id }),
    );
    // the second post came from the leader: it raised their maximum only (record 2702)
    expect(page.lot).toMatchObject({ currentBid: "75.00", leading: true, myMax: "200.00" });
    expect(page.state.history).toHaveLength(1);
    expect(page.state.history[0]).toMatchObject({ amount: "75.00", mine: true });
    expect(page.state.history[0].bidder).toMatch(/^Bidder \d{4}$/);
    const other = await createTestUser();
    const seen = await lotPage(
      args(await requestAs(other, `/auctions/${lot.id}`), { lotId: lot.id }),
    );
    expect(seen.state.history[0].bidder).toBe(page.state.history[0].bidder);
    expect(seen.state.history[0].mine).toBe(false);
    expect(seen.lot.myMax).toBeNull();
    expect(JSON.stringify(seen)).not.toContain(user.id);

    const missing = await answerOf<Response>(
      lotPage(args(await requestAs(user, "/auctions/abc"), { lotId: "abc" })),
    );
    expect(missing.status).toBe(404);
  });

  it("a maximum typed without ticking Proxy bid is used, never dropped (no JS, record 3541)", async () => {
    const user = await createTestUser({ verified: true, deposit: "2000.00" });
    const lot = await createTestLot();
    const post = async (form: Record<string, string>) =>
      answerOf<Response>(
        lotAction(args(await requestAs(user, `/auctions/${lot.id}`, { form }), { lotId: lot.id })),
      );
    // the box ticked and the maximum left empty: the empty field is named, nothing written
    const empty = (await post({
      intent: "bid",
      amount: "350",
      isProxyBid: "on",
      maxAmount: "",
    })) as unknown as { data: BidActionData };
    expect(statusOf(empty)).toBe(400);
    expect(empty.data.result.error?.maxAmount).toEqual([
      "Maximum proxy bid is empty: enter the most you will bid, or untick Proxy bid.",
    ]);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(0);
    // the box unticked (a no-JS post sends no isProxyBid) and a $700 maximum typed
    const placed = await post({ intent: "bid", amount: "350", maxAmount: "700" });
    expect(placed.status).toBe(302);
    const page = await lotPage(
      args(await requestAs(user, `/auctions/${lot.id}`), { lotId: lot.id }),
    );
    expect(page.lot).toMatchObject({ leading: true, myMax: "700.00" });
    // a typed maximum not above the bid is refused with why, not silently dropped
    const other = await createTestUser({ verified: true, deposit: "2000.00" });
    const low = (await answerOf<Response>(
      lotAction(
        args(
          await requestAs(other, `/auctions/${lot.id}`, {
            form: { intent: "bid", amount: "400", maxAmount: "380" },
          }),
          { lotId: lot.id },
        ),
      ),
    )) as unknown as { data: BidActionData };
    expect(statusOf(low)).toBe(400);
    expect(low.data.result.error?.maxAmount).toEqual([
      "Invalid Proxy Bid: Maximum proxy bid must be higher than initial bid. Leave it empty for a single bid.",
    ]);
    expect(await Bid.count({ where: { lotId: lot.id } })).toBe(1);
  });

  it("the cards' Auto Bid link (?proxy=1) opens the form with Proxy bid ticked", async () => {
    const user = await createTestUser({ verified: true, deposit: "2000.00" });
    const lot = await createTestLot();
    const ticked = await lotPage(
      args(await requestAs(user, `/auctions/${lot.id}?proxy=1`), { lotId: lot.id }),
    );
    expect(ticked.proxy).toBe(true);
    const plain = await lotPage(
      args(await requestAs(user, `/auctions/${lot.id}`), { lotId: lot.id }),
    );
    expect(plain.proxy).toBe(false);
  });

  it("watch toggles the watchlist", async () => {
    const user = await createTestUser();
    const lot = await createTestLot({
      startsAt: new Date(Date.now() + 3600_000),
      endsAt: new Date(Date.now() + 86400_000),
    });
    const post = async () =>
      answerOf<Response>(
        lotAction(
          args(await requestAs(user, `/auctions/${lot.id}`, { form: { intent: "watch" } }), {
            lotId: lot.id,
          }),
        ),
      );
    expect((await post()).status).toBe(302);
    expect(await Watch.count({ where: { userId: user.id, lotId: lot.id } })).toBe(1);
    const list = await auctionsPage(args(await requestAs(user, `/auctions?search=${lot.vin}`)));
    expect(list.vehicles[0]).toMatchObject({ badge: "STARTING SOON", watching: true });
    await post();
    expect(await Watch.count({ where: { userId: user.id, lotId: lot.id } })).toBe(0);
  });

  it("reading a lot past its end writes nothing: it shows as closing until its close job runs", async () => {
    const user = await createTestUser();
    const lot = await createTestLot({
      startsAt: new Date(Date.now() - 7200_000),
      endsAt: new Date(Date.now() - 1000),
    });
    const signedIn = async () =>
      lotPage(args(await requestAs(user, `/auctions/${lot.id}`), { lotId: lot.id }));
    expect((await signedIn()).lot).toMatchObject({ badge: "CLOSING", status: "active" });
    expect((await signedIn()).lot).toMatchObject({ badge: "CLOSING", status: "active" });
    expect((await Lot.findByPk(lot.id, { rejectOnEmpty: true })).closedAt).toBeNull();
    // its close job (queued when the lot was written, due at its end) closes it
    await runJobs();
    expect((await signedIn()).lot).toMatchObject({ badge: "ENDED", status: "unsold" });
    expect((await Lot.findByPk(lot.id, { rejectOnEmpty: true })).closedAt).not.toBeNull();
  });
});

describe("/notifications", () => {
  it("lists the user's notifications and marks them read", async () => {
    const user = await createTestUser({ verified: true, deposit: "1000.00" });
    const rival = await createTestUser({ verified: true, deposit: "1000.00" });
    const lot = await createTestLot();
    await bidsAction(
      args(await requestAs(user, "/api/bids", { json: { vehicleId: lot.id, amount: 100 } })),
    );
    await bidsAction(
      args(await requestAs(rival, "/api/bids", { json: { vehicleId: lot.id, amount: 200 } })),
    );
    const page = await notificationsPage(args(await requestAs(user, "/notifications")));
    expect(page.unread).toBe(1);
    expect(page.notifications[0]).toMatchObject({
      kind: "outbid",
      title: "You were outbid",
      body: `${lot.year} ${lot.make} ${lot.model}: the current bid is now $200.00.`,
      link: `/auctions/${lot.id}`,
    });
    const marked = await answerOf<Response>(
      notificationsAction(
        args(await requestAs(user, "/notifications", { form: { id: page.notifications[0].id } })),
      ),
    );
    expect(marked.status).toBe(302);
    expect(await Notification.count({ where: { userId: user.id, readAt: null } })).toBe(0);
  });
});
