import * as z from "zod";
import { DOCUMENT_TYPE_VALUES } from "./documents";

const documentType = z.enum(DOCUMENT_TYPE_VALUES, {
  error: "Choose a document type: license, passport or state id.",
});

/** The no-JS upload form's text fields (the file is streamed and checked separately). */
export const kycUploadFormSchema = z.object({ documentType });

/** POST /api/objects/upload: the upload URL is bound to this exact size and type. */
export const uploadRequestSchema = z.object({
  size: z.number({ error: "size must be the file's length in bytes" }).int().nonnegative(),
  contentType: z.string({ error: "contentType is required" }).max(200),
  /** What the file is for; the KYC document unless another feature says otherwise. */
  purpose: z.string().max(40).optional(),
});

/** PUT /api/kyc/document-url */
export const documentUrlSchema = z.object({
  documentURL: z.string({ error: "documentURL is required" }).min(1).max(4000),
});

/** POST /api/kyc/documents */
export const submitDocumentSchema = z.object({
  documentType,
  documentUrl: z.string({ error: "documentUrl is required" }).min(1).max(500),
});

/** Admin review, as a form (intent) or JSON. */
export const rejectReasonSchema = z
  .string({ error: "Give a reason for the rejection." })
  .trim()
  .min(3, "Give a reason for the rejection (at least 3 characters).")
  .max(500, "Keep the reason under 500 characters.");

export const kycReviewFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), documentId: z.string().regex(/^\d+$/) }),
  z.object({
    intent: z.literal("reject"),
    documentId: z.string().regex(/^\d+$/),
    reason: rejectReasonSchema,
  }),
]);
