// Review and privacy: only admins review; nobody reaches another user's document by any path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KycDocument } from "~/models/kyc-document.server";
import { Notification } from "~/models/notification.server";
import { Upload } from "~/models/upload.server";
import { User } from "~/models/user.server";
import { setStorageForTests } from "~/platform/storage/index.server";
import { RATE_LIMITS } from "~/platform/rate-limit.server";
import { discardStaleUploads, incomingKeyFor } from "~/platform/uploads.server";
import * as adminPage from "~/routes/admin_.kyc";
import * as reviewRoute from "~/routes/admin_.kyc.review";
import * as approveRoute from "~/routes/api.admin.kyc.$id.approve";
import * as pendingRoute from "~/routes/api.admin.kyc.pending";
import * as rejectRoute from "~/routes/api.admin.kyc.$id.reject";
import * as documentsRoute from "~/routes/api.kyc.documents";
import * as documentUrlRoute from "~/routes/api.kyc.document-url";
import * as uploadRoute from "~/routes/api.objects.upload";
import * as kycPage from "~/routes/kyc-verification/route";
import * as objectsRoute from "~/routes/objects.$";
import { createTestUser, requestAs } from "../support/auth";
import { PNG_BYTES } from "../support/kyc-files";
import { call, type Handler } from "../support/routes";
import { startFilesystemStorage, type TestStorage } from "../support/storage";

let t: TestStorage;
beforeAll(async () => {
  t = await startFilesystemStorage();
  setStorageForTests(t.storage);
});
afterAll(async () => {
  setStorageForTests(undefined);
  await t.stop();
});

/** Uploads a PNG through the no-JS form and returns the new current document. */
async function uploadDocument(user: User, documentType = "passport") {
  const form = new FormData();
  form.set("documentType", documentType);
  form.set("file", new Blob([PNG_BYTES as BlobPart], { type: "image/png" }), "id.png");
  const response = await call(
    kycPage.action as Handler,
    await requestAs(user, "/kyc-verification", { method: "POST", body: form }),
  );
  expect(response.status).toBe(302);
  return (await KycDocument.findOne({
    where: { userId: user.id },
    order: [["id", "DESC"]],
  }))!;
}

const pageData = async (user: User) =>
  (await call(kycPage.loader as Handler, await requestAs(user, "/kyc-verification"))).json();

