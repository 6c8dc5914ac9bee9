import type { ActionFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { approveDocument, rejectDocument } from "~/services/kyc/kyc.server";
import { KYC_TOASTS, KycError } from "~/services/kyc/messages";
import { requireAdmin } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { safeRedirect } from "~/http/http.server";
import { kycReviewFormSchema } from "~/services/kyc/schemas";
import { guardResourceAction } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

/**
 * The admin review as a plain form post (works without JS): approve, or reject with a reason;
 * back to `redirectTo` (default /admin/kyc) with a toast. The /admin page may post here too.
 */
async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const formData = await readForm(request);
  const back = safeRedirect(formData.get("redirectTo"), "/admin/kyc");
  const submission = parseWithZod(formData, { schema: kycReviewFormSchema });
  if (submission.status !== "success") {
    const problem = Object.values(submission.error ?? {}).flat()[0] ?? "Choose approve or reject.";
    return redirectWithToast(back, {
      title: KYC_TOASTS.reviewFailedTitle,
      description: problem,
      type: "error",
    });
  }
  const input = submission.value;
  try {
    if (input.intent === "approve") {
      const { user } = await approveDocument(admin, input.documentId);
      return redirectWithToast(back, KYC_TOASTS.approved(user.email));
    }
    const { user } = await rejectDocument(admin, input.documentId, input.reason);
    return redirectWithToast(back, KYC_TOASTS.rejected(user.email));
  } catch (error) {
    if (!(error instanceof KycError)) throw error;
    return redirectWithToast(back, {
      title: KYC_TOASTS.reviewFailedTitle,
      description: error.message,
      type: "error",
    });
  }
}
