// What identity verification says to people: its refusals (KycError, a UserError that
// app/http/respond.server.ts answers), its notifications and its toasts, in one place.
import { UserError, type UserErrorOptions } from "~/utils/user-error";

/** A refusal of the KYC flow a person can read (status 400 unless given). */
export class KycError extends UserError {
  constructor(message: string, options: UserErrorOptions = {}) {
    super(message, options);
  }
}

export const KYC_MESSAGES = {
  alreadyVerified: "Your identity is already verified.",
  notYourUpload: "documentUrl must be the objectPath of your upload.",
  adminOnly: "Access Denied: You need admin privileges to access this page.",
  documentNotFound: "Document not found.",
  alreadyReviewed: "This document has already been reviewed.",
  /** The reason a pending document gets when a newer one replaces it. */
  superseded: "Replaced by a newer document.",
} as const;

export const KYC_NOTIFICATIONS = {
  approved: {
    title: "Identity verified",
    body: "Your identity has been verified. With a deposit of at least $400 you can bid.",
  },
  rejected: (reason: string) => ({
    title: "Document rejected",
    body: `Reason: ${reason} Please upload a new document that meets our requirements.`,
  }),
} as const;

export const KYC_TOASTS = {
  uploaded: {
    title: "Document Uploaded",
    description: "Your document has been submitted for review.",
    type: "success",
  },
  alreadyVerified: {
    title: "Already Verified",
    description: "Your identity has already been verified.",
    type: "info",
  },
  failedTitle: "Upload Failed",
  failedDescription: "Failed to upload document. Please try again.",
  reviewFailedTitle: "Review Failed",
  approved: (email: string) => ({
    title: "Document Approved",
    description: `${email} is now verified.`,
    type: "success" as const,
  }),
  rejected: (email: string) => ({
    title: "Document Rejected",
    description: `${email} has been asked to upload a new document.`,
    type: "success" as const,
  }),
} as const;
