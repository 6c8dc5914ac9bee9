// Identity verification: documents go pending → approved (the user becomes verified) or
// rejected (with a reason the user sees). The newest document is the current one.
import { recordAdminAction } from "~/services/admin/audit.server";
import { sequelize } from "~/models/db.server";
import { KycDocument } from "~/models/kyc-document.server";
import { User } from "~/models/user.server";
import { notify } from "~/platform/notifications.server";
import {
  attachUpload,
  objectKeyFromPath,
  objectPathFor,
  signedUrlForUpload,
} from "~/platform/uploads.server";
import type { KycDocumentType, PendingKycDocument, PublicKycDocument } from "./documents";
import { KYC_MESSAGES, KYC_NOTIFICATIONS, KycError } from "./messages";
import { identityStatus, type IdentityStatus } from "./status";

/**
 * Where the user's identity verification stands (docs/decisions/2704), for every page that says
 * so: a verified user costs no query; otherwise their newest document decides.
 */
export async function identityStatusOf(user: {
  id: string;
  verified: boolean;
}): Promise<IdentityStatus> {
  if (user.verified) return identityStatus(true, null);
  const current = await KycDocument.findOne({
    where: { userId: user.id },
    attributes: ["status", "rejectionReason"],
    order: [
      ["createdAt", "DESC"],
      ["id", "DESC"],
    ],
  });
  return identityStatus(
    false,
    current ? { status: current.status, rejectionReason: current.rejectionReason ?? null } : null,
  );
}

export function toPublicDocument(document: KycDocument): PublicKycDocument {
  return {
    id: String(document.id),
    documentType: document.documentType,
    documentUrl: objectPathFor(document.objectKey),
    status: document.status,
    rejectionReason: document.rejectionReason ?? null,
    createdAt: document.createdAt.toISOString(),
    reviewedAt: document.reviewedAt ? document.reviewedAt.toISOString() : null,
  };
}

/** The user's documents, newest (the current one) first. */
export async function listDocuments(userId: string) {
  const documents = await KycDocument.findAll({
    where: { userId },
    order: [
      ["createdAt", "DESC"],
      ["id", "DESC"],
    ],
  });
  return documents.map(toPublicDocument);
}

/** Records the caller's stored upload as their new current document. */
export async function submitDocument(
  user: User,
  input: { documentType: KycDocumentType; objectPath: string },
) {
  if (user.verified) throw new KycError(KYC_MESSAGES.alreadyVerified, { status: 409 });
  const objectKey = objectKeyFromPath(input.objectPath);
  if (!objectKey) throw new KycError(KYC_MESSAGES.notYourUpload);
  return sequelize.transaction(async (transaction) => {
    // One submission at a time per user.
    await User.findByPk(user.id, { lock: transaction.LOCK.UPDATE, transaction });
    const upload = await attachUpload(user.id, "kyc_document", objectKey, transaction);
    await KycDocument.update(
      { status: "rejected", rejectionReason: KYC_MESSAGES.superseded, reviewedAt: new Date() },
      { where: { userId: user.id, status: "pending" }, transaction },
    );
    const document = await KycDocument.create(
      {
        userId: user.id,
        uploadId: upload.id,
        documentType: input.documentType,
        objectKey: upload.objectKey,
        contentType: upload.contentType,
        sizeBytes: upload.sizeBytes,
      },
      { transaction },
    );
    return toPublicDocument(document);
  });
}

/** Pending documents, oldest first, for the admin review queue. */
export async function listPendingDocuments(): Promise<PendingKycDocument[]> {
  const documents = await KycDocument.findAll({
    where: { status: "pending" },
    include: [{ model: User, as: "user", required: true }],
    order: [
      ["createdAt", "ASC"],
      ["id", "ASC"],
    ],
    limit: 200,
  });
  return documents.map((document) => {
    const owner = (document as KycDocument & { user: User }).user;
    return {
      ...toPublicDocument(document),
      user: {
        id: owner.id,
        firstName: owner.firstName,
        lastName: owner.lastName,
        email: owner.email,
      },
      viewUrl: objectPathFor(document.objectKey),
      contentType: document.contentType,
    };
  });
}

async function review(
  admin: User,
  documentId: string,
  decision: { status: "approved" } | { status: "rejected"; reason: string },
) {
  if (admin.role !== "admin") {
    throw new KycError(KYC_MESSAGES.adminOnly, { status: 403 });
  }
  if (!/^\d+$/.test(documentId)) throw new KycError(KYC_MESSAGES.documentNotFound, { status: 404 });
  return sequelize.transaction(async (transaction) => {
    const document = await KycDocument.findByPk(documentId, {
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!document) throw new KycError(KYC_MESSAGES.documentNotFound, { status: 404 });
    if (document.status !== "pending") {
      throw new KycError(KYC_MESSAGES.alreadyReviewed, { status: 409 });
    }
    const owner = await User.findByPk(document.userId, {
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    await document.update(
      {
        status: decision.status,
        rejectionReason: decision.status === "rejected" ? decision.reason : null,
        reviewedBy: admin.id,
        reviewedAt: new Date(),
      },
      { transaction },
    );
    await recordAdminAction(
      admin,
      decision.status === "approved" ? "kyc.approve" : "kyc.reject",
      { type: "kyc_document", id: document.id },
      {
        before: { status: "pending", verified: owner!.verified },
        after: {
          status: decision.status,
          verified: decision.status === "approved" ? true : owner!.verified,
          ...(decision.status === "rejected" ? { reason: decision.reason } : {}),
        },
      },
      transaction,
    );
    if (decision.status === "approved") {
      await owner!.update({ verified: true }, { transaction });
      await notify(
        document.userId,
        {
          kind: "kyc_approved",
          ...KYC_NOTIFICATIONS.approved,
          link: "/kyc-verification",
        },
        transaction,
      );
    } else {
      await notify(
        document.userId,
        {
          kind: "kyc_rejected",
          ...KYC_NOTIFICATIONS.rejected(decision.reason),
          link: "/kyc-verification",
        },
        transaction,
      );
    }
    return { document: toPublicDocument(document), user: owner! };
  });
}

export function approveDocument(admin: User, documentId: string) {
  return review(admin, documentId, { status: "approved" });
}

export function rejectDocument(admin: User, documentId: string, reason: string) {
  return review(admin, documentId, { status: "rejected", reason });
}

/** A short-lived URL to view a document's file: its owner or an admin only. */
export async function documentViewUrl(viewer: User, objectKey: string) {
  return signedUrlForUpload(viewer, objectKey);
}

/** Counts for dashboards (the admin stat card "Pending KYC"). */
export async function pendingDocumentCount() {
  return KycDocument.count({ where: { status: "pending" } });
}
