import { describe, expect, it } from "vitest";
import {
  listNotifications,
  markNotificationsRead,
  notify,
  unreadNotificationCount,
} from "~/platform/notifications.server";
import { consumeRateLimit, RATE_LIMITS } from "~/platform/rate-limit.server";
import { createTestUser, requestAs } from "../support/auth";

describe("notifications", () => {
  it("count unread, list newest first and mark read only the owner's", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    await notify(user.id, { kind: "outbid", title: "You were outbid", link: "/auctions/1" });
    await notify(user.id, { kind: "auction_won", title: "You won" });
    await notify(other.id, { kind: "outbid", title: "Other" });
    expect(await unreadNotificationCount(user.id)).toBe(2);
    const list = await listNotifications(user.id);
    expect(list.map((n) => n.title)).toEqual(["You won", "You were outbid"]);
    expect(await markNotificationsRead(user.id)).toBe(2);
    expect(await unreadNotificationCount(user.id)).toBe(0);
    expect(await unreadNotificationCount(other.id)).toBe(1);
  });
});

describe("rate limits", () => {
  it("answer 429 once the allowance is spent, per key", async () => {
    const request = await requestAs(null, "/api/prelaunch-signup", { json: {} });
    const { points } = RATE_LIMITS.earlyAccess;
    for (let i = 0; i < points; i++) await consumeRateLimit(request, "earlyAccess", "key-a");
    let status = 0;
    try {
      await consumeRateLimit(request, "earlyAccess", "key-a");
    } catch (error) {
      status = (error as Response).status;
    }
    expect(status).toBe(429);
    await expect(consumeRateLimit(request, "earlyAccess", "key-b")).resolves.toBeUndefined();
  });
});
