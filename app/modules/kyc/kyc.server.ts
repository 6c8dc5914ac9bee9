// Identity verification: documents go pending → approved (the user becomes verified) or
// rejected (with a reason the user sees). The newest document is the current one.
import { recordAdminAction } from "~/modules/admin/audit.server";
import { sequelize } from "~/models/db.server";
import { KycDocument, type DocumentType } from "~/models/kyc-document.server";
import { User } from "~/models/user.server";
import { notify } from "~/platform/notifications.server";
import {
  attachUpload,
  objectKeyFromPath,
  objectPathFor,
  signedUrlForUpload,
} from "~/platform/uploads.server";

export class KycError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "KycError";
  }
}

export type KycState = "verified" | "pending" | "rejected" | "none";

export type PublicKycDocument = {
  id: string;
  documentType: DocumentType;
  documentUrl: string;
  status: KycDocument["status"];
  rejectionReason: string | null;
  createdAt: string;
  reviewedAt: string | null;
};

export type PendingKycDocument = PublicKycDocument & {
  user: { id: string; firstName: string | null; lastName: string | null; email: string };
  viewUrl: string;
};

export const SUPERSEDED_REASON = "Replaced by a newer document.";

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

/** Where the user stands: verified, or the current document's status, or nothing yet. */
export function kycState(verified: boolean, documents: PublicKycDocument[]): KycState {
  if (verified) return "verified";
  const current = documents[0];
  if (!current) return "none";
  return current.status === "rejected"
    ? "rejected"
    : current.status === "pending"
      ? "pending"
      : "none";
}

/** Records the caller's stored upload as their new current document. */
export async function submitDocument(
  user: User,
  input: { documentType: DocumentType; objectPath: string },
) {
  if (user.verified) throw new KycError(409, "Your identity is already verified.");
  const objectKey = objectKeyFromPath(input.objectPath);
  if (!objectKey) throw new KycError(400, "documentUrl must be the objectPath of your upload.");
  return sequelize.transaction(async (transaction) => {
    // One submission at a time per user.
    await User.findByPk(user.id, { lock: transaction.LOCK.UPDATE, transaction });
    const upload = await attachUpload(user.id, "kyc_document", objectKey, transaction);
    await KycDocument.update(
      { status: "rejected", rejectionReason: SUPERSEDED_REASON, reviewedAt: new Date() },
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
    };
  });
}

async function review(
  admin: User,
  documentId: string,
  decision: { status: "approved" } | { status: "rejected"; reason: string },
) {
  if (admin.role !== "admin") {
    throw new KycError(403, "Access Denied: You need admin privileges to access this page.");
  }
  if (!/^\d+$/.test(documentId)) throw new KycError(404, "Document not found.");
  return sequelize.transaction(async (transaction) => {
    const document = await KycDocument.findByPk(documentId, {
      lock: transaction.LOCK.UPDATE,
      transaction,
    });
    if (!document) throw new KycError(404, "Document not found.");
    if (document.status !== "pending") {
      throw new KycError(409, "This document has already been reviewed.");
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
          title: "Identity verified",
          body: "Your identity has been verified. With a deposit of at least $400 you can bid.",
          link: "/kyc-verification",
        },
        transaction,
      );
    } else {
      await notify(
        document.userId,
        {
          kind: "kyc_rejected",
          title: "Document rejected",
          body: `Reason: ${decision.reason} Please upload a new document that meets our requirements.`,
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
