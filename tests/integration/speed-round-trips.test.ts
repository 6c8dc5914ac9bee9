// What a page costs the database (docs/decisions/2903, 2904): the statements a signed-in page's
// loaders send, counted as connections taken from the pool (one per statement outside a
// transaction), with the answers they must still give.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import { notify } from "~/platform/notifications.server";
import { getSettings } from "~/services/admin/settings.server";
import { loader as rootLoader } from "~/root";
import { createTestUser, requestAs } from "../support/auth";

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

const args = (request: Request) => ({ request, params: {}, context: {} });

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
