// What is typed into a long form survives a session that ended before the post (record 3320):
// kept in a signed cookie on the sign-in answer, put back once by the form's page, never with
// files or secrets, never for another account, and bounded in size.
import { describe, expect, it } from "vitest";
import { Listing } from "~/models/listing.server";
import { Session } from "~/models/user.server";
import { action as postVehicle, loader as postVehicleLoader } from "~/routes/post-vehicle";
import { action as logout } from "~/routes/api.logout";
import { asFormDefaults, fieldsToKeep, KEPT_FORM_MAX_CHARS } from "~/http/kept-form.server";
import { createTestUser, requestAs, sessionCookieFor } from "../support/auth";
import { call } from "../support/routes";

const typed = {
  title: "Kept Civic",
  price: "9500",
  make: "Honda",
  model: "Civic",
  year: "2016",
  condition: "good",
  city: "Toronto",
  description: "Winter tires included.",
  password: "hunter2",
  source: "page",
};

/** A post whose session has ended: the cookie is still sent, its row has expired. */
async function expiredPost(owner: Awaited<ReturnType<typeof createTestUser>>, body: BodyInit) {
  const cookie = await sessionCookieFor(owner);
  await Session.update(
    { expiresAt: new Date(Date.now() - 60_000) },
    { where: { userId: owner.id } },
  );
  const headers = new Headers({ Cookie: cookie, Origin: "http://localhost:3000" });
  return new Request("http://localhost:3000/post-vehicle", { method: "POST", headers, body });
}

function keptCookie(response: Response) {
  const header = response.headers.getSetCookie().find((c) => c.startsWith("__kept_form="));
  return header?.split(";")[0] ?? null;
}

async function loadAs(user: Awaited<ReturnType<typeof createTestUser>>, kept: string) {
  const request = await requestAs(user, "/post-vehicle");
  request.headers.set("Cookie", `${request.headers.get("cookie")}; ${kept}`);
  return call(postVehicleLoader as never, request);
}

describe("a form posted after the session ended", () => {
  it("keeps the typed text fields (no secrets) on the sign-in redirect, then restores them once", async () => {
    const owner = await createTestUser();
    const refused = await call(
      postVehicle as never,
      await expiredPost(owner, new URLSearchParams(typed)),
    );
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toMatch(/^\/api\/login\?returnTo=%2Fpost-vehicle/);
    expect(await Listing.count({ where: { userId: owner.id } })).toBe(0);
    const kept = keptCookie(refused);
    expect(kept).not.toBeNull();
    expect(
      Buffer.from(decodeURIComponent(kept!.split("=")[1]).split(".")[0], "base64").toString(),
    ).not.toContain("hunter2");

    const page = await loadAs(owner, kept!);
    expect(page.status).toBe(200);
    const body = (await page.json()) as {
      restored: { fields: Record<string, string>; partial: boolean };
    };
    expect(body.restored.partial).toBe(false);
    expect(body.restored.fields).toEqual({
      title: "Kept Civic",
      price: "9500",
      make: "Honda",
      model: "Civic",
      year: "2016",
      condition: "good",
      city: "Toronto",
      description: "Winter tires included.",
    });
    // the page forgets them as it shows them
    expect(page.headers.getSetCookie().some((c) => /^__kept_form=;.*Max-Age=0/i.test(c))).toBe(
      true,
    );
  });

  it("keeps a multipart post's text but not its files", async () => {
    const owner = await createTestUser();
    const form = new FormData();
    form.append("title", "Photo Golf");
    form.append("photos", new Blob([new Uint8Array(5000)], { type: "image/png" }), "front.png");
    form.append("city", "Seattle");
    const refused = await call(postVehicle as never, await expiredPost(owner, form));
    const page = await loadAs(owner, keptCookie(refused)!);
    const body = (await page.json()) as { restored: { fields: Record<string, string> } };
    expect(body.restored.fields).toEqual({ title: "Photo Golf", city: "Seattle" });
  });

  it("is not shown to another account signing in on the same browser", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const refused = await call(
      postVehicle as never,
      await expiredPost(owner, new URLSearchParams(typed)),
    );
    const page = await loadAs(other, keptCookie(refused)!);
    expect(((await page.json()) as { restored: unknown }).restored).toBeNull();
  });

  it("is forgotten when the browser signs out, so the next person on it never sees it", async () => {
    const owner = await createTestUser();
    const refused = await call(
      postVehicle as never,
      await expiredPost(owner, new URLSearchParams(typed)),
    );
    expect(keptCookie(refused)).not.toBeNull();
    // someone signs in on the shared browser and signs out again, the kept fields still waiting
    const other = await createTestUser();
    const out = await requestAs(other, "/api/logout", { method: "POST" });
    out.headers.set("Cookie", `${out.headers.get("cookie")}; ${keptCookie(refused)}`);
    const signedOut = await call(logout as never, out);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.getSetCookie().some((c) => /^__kept_form=;.*Max-Age=0/i.test(c))).toBe(
      true,
    );
    // and the session's own cookie is still cleared beside it
    expect(signedOut.headers.getSetCookie().some((c) => /^__session=;/.test(c))).toBe(true);
  });

  it("is not kept when the post is refused for another reason (a foreign origin)", async () => {
    const owner = await createTestUser();
    const request = await expiredPost(owner, new URLSearchParams(typed));
    request.headers.set("Origin", "https://elsewhere.example");
    const refused = await call(postVehicle as never, request);
    expect(refused.status).toBe(403);
    expect(keptCookie(refused)).toBeNull();
  });
});

describe("fieldsToKeep", () => {
  it("stays within the cookie's budget and says when something was left out", () => {
    const long = "x".repeat(KEPT_FORM_MAX_CHARS);
    const { fields, partial } = fieldsToKeep([
      ["title", "Short"],
      ["description", long],
      ["city", "Austin"],
    ]);
    expect(fields).toEqual({ title: "Short", city: "Austin" });
    expect(partial).toBe(true);
    expect(JSON.stringify(fields).length).toBeLessThanOrEqual(KEPT_FORM_MAX_CHARS);
  });

  it("drops files, secrets and empty fields", () => {
    const file = new File(["x"], "a.png");
    const { fields } = fieldsToKeep([
      ["photos", file],
      ["newPassword", "s3cret"],
      ["csrfToken", "abc"],
      ["make", ""],
      ["model", "Civic"],
    ]);
    expect(fields).toEqual({ model: "Civic" });
  });

  it("puts indexed names back into lists for a form's defaults", () => {
    expect(
      asFormDefaults({
        "serviceTypes[1]": "export",
        companyName: "Acme",
        "serviceTypes[0]": "shipping",
      }),
    ).toEqual({ serviceTypes: ["export", "shipping"], companyName: "Acme" });
  });
});
