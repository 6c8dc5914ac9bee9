// The account's time zone (docs/decisions/1802, 2701): Central by default, changed by a plain
// form post, refused (400, nothing written) when it is not a zone; times are shown with the zone.
import { describe, expect, it } from "vitest";
import { User } from "~/models/user.server";
import { DEFAULT_TIME_ZONE } from "~/services/accounts/time-zones";
import { formatInstant } from "~/utils/time";
import { action, loader } from "~/routes/account.time-zone";
import { loader as rootLoader } from "~/root";
import { createTestUser, requestAs } from "../support/auth";

const post = async (user: User, timeZone: string) =>
  action({
    request: await requestAs(user, "/account/time-zone", { form: { timeZone } }),
    params: {},
    context: {},
  }).catch((thrown: unknown) => thrown);

describe("the account's time zone", () => {
  it("defaults to Central, is saved by the form, and refuses what is not a zone", async () => {
    const user = await createTestUser();
    await user.reload();
    expect(user.timeZone).toBe(DEFAULT_TIME_ZONE);
    const page = await loader({
      request: await requestAs(user, "/account/time-zone"),
      params: {},
      context: {},
    });
    expect(page.timeZone).toBe("America/Chicago");

    const saved = (await post(user, "America/Los_Angeles")) as Response;
    expect(saved.status).toBe(302);
    await user.reload();
    expect(user.timeZone).toBe("America/Los_Angeles");

    for (const bad of ["Mars/Olympus", "", "x".repeat(200), "'; drop table users"]) {
      const refused = (await post(user, bad)) as { init: { status: number } };
      expect(refused.init.status).toBe(400);
    }
    await user.reload();
    expect(user.timeZone).toBe("America/Los_Angeles");
  });

  it("every page gets the account's zone from the root loader", async () => {
    const user = await createTestUser({ timeZone: "America/New_York" });
    const answer = (await rootLoader({
      request: await requestAs(user, "/auctions"),
      params: {},
      context: {},
    })) as unknown as { data: { timeZone: string } };
    expect(answer.data.timeZone).toBe("America/New_York");
  });

  it("shows a time with its zone", () => {
    expect(formatInstant("2026-11-23T21:42:00Z", "America/Chicago")).toBe(
      "Nov 23, 2026, 3:42 PM CST",
    );
    expect(formatInstant("2026-07-01T21:42:00Z", "America/Chicago")).toBe(
      "Jul 1, 2026, 4:42 PM CDT",
    );
    expect(formatInstant("2026-11-23T21:42:00Z", "UTC")).toBe("Nov 23, 2026, 9:42 PM UTC");
  });
});
