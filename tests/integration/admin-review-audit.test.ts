// Every admin review (identity documents, provider applications) leaves an audit entry written
// in the same transaction as the decision.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AdminAuditEntry } from "~/models/admin.server";
import { sequelize } from "~/models/db.server";
import { reviewApplication } from "~/services/affiliates/applications.server";
import { approveDocument, rejectDocument } from "~/services/kyc/kyc.server";
import { createTestUser } from "../support/auth";

async function pendingDocument(userId: string) {
  const key = `kyc/${randomBytes(24).toString("base64url")}`;
  const [[upload]] = (await sequelize.query(
    `insert into uploads (user_id, purpose, object_key, content_type, size_bytes, status, expires_at)
     values ($1, 'kyc_document', $2, 'image/png', 100, 'attached', now() + interval '1 hour') returning id`,
    { bind: [userId, key] },
  )) as [Array<{ id: string }>, unknown];
  const [[doc]] = (await sequelize.query(
    `insert into kyc_documents (user_id, upload_id, document_type, object_key, content_type, size_bytes)
     values ($1, $2, 'passport', $3, 'image/png', 100) returning id`,
    { bind: [userId, upload.id, key] },
  )) as [Array<{ id: string }>, unknown];
  return String(doc.id);
}

describe("admin reviews are audited", () => {
  it("KYC approve and reject", async () => {
    const admin = await createTestUser({ role: "admin" });
    const alice = await createTestUser();
    const bob = await createTestUser();
    const approved = await approveDocument(admin, await pendingDocument(alice.id));
    const rejected = await rejectDocument(
      admin,
      await pendingDocument(bob.id),
      "The photo is blurred.",
    );
    const entries = await AdminAuditEntry.findAll({
      where: { adminId: admin.id },
      order: [["id", "ASC"]],
    });
    expect(entries.map((e) => [e.action, e.targetType, e.targetId])).toEqual([
      ["kyc.approve", "kyc_document", String(approved.document.id)],
      ["kyc.reject", "kyc_document", String(rejected.document.id)],
    ]);
    expect(entries[0].after).toMatchObject({ status: "approved", verified: true });
    expect(entries[1].after).toMatchObject({ status: "rejected", reason: "The photo is blurred." });
  });

  it("affiliate approve and reject", async () => {
    const admin = await createTestUser({ role: "admin" });
    const ids: string[] = [];
    for (const who of [await createTestUser(), await createTestUser()]) {
      const [[row]] = (await sequelize.query(
        `insert into affiliate_applications (user_id, company_name, service_types, business_phone,
           business_email, service_areas) values ($1, 'Audit Haulers', array['shipping'], '555-0101',
           'ops@audit.test', array['TX']) returning id`,
        { bind: [who.id] },
      )) as [Array<{ id: string }>, unknown];
      ids.push(String(row.id));
    }
    await reviewApplication(admin, ids[0], { decision: "approve" });
    await reviewApplication(admin, ids[1], { decision: "reject", reason: "No licence on file." });
    const entries = await AdminAuditEntry.findAll({
      where: { adminId: admin.id },
      order: [["id", "ASC"]],
    });
    expect(entries.map((e) => [e.action, e.targetId])).toEqual([
      ["affiliate.approve", ids[0]],
      ["affiliate.reject", ids[1]],
    ]);
    expect(entries[1].after).toMatchObject({ status: "rejected", reason: "No licence on file." });
  });
});
