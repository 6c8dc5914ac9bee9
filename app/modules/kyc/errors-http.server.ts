import { jsonError } from "~/http/http.server";
import { KycError } from "./kyc.server";
import { UploadError } from "~/platform/uploads.server";

/** A user-caused KYC or upload error as a JSON answer; anything else is rethrown. */
export function kycJsonError(error: unknown): Response {
  if (error instanceof KycError || error instanceof UploadError) {
    return jsonError(error.status, error.message);
  }
  throw error;
}
