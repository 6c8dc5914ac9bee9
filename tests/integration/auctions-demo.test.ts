// Demo auctions that never run dry (docs/decisions/2755): the scheduler keeps a demo lot ending
// at every five-minute mark of the next half hour, relisting ended demo lots and never touching
// real ones; an admin ends a demo lot at once where test payments are allowed, and it closes as
// the closer would.
import { QueryTypes } from "sequelize";
import { afterEach, describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { fixedClock, resetClock, setClock } from "~/platform/clock.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { productionSecrets } from "../support/production-settings";
import { action as lotAction, loader as lotLoader } from "~/routes/auctions.$lotId/route";
import { placeBid } from "../support/bids";
import {
  DEMO_HORIZON_MS,
  DEMO_SPACING_MS,
  canEndNow,
  demoSlots,
  endDemoLotNow,
  keepDemoAuctionsRunning,
} from "~/services/auctions/demo.server";
import { toastCookie } from "~/http/cookies.server";
import { createTestUser, requestAs } from "../support/auth";
import { createTestLot } from "../support/lots";
import { args } from "../support/routes";

afterEach(() => resetClock());

const HOUR = 60 * 60_000;

/** An ended lot: unsold without bids, or sold (with its purchase); demo or real. */
async function endedLot(kind: "unsold" | "sold", demo: boolean) {
  const buyer = kind === "sold" ? await createTestUser() : null;
  const lot = await createTestLot({
    startsAt: new Date(Date.now() - 3 * 24 * HOUR),
    endsAt: new Date(Date.now() - 2 * 24 * HOUR),
    status: kind,
    closedAt: new Date(Date.now() - 2 * 24 * HOUR),
    ...(buyer
      ? { highBidderId: buyer.id, highMax: "900.00", currentBid: "900.00", bidCount: 1 }
      : {}),
  });
  await sequelize.query("UPDATE lots SET demo = :demo WHERE id = :id", {
    replacements: { demo, id: lot.id },
  });
  if (buyer)
    await sequelize.query(
      "INSERT INTO purchases (lot_id, user_id, amount, status, paid_at) VALUES (:id, :userId, 900, 'paid', now())",
      { replacements: { id: lot.id, userId: buyer.id } },
    );
  return String(lot.id);
}

async function openDemoEnds(at: Date) {
  const rows = await sequelize.query<{ ends_at: Date }>(
    `SELECT ends_at FROM lots WHERE demo AND status = 'active' AND ends_at > :at
      AND ends_at <= :until ORDER BY ends_at`,
    {
      replacements: { at, until: new Date(at.getTime() + DEMO_HORIZON_MS) },
      type: QueryTypes.SELECT,
    },
  );
  return rows.map((r) => new Date(r.ends_at).getTime());
}

const lotRow = async (id: string) =>
  (
    await sequelize.query<{ status: string; ends_at: Date; demo: boolean; lot_number: string }>(
      "SELECT status, ends_at, demo, lot_number FROM lots WHERE id = :id",
      { replacements: { id }, type: QueryTypes.SELECT },
    )
  )[0];

describe("the demo scheduler", () => {
  it("plans on a fixed five-minute grid, half an hour ahead", () => {
    const slots = demoSlots(new Date("2026-11-26T12:03:20Z"));
    expect(slots.map((s) => s.toISOString())).toEqual([
      "2026-11-26T12:05:00.000Z",
      "2026-11-26T12:10:00.000Z",
      "2026-11-26T12:15:00.000Z",
      "2026-11-26T12:20:00.000Z",
      "2026-11-26T12:25:00.000Z",
      "2026-11-26T12:30:00.000Z",
    ]);
  });

  it("is on in development and on staging, off in tests and plain production", () => {
    const production = { ...productionSecrets, FILE_STORAGE: "local" };
    expect(parseEnv({}).demoAuctions).toBe(true);
    expect(parseEnv({ NODE_ENV: "test" }).demoAuctions).toBe(false);
    expect(parseEnv(production).demoAuctions).toBe(false);
    expect(parseEnv({ ...production, ALLOW_TEST_PAYMENTS: "true" }).demoAuctions).toBe(true);
    expect(parseEnv({ DEMO_AUCTIONS: "off" }).demoAuctions).toBe(false);
    expect(parseEnv({ NODE_ENV: "test", DEMO_AUCTIONS: "on" }).demoAuctions).toBe(true);
  });

  it("keeps a demo lot ending at every mark, relisting ended demo lots and never real ones", async () => {
    const real = [await endedLot("unsold", false), await endedLot("sold", false)];
    const reopenable = [await endedLot("unsold", true), await endedLot("unsold", true)];
    const sold = await endedLot("sold", true);
    const realBefore = await Promise.all(real.map(lotRow));

    // a week on (clear of every other lot in this file), 20 s after a mark
    const week = Date.now() + 7 * 24 * HOUR;
    const at = new Date(Math.floor(week / DEMO_SPACING_MS) * DEMO_SPACING_MS + 20_000);
    setClock(fixedClock(at));
    // five ticks at once: one fills the grid, the others find it filled or locked
    const runs = await Promise.all(Array.from({ length: 5 }, () => keepDemoAuctionsRunning()));
    const opened = runs.flat();
    const slots = demoSlots(at);
    expect(opened).toHaveLength(slots.length);
    expect(await openDemoEnds(at)).toEqual(slots.map((s) => s.getTime()));
    // the two unsold demo lots were reopened in place; the rest are copies of the sold one
    expect(opened.slice(0, 2).sort()).toEqual([...reopenable].sort());
    for (const id of opened.slice(2)) {
      const copy = await lotRow(id);
      expect(copy).toMatchObject({ status: "active", demo: true });
      expect(copy.lot_number).toMatch(/^D\d{10}-\d\d$/);
    }
    expect(await lotRow(sold)).toMatchObject({ status: "sold" });
    expect(await Promise.all(real.map(lotRow))).toEqual(realBefore);

    // the next tick a minute later has nothing to do; five minutes on, one new mark
    setClock(fixedClock(new Date(at.getTime() + 60_000)));
    expect(await keepDemoAuctionsRunning()).toEqual([]);
    const later = new Date(at.getTime() + DEMO_SPACING_MS + 1000);
    setClock(fixedClock(later));
    expect(await keepDemoAuctionsRunning()).toHaveLength(1);
    expect(await openDemoEnds(later)).toEqual(demoSlots(later).map((s) => s.getTime()));
  });
});

describe("End now", () => {
  it("an admin ends a demo lot at once: sold to the leader, invoiced; audited", async () => {
    const admin = await createTestUser({ role: "admin" });
    const bidder = await createTestUser({ verified: true, deposit: "5000.00" });
    const lot = await createTestLot();
    const lotId = String(lot.id);
    await sequelize.query("UPDATE lots SET demo = true WHERE id = :lotId", {
      replacements: { lotId },
    });
    await placeBid(bidder.id, { lotId, amount: "700", isProxy: false });

    const page = await lotLoader(args(await requestAs(admin, `/auctions/${lotId}`), { lotId }));
    expect(page.endNow).toBe(true);
    const asBidder = await lotLoader(
      args(await requestAs(bidder, `/auctions/${lotId}`), { lotId }),
    );
    expect(asBidder.endNow).toBe(false);

    // a bidder posting it is refused (403), nothing changes
    const refused = await lotAction(
      args(await requestAs(bidder, `/auctions/${lotId}`, { form: { intent: "end-now" } }), {
        lotId,
      }),
    ).catch((error: unknown) => error);
    expect((refused as Response).status).toBe(403);
    expect(await lotRow(lotId)).toMatchObject({ status: "active" });

    const ended = (await lotAction(
      args(await requestAs(admin, `/auctions/${lotId}`, { form: { intent: "end-now" } }), {
        lotId,
      }),
    )) as Response;
    expect(ended.status).toBe(302);
    expect(await toastCookie.parse(ended.headers.get("set-cookie"))).toMatchObject({
      title: "Lot ended",
    });
    expect(await lotRow(lotId)).toMatchObject({ status: "sold" });
    const [purchase] = await sequelize.query<{ user_id: string; amount: string; due_at: Date }>(
      "SELECT user_id, amount::text, due_at FROM purchases WHERE lot_id = :lotId",
      { replacements: { lotId }, type: QueryTypes.SELECT },
    );
    expect(purchase).toMatchObject({ user_id: bidder.id, amount: "700.00" });
    expect(purchase.due_at).toBeTruthy();
    const [audit] = await sequelize.query<{ action: string }>(
      "SELECT action FROM admin_audit_log WHERE target_id = :lotId",
      { replacements: { lotId }, type: QueryTypes.SELECT },
    );
    expect(audit.action).toBe("lots.ended_now");
    expect(await canEndNow(lotId)).toBe(false);
  });

  it("never ends a real lot, and not at all where test payments are not allowed", async () => {
    const admin = await createTestUser({ role: "admin" });
    const real = await createTestLot();
    await expect(endDemoLotNow(admin, String(real.id))).rejects.toMatchObject({ status: 403 });
    expect(await lotRow(String(real.id))).toMatchObject({ status: "active" });

    const demo = await createTestLot();
    await sequelize.query("UPDATE lots SET demo = true WHERE id = :id", {
      replacements: { id: demo.id },
    });
    const saved = { ...process.env };
    Object.assign(process.env, {
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      APP_URL: "https://bidyard.example",
      OIDC_ISSUER: "https://id.example",
      OIDC_CLIENT_ID: "bidyard",
      OIDC_CLIENT_SECRET: "secret",
      PAYPAL_CLIENT_ID: "id",
      PAYPAL_CLIENT_SECRET: "secret",
      FILE_STORAGE: "local",
    });
    resetEnvForTests();
    try {
      expect(await canEndNow(String(demo.id))).toBe(false);
      await expect(endDemoLotNow(admin, String(demo.id))).rejects.toMatchObject({ status: 403 });
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      resetEnvForTests();
    }
    expect(await lotRow(String(demo.id))).toMatchObject({ status: "active" });
  });
});
