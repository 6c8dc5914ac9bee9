// One user read per request (docs/decisions/1904) is shared by the root loader and the page's:
// when the database is away, each of them must get its own 503 to throw (Remix reads each thrown
// answer's body, and a body is read once). Each loader's guard makes its own (docs/decisions/3611).
import { ConnectionError } from "sequelize";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sequelize } from "~/models/db.server";
import { guardLoader } from "~/http/route-guards.server";
import { getUser } from "~/services/accounts/session.server";
import { getSettings } from "~/services/admin/settings.server";
import { createTestUser, requestAs } from "../support/auth";

afterEach(() => vi.restoreAllMocks());

describe("the shared user read during an outage", () => {
  it("gives each loader its own 503, whose body reads", async () => {
    const request = await requestAs(await createTestUser(), "/deposit");
    await getSettings(); // the guards' settings, kept for a second: only the user read fails
    // the session read goes straight through the pool (docs/decisions/2903): its connection fails
    vi.spyOn(sequelize.connectionManager, "getConnection").mockRejectedValueOnce(
      new ConnectionError(new Error("timeout expired")),
    );
    const loader = () => guardLoader({ request }, () => getUser(request));
    const [root, page] = await Promise.allSettled([loader(), loader()]);
    const answers = [root, page].map((r) => (r as PromiseRejectedResult).reason as Response);
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    expect(answers[0]).not.toBe(answers[1]);
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(bodies[0]).toContain("briefly unavailable");
    expect(bodies[1]).toBe(bodies[0]);
    // the failed read is not kept: the next ask reads again
    expect(await getUser(request)).not.toBeNull();
  });
});
