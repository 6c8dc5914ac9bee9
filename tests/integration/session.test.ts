import { describe, expect, it } from "vitest";
import { Session } from "~/models/user.server";
import {
  destroyUserSession,
  getUser,
  requireAdmin,
  requireUser,
} from "~/services/accounts/session.server";
import { createTestUser, requestAs } from "../support/auth";
import { thrownResponse } from "../support/http";

describe("sessions", () => {
  it("find the user from the cookie and store only a hash of its id", async () => {
    const user = await createTestUser();
    const request = await requestAs(user, "/deposit");
    expect((await getUser(request))?.id).toBe(user.id);
    const token = decodeURIComponent(request.headers.get("cookie")!.split("=")[1]);
    const stored = await Session.findAll({ where: { userId: user.id } });
    expect(stored).toHaveLength(1);
    expect(stored[0].id).toHaveLength(64);
    expect(token).not.toContain(stored[0].id);
  });

  it("send a visitor to sign in from a page and answer 401 to an API call", async () => {
    const page = await thrownResponse(requireUser(await requestAs(null, "/deposit?x=1")));
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/api/login?returnTo=%2Fdeposit%3Fx%3D1");
    const api = await thrownResponse(requireUser(await requestAs(null, "/api/auth/user")));
    expect(api.status).toBe(401);
  });

  it("answer the app's own scripts with a 401 the page turns into a toast and a sign-in", async () => {
    // A client-side navigation's data request (Remix strips `.data`, keeps `_routes`).
    const request = await requestAs(null, "/deposit?x=1&_routes=routes%2Fdeposit");
    request.headers.set("Sec-Fetch-Dest", "empty");
    let answer: unknown;
    await requireUser(request).catch((error: unknown) => (answer = error));
    expect(answer).toMatchObject({
      type: "DataWithResponseInit",
      init: { status: 401 },
      data: {
        signIn: "/api/login?returnTo=%2Fdeposit%3Fx%3D1",
        toast: { title: "Unauthorized", description: "You are logged out. Logging in again..." },
      },
    });
    // The browser loading the page itself still gets the redirect.
    const document = await requestAs(null, "/deposit");
    document.headers.set("Sec-Fetch-Dest", "document");
    expect((await thrownResponse(requireUser(document))).status).toBe(302);
  });

  it("refuse non-admins with 403 and let admins through", async () => {
    const user = await createTestUser();
    const admin = await createTestUser({ role: "admin" });
    expect(
      (await thrownResponse(requireAdmin(await requestAs(user, "/api/admin/stats")))).status,
    ).toBe(403);
    expect((await requireAdmin(await requestAs(admin, "/api/admin/stats"))).id).toBe(admin.id);
  });

  it("refuse a state-changing request from another origin", async () => {
    const user = await createTestUser();
    const request = await requestAs(user, "/api/bids", { json: {} });
    request.headers.set("Origin", "https://evil.example");
    expect((await thrownResponse(requireUser(request))).status).toBe(403);
  });

  it("end on the server at logout", async () => {
    const user = await createTestUser();
    const request = await requestAs(user, "/api/logout", { method: "POST" });
    const cleared = await destroyUserSession(request);
    expect(cleared).toContain("Max-Age=0");
    expect(await getUser(request)).toBeNull();
  });
});