describe("admin review", () => {
  it("approving makes the user verified, notifies them, and the screen says Verification Complete", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const document = await uploadDocument(user);
    expect((await pageData(user)).state).toBe("pending");

    const pending = await call(
      pendingRoute.loader as Handler,
      await requestAs(admin, "/api/admin/kyc/pending"),
    );
    expect(pending.status).toBe(200);
    const mine = (await pending.json()).find((d: { id: string }) => d.id === String(document.id));
    expect(mine).toMatchObject({
      documentType: "passport",
      status: "pending",
      user: { id: user.id },
    });

    const approved = await call(
      approveRoute.action as Handler,
      await requestAs(admin, `/api/admin/kyc/${document.id}/approve`, { method: "POST" }),
      { id: String(document.id) },
    );
    expect(approved.status).toBe(200);
    expect((await approved.json()).status).toBe("approved");
    await user.reload();
    expect(user.verified).toBe(true);
    expect(
      await Notification.findOne({ where: { userId: user.id, kind: "kyc_approved" } }),
    ).not.toBeNull();
    expect((await pageData(user)).state).toBe("verified");

    const again = await call(
      approveRoute.action as Handler,
      await requestAs(admin, `/api/admin/kyc/${document.id}/approve`, { method: "POST" }),
      { id: String(document.id) },
    );
    expect(again.status).toBe(409);
  });

  it("rejecting needs a reason, which the user sees; the user uploads again and the newest is current", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const first = await uploadDocument(user, "license");

    const noReason = await call(
      rejectRoute.action as Handler,
      await requestAs(admin, `/api/admin/kyc/${first.id}/reject`, { json: { reason: " " } }),
      { id: String(first.id) },
    );
    expect(noReason.status).toBe(400);

    const rejected = await call(
      rejectRoute.action as Handler,
      await requestAs(admin, `/api/admin/kyc/${first.id}/reject`, {
        json: { reason: "The photo is blurred." },
      }),
      { id: String(first.id) },
    );
    expect(rejected.status).toBe(200);
    await user.reload();
    expect(user.verified).toBe(false);
    const note = await Notification.findOne({ where: { userId: user.id, kind: "kyc_rejected" } });
    expect(note!.body).toContain("The photo is blurred.");
    const data = await pageData(user);
    expect(data.state).toBe("rejected");
    expect(data.documents[0].rejectionReason).toBe("The photo is blurred.");

    const second = await uploadDocument(user, "state_id");
    const after = await pageData(user);
    expect(after.state).toBe("pending");
    expect(after.documents.map((d: { id: string }) => d.id)).toEqual([
      String(second.id),
      String(first.id),
    ]);
  });

  it("a newer upload replaces a pending one, which leaves the review queue", async () => {
    const user = await createTestUser();
    const older = await uploadDocument(user);
    const newer = await uploadDocument(user);
    await older.reload();
    expect(older.status).toBe("rejected");
    expect(newer.status).toBe("pending");
  });

  it("the form review works without JS and redirects back with a toast", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const document = await uploadDocument(user);
    const page = await call(adminPage.loader as Handler, await requestAs(admin, "/admin/kyc"));
    expect(
      (await page.json()).documents.some((d: { id: string }) => d.id === String(document.id)),
    ).toBe(true);

    const empty = await call(
      reviewRoute.action as Handler,
      await requestAs(admin, "/admin/kyc/review", {
        form: { intent: "reject", documentId: String(document.id) },
      }),
    );
    expect(empty.status).toBe(302);
    await document.reload();
    expect(document.status).toBe("pending");

    const response = await call(
      reviewRoute.action as Handler,
      await requestAs(admin, "/admin/kyc/review", {
        form: { intent: "reject", documentId: String(document.id), reason: "Corners are cut off." },
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/kyc");
    expect(response.headers.get("set-cookie")).toContain("__toast");
    await document.reload();
    expect(document).toMatchObject({
      status: "rejected",
      rejectionReason: "Corners are cut off.",
      reviewedBy: admin.id,
    });

    const second = await uploadDocument(user);
    await call(
      reviewRoute.action as Handler,
      await requestAs(admin, "/admin/kyc/review", {
        form: { intent: "approve", documentId: String(second.id), redirectTo: "/admin" },
      }),
    ).then((r) => expect(r.headers.get("location")).toBe("/admin"));
    await user.reload();
    expect(user.verified).toBe(true);
  });

  it("admins open a document through a short-lived signed URL", async () => {
    const admin = await createTestUser({ role: "admin" });
    const user = await createTestUser();
    const document = await uploadDocument(user);
    const path = `/objects/${document.objectKey}`;
    const response = await call(objectsRoute.loader as Handler, await requestAs(admin, path), {
      "*": document.objectKey,
    });
    expect(response.status).toBe(302);
    const signed = response.headers.get("location")!;
    expect(signed).toMatch(/exp=\d+/);
    const file = await fetch(signed);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG_BYTES);
    // The raw storage path without a signature is refused.
    expect((await fetch(signed.split("?")[0])).status).toBe(403);
  });
});

