import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { alertWatchedLotsEndingSoon, matchSavedSearches } from "~/services/alerts/matching.server";
import {
  listSavedSearches,
  saveSearch,
  updateSavedSearch,
} from "~/services/alerts/saved-searches.server";
import { createTestUser } from "../support/auth";
import { createTestListing } from "../support/listings";
import { createTestLot } from "../support/lots";

async function notificationsOf(userId: string, kind: string) {
  return sequelize.query<{ title: string; link: string }>(
    "SELECT title, link FROM notifications WHERE user_id = :userId AND kind = :kind ORDER BY id",
    { replacements: { userId, kind }, type: QueryTypes.SELECT },
  );
}

async function mailsTo(userId: string) {
  return sequelize.query<{ subject: string; text_body: string; topic: string }>(
    "SELECT subject, text_body, topic FROM mail_outbox WHERE user_id = :userId ORDER BY id",
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
}

async function statusOf(promise: Promise<unknown>) {
  try {
    await promise;
    return 200;
  } catch (error) {
    return (error as { status?: number }).status ?? 500;
  }
}

describe("saved searches", () => {
  it("save a filter once, whatever its order, paging or status; refuse bad filters", async () => {
    const user = await createTestUser();
    const first = await saveSearch(user.id, {
      scope: "auctions",
      query: "make=Ford&location=TX&cursor=abc&status=active",
      email: true,
    });
    const again = await saveSearch(user.id, {
      scope: "auctions",
      query: "location=tx&make=Ford",
      email: false,
    });
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    const [saved] = await listSavedSearches(user.id);
    expect(saved).toMatchObject({ query: "location=TX&make=Ford", label: "Ford · TX" });

    expect(
      await statusOf(
        saveSearch(user.id, { scope: "auctions", query: "damageType=lava", email: true }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        saveSearch(user.id, { scope: "community", query: "yearMin=abc", email: true }),
      ),
    ).toBe(400);

    const other = await createTestUser();
    expect(await statusOf(updateSavedSearch(other.id, first.id, "delete"))).toBe(404);
    await updateSavedSearch(user.id, first.id, "email-off");
    expect((await listSavedSearches(user.id))[0].email).toBe(false);
    await updateSavedSearch(user.id, first.id, "delete");
    expect(await listSavedSearches(user.id)).toEqual([]);
  });

  it("alert exactly once per new match, in the app and by e-mail, even with ticks at once", async () => {
    const buyer = await createTestUser();
    const seller = await createTestUser();
    const before = await createTestListing(seller, {
      make: "Honda",
      model: "Civic",
      title: "Old Civic",
    });
    await saveSearch(buyer.id, { scope: "community", query: "make=Honda", email: true });
    // The buyer's own listing never alerts the buyer.
    await createTestListing(buyer, { make: "Honda", model: "Fit", title: "My own Fit" });

    const match = await createTestListing(seller, {
      make: "Honda",
      model: "Accord",
      title: "Accord EX",
    });
    await createTestListing(seller, { make: "Toyota", title: "Camry" });

    const counts = await Promise.all(Array.from({ length: 6 }, () => matchSavedSearches()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await matchSavedSearches()).toBe(0);

    const notes = await notificationsOf(buyer.id, "saved_search_match");
    expect(notes).toEqual([{ title: "New match: Accord EX", link: `/vehicle/${match.id}` }]);
    expect(notes.some((n) => n.link === `/vehicle/${before.id}`)).toBe(false);
    const mails = await mailsTo(buyer.id);
    expect(mails).toHaveLength(1);
    expect(mails[0].topic).toBe("alerts");
    expect(mails[0].subject).toContain("Accord EX");
    expect(mails[0].text_body).toContain(`/vehicle/${match.id}`);
    expect(mails[0].text_body).toContain("/unsubscribe/");

    // A later match is one more alert, not a repeat of the first.
    const next = await createTestListing(seller, {
      make: "Honda",
      model: "CR-V",
      title: "CR-V LX",
    });
    await Promise.all([matchSavedSearches(), matchSavedSearches(), matchSavedSearches()]);
    expect((await notificationsOf(buyer.id, "saved_search_match")).map((n) => n.link)).toEqual([
      `/vehicle/${match.id}`,
      `/vehicle/${next.id}`,
    ]);
    expect(await mailsTo(buyer.id)).toHaveLength(2);
    expect((await listSavedSearches(buyer.id))[0].matches).toBe(2);
  });

  it("alert new auction lots that match, in-app only when e-mail is off", async () => {
    const buyer = await createTestUser();
    await saveSearch(buyer.id, { scope: "auctions", query: "make=Ford&location=TX", email: false });
    const lot = await createTestLot({
      make: "Ford",
      locationState: "TX",
      year: 2019,
      model: "Ranger",
    });
    await createTestLot({ make: "Ford", locationState: "CA" });
    await createTestLot({ make: "Toyota", locationState: "TX" });
    await Promise.all([matchSavedSearches(), matchSavedSearches()]);
    expect(await notificationsOf(buyer.id, "saved_search_match")).toEqual([
      { title: "New match: 2019 Ford Ranger", link: `/auctions/${lot.id}` },
    ]);
    expect(await mailsTo(buyer.id)).toEqual([]);
  });

  it("tell each watcher once when a watched lot enters its last hour", async () => {
    const watcher = await createTestUser();
    const soon = await createTestLot({ endsAt: new Date(Date.now() + 30 * 60_000) });
    const later = await createTestLot({ endsAt: new Date(Date.now() + 5 * 60 * 60_000) });
    for (const lot of [soon, later]) {
      await sequelize.query("INSERT INTO watchlist (user_id, lot_id) VALUES (:u, :l)", {
        replacements: { u: watcher.id, l: lot.id },
      });
    }
    await Promise.all([
      alertWatchedLotsEndingSoon(),
      alertWatchedLotsEndingSoon(),
      alertWatchedLotsEndingSoon(),
    ]);
    await alertWatchedLotsEndingSoon();
    const notes = await notificationsOf(watcher.id, "lot_ending_soon");
    expect(notes.map((n) => n.link)).toEqual([`/auctions/${soon.id}`]);
    expect((await mailsTo(watcher.id)).map((m) => m.subject)).toEqual([
      `Ending soon: ${notes[0].title.replace("Ending soon: ", "")}`,
    ]);
  });

  it("check every saved search in turn, however many there are", async () => {
    await sequelize.query("DELETE FROM saved_searches");
    const buyer = await createTestUser();
    const seller = await createTestUser();
    // Saved first, the first four find nothing on any check; only the last one has a match.
    for (const make of ["Lada", "Saab", "Rover", "Tatra", "Trabant"])
      await saveSearch(buyer.id, { scope: "community", query: `make=${make}`, email: false });
    const match = await createTestListing(seller, {
      make: "Trabant",
      model: "601",
      title: "Trabant 601",
    });

    // Two searches a tick: the third tick reaches the fifth search.
    const alerts = [];
    for (let tick = 0; tick < 3; tick++) alerts.push(await matchSavedSearches({ batchSize: 2 }));
    expect(alerts).toEqual([0, 0, 1]);
    expect(await notificationsOf(buyer.id, "saved_search_match")).toEqual([
      { title: "New match: Trabant 601", link: `/vehicle/${match.id}` },
    ]);
    const [{ unchecked }] = await sequelize.query<{ unchecked: number }>(
      "SELECT count(*)::int AS unchecked FROM saved_searches WHERE checked_at IS NULL",
      { type: QueryTypes.SELECT },
    );
    expect(unchecked).toBe(0);

    // And round again: a new match for the first search is found within three more ticks.
    const next = await createTestListing(seller, { make: "Lada", model: "Niva", title: "Niva" });
    for (let tick = 0; tick < 3; tick++) await matchSavedSearches({ batchSize: 2 });
    expect((await notificationsOf(buyer.id, "saved_search_match")).map((n) => n.link)).toEqual([
      `/vehicle/${match.id}`,
      `/vehicle/${next.id}`,
    ]);
  });

  it("tell every watcher in turn when more pairs are due than one tick takes", async () => {
    await sequelize.query("DELETE FROM watchlist");
    const watcher = await createTestUser();
    const lots = [];
    for (const minutes of [20, 30, 40])
      lots.push(await createTestLot({ endsAt: new Date(Date.now() + minutes * 60_000) }));
    for (const lot of lots) {
      await sequelize.query("INSERT INTO watchlist (user_id, lot_id) VALUES (:u, :l)", {
        replacements: { u: watcher.id, l: lot.id },
      });
    }
    // One pair a tick: pairs already told do not take the next tick's place.
    const counts = [];
    for (let tick = 0; tick < 4; tick++)
      counts.push(await alertWatchedLotsEndingSoon({ limit: 1 }));
    expect(counts).toEqual([1, 1, 1, 0]);
    expect((await notificationsOf(watcher.id, "lot_ending_soon")).map((n) => n.link)).toEqual(
      lots.map((lot) => `/auctions/${lot.id}`),
    );
    expect(await mailsTo(watcher.id)).toHaveLength(3);
  });
});

describe("/saved-searches", () => {
  it("saves the page's filter from a form post and refuses someone else's search", async () => {
    const { action, loader } = await import("~/routes/saved-searches");
    const { requestAs } = await import("../support/auth");
    const user = await createTestUser();
    const saved = await action({
      request: await requestAs(user, "/saved-searches", {
        form: {
          intent: "save",
          scope: "auctions",
          query: "make=Ford&cursor=x",
          email: "on",
          returnTo: "/auctions?make=Ford",
        },
      }),
      params: {},
      context: {},
    });
    expect((saved as Response).status).toBe(302);
    expect((saved as Response).headers.get("Location")).toBe("/auctions?make=Ford");
    const page = (await loader({
      request: await requestAs(user, "/saved-searches"),
      params: {},
      context: {},
    })) as {
      searches: { id: string; query: string; email: boolean }[];
    };
    expect(page.searches).toMatchObject([{ query: "make=Ford", email: true }]);

    const other = await createTestUser();
    const refused = await action({
      request: await requestAs(other, "/saved-searches", {
        form: { intent: "delete", id: page.searches[0].id },
      }),
      params: {},
      context: {},
    }).catch((error: Response) => error);
    expect((refused as Response).status).toBe(404);
    expect(await listSavedSearches(user.id)).toHaveLength(1);
  });
});
