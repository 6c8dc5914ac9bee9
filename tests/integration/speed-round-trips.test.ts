// What a page costs the database (docs/decisions/2903, 2904): the statements a signed-in page's
// loaders send, counted as connections taken from the pool (one per statement outside a
// transaction), with the answers they must still give.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import { notify } from "~/platform/notifications.server";
import { getSettings } from "~/services/admin/settings.server";
import { loader as rootLoader } from "~/root";
import { createTestUser, requestAs } from "../support/auth";
import { args } from "../support/routes";

/** Statements sent while `work` runs. */
async function roundTrips<T>(work: () => Promise<T>) {
  const spy = vi.spyOn(sequelize.connectionManager, "getConnection");
  try {
    const result = await work();
    return { result, count: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

/** The text of every statement sent while `work` runs. */
async function statementsDuring<T>(work: () => Promise<T>) {
  const manager = sequelize.connectionManager as unknown as {
    getConnection: (options?: object) => Promise<{ query: (...args: unknown[]) => unknown }>;
  };
  const texts: string[] = [];
  const original = manager.getConnection.bind(manager);
  const spy = vi.spyOn(manager, "getConnection").mockImplementation(async (options) => {
    const connection = await original(options);
    const query = connection.query;
    connection.query = function (this: unknown, ...args: unknown[]) {
      const first = args[0] as string | { text: string };
      texts.push(typeof first === "string" ? first : first.text);
      connection.query = query; // once per acquisition: the connection goes back to the pool
      return query.apply(this, args);
    };
    return connection;
  });
  try {
    return { result: await work(), texts };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("a signed-in page's own work", () => {
  it("is one statement: the session, its user and the unread count together", async () => {
    const user = await createTestUser({ firstName: "Rounds" });
    await notify(user.id, { kind: "test", title: "One" });
    await notify(user.id, { kind: "test", title: "Two" });
    await getSettings(); // this process's copy of the settings, at most a second old
    const request = await requestAs(user, "/no-such-page");
    const { result, count } = await roundTrips(() => rootLoader(args(request)));
    expect(count).toBe(1);
    const data = (result as unknown as { data: Record<string, unknown> }).data;
    expect(data.user).toMatchObject({ id: user.id, firstName: "Rounds", deposit: "0.00" });
    expect(data.unreadNotifications).toBe(2);
  });
});

describe("the auction list under a crowd", () => {
  it("counts once for twenty requests of the same filter, and never probes or closes lots", async () => {
    const { forgetLotCounts, searchLots, parseAuctionQuery } =
      await import("~/services/auctions/lots.server");
    const { createTestLot } = await import("../support/lots");
    const make = `Crowd${Date.now()}`;
    for (let i = 0; i < 3; i += 1) await createTestLot({ make });
    // ended a minute ago, not closed yet: no longer on the open list, and left to the closer
    const overdue = await createTestLot({ make, endsAt: new Date(Date.now() - 60_000) });
    forgetLotCounts();
    const user = await createTestUser();
    const query = parseAuctionQuery(new URLSearchParams({ make }))!;
    // pages of two, so the first page does not hold every match and a count is needed
    const statements = await statementsDuring(() =>
      Promise.all(Array.from({ length: 20 }, () => searchLots(query, user.id, 2))),
    );
    const pages = statements.result;
    expect(pages.every((page) => page.total === 3 && page.vehicles.length === 2)).toBe(true);
    expect(statements.texts.filter((text) => /count\(\*\)/i.test(text))).toHaveLength(1);
    // the overdue-lot probe and close belong to the closing loop, not to a list request
    expect(statements.texts.filter((text) => /ends_at <=|FOR UPDATE/.test(text))).toEqual([]);
    expect(statements.texts).toHaveLength(21);
    expect(pages[0].vehicles.map((lot) => lot.id)).not.toContain(String(overdue.id));
  });
});

describe("the auction list page", () => {
  it("is two statements with its count known: the session read (buying power included) and the list", async () => {
    const { loader: auctionsLoader } = await import("~/routes/auctions._index/route");
    const { createTestLot } = await import("../support/lots");
    const make = `Pair${Date.now()}`;
    for (let i = 0; i < 30; i += 1) await createTestLot({ make });
    const user = await createTestUser();
    await sequelize.query("UPDATE users SET deposit = 5000, verified = true WHERE id = :id", {
      replacements: { id: user.id },
    });
    // the first request for this filter counts its 30 lots; the next ones have the count
    await auctionsLoader(args(await requestAs(user, `/auctions?make=${make}`)));
    const request = await requestAs(user, `/auctions?make=${make}`);
    await getSettings(); // this process's copy, at most a second old
    const { result, texts } = await statementsDuring(() =>
      Promise.all([rootLoader(args(request)), auctionsLoader(args(request))]),
    );
    expect(texts, texts.join("\n---\n")).toHaveLength(2);
    const page = result[1];
    expect(page.total).toBe(30);
    expect(page.vehicles).toHaveLength(24);
    expect(page.bidder.available).toBe("5000.00");
  });
});