describe("privacy between users", () => {
  it("user A cannot list, read, claim or review user B's documents", async () => {
    const a = await createTestUser();
    const b = await createTestUser();
    const bDocument = await uploadDocument(b);

    const list = await call(
      documentsRoute.loader as Handler,
      await requestAs(a, "/api/kyc/documents"),
    );
    expect(await list.json()).toEqual([]);

    const read = await call(
      objectsRoute.loader as Handler,
      await requestAs(a, `/objects/${bDocument.objectKey}`),
      {
        "*": bDocument.objectKey,
      },
    );
    expect(read.status).toBe(404);

    const claim = await call(
      documentsRoute.action as Handler,
      await requestAs(a, "/api/kyc/documents", {
        json: { documentType: "passport", documentUrl: `/objects/${bDocument.objectKey}` },
      }),
    );
    expect(claim.status).toBe(404);

    // B's fresh upload URL cannot be confirmed by A.
    const issued = await call(
      uploadRoute.action as Handler,
      await requestAs(b, "/api/objects/upload", {
        json: { size: PNG_BYTES.length, contentType: "image/png" },
      }),
    );
    const { uploadURL, headers } = await issued.json();
    await fetch(uploadURL, { method: "PUT", headers, body: PNG_BYTES as BodyInit });
    const confirm = await call(
      documentUrlRoute.action as Handler,
      await requestAs(a, "/api/kyc/document-url", {
        method: "PUT",
        json: { documentURL: uploadURL },
      }),
    );
    expect(confirm.status).toBe(404);

    for (const [handler, request, params] of [
      [pendingRoute.loader, await requestAs(a, "/api/admin/kyc/pending"), {}],
      [
        approveRoute.action,
        await requestAs(a, `/api/admin/kyc/${bDocument.id}/approve`, { method: "POST" }),
        { id: String(bDocument.id) },
      ],
      [
        approveRoute.action,
        await requestAs(b, `/api/admin/kyc/${bDocument.id}/approve`, { method: "POST" }),
        { id: String(bDocument.id) },
      ],
      [
        rejectRoute.action,
        await requestAs(a, `/api/admin/kyc/${bDocument.id}/reject`, {
          json: { reason: "nope nope" },
        }),
        { id: String(bDocument.id) },
      ],
      [adminPage.loader, await requestAs(a, "/admin/kyc"), {}],
      [
        reviewRoute.action,
        await requestAs(a, "/admin/kyc/review", {
          form: { intent: "approve", documentId: String(bDocument.id) },
        }),
        {},
      ],
    ] as const) {
      const response = await call(handler as Handler, request, params);
      expect(response.status).toBe(403);
    }
    await bDocument.reload();
    expect(bDocument.status).toBe("pending");
    await b.reload();
    expect(b.verified).toBe(false);
  });

  it("signed-out callers get 401 from the calls and a sign-in redirect from the screen", async () => {
    const upload = await call(
      uploadRoute.action as Handler,
      await requestAs(null, "/api/objects/upload", {
        json: { size: 10, contentType: "image/png" },
      }),
    );
    expect(upload.status).toBe(401);
    const list = await call(
      documentsRoute.loader as Handler,
      await requestAs(null, "/api/kyc/documents"),
    );
    expect(list.status).toBe(401);
    const page = await call(kycPage.loader as Handler, await requestAs(null, "/kyc-verification"));
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toContain("/api/login");
  });

  it("a verified user cannot submit another document", async () => {
    const user = await createTestUser({ verified: true });
    const form = new FormData();
    form.set("documentType", "passport");
    form.set("file", new Blob([PNG_BYTES as BlobPart], { type: "image/png" }), "id.png");
    const response = await call(
      kycPage.action as Handler,
      await requestAs(user, "/kyc-verification", { method: "POST", body: form }),
    );
    expect(response.status).toBe(302);
    expect(await KycDocument.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("limits and housekeeping", () => {
  it("rate limits upload URLs per user", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const ask = async (who: User) =>
      call(
        uploadRoute.action as Handler,
        await requestAs(who, "/api/objects/upload", {
          json: { size: PNG_BYTES.length, contentType: "image/png" },
        }),
      );
    for (let i = 0; i < RATE_LIMITS.upload.points; i++) expect((await ask(user)).status).toBe(200);
    const refused = await ask(user);
    expect(refused.status).toBe(429);
    expect((await ask(other)).status).toBe(200);
  });

  it("discards uploads that were never used, deleting their objects", async () => {
    const user = await createTestUser();
    const issued = await call(
      uploadRoute.action as Handler,
      await requestAs(user, "/api/objects/upload", {
        json: { size: PNG_BYTES.length, contentType: "image/png" },
      }),
    );
    const { uploadURL, headers } = await issued.json();
    await fetch(uploadURL, { method: "PUT", headers, body: PNG_BYTES as BodyInit });
    const upload = (await Upload.findOne({ where: { userId: user.id } }))!;
    expect(await t.storage.head(incomingKeyFor(upload.objectKey))).not.toBeNull();

    expect(await discardStaleUploads(new Date())).toBe(0);
    const later = new Date(Date.now() + 2 * 60 * 60 * 1000);
    expect(await discardStaleUploads(later)).toBeGreaterThanOrEqual(1);
    await upload.reload();
    expect(upload.status).toBe("discarded");
    expect(await t.storage.head(upload.objectKey)).toBeNull();
    expect(await t.storage.head(incomingKeyFor(upload.objectKey))).toBeNull();
  });

  it("refuses an unknown upload purpose", async () => {
    const user = await createTestUser();
    const response = await call(
      uploadRoute.action as Handler,
      await requestAs(user, "/api/objects/upload", {
        json: { size: 10, contentType: "image/png", purpose: "anything" },
      }),
    );
    expect(response.status).toBe(400);
  });
});
