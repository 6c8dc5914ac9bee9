// The identity verification page: where the person stands, the upload form (with or without
// JavaScript) and their document history. Review rules: docs/decisions/0303-kyc-review-rules.md.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { errorBoundaryHeaders } from "~/http/http.server";
import { answerInit } from "~/http/respond.server";
import { redirectWithToast } from "~/http/toast.server";
import { requireUser } from "~/services/accounts/session.server";
import { identityStatus } from "~/services/kyc/status";
import { listDocuments, submitDocument } from "~/services/kyc/kyc.server";
import { KYC_TOASTS } from "~/services/kyc/messages";
import { kycUploadFormSchema } from "~/services/kyc/schemas";
import { parseUploadForm } from "~/platform/multipart-upload.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { discardUpload, objectPathFor } from "~/platform/uploads.server";
import { FILE_PROBLEM_MESSAGES } from "~/utils/file-type";
import { isUserError } from "~/utils/user-error";
import { DocumentHistory } from "./document-history";
import { Guidance } from "./guidance";
import { StatusBanner } from "./status-banner";
import { StepIndicator } from "./step-indicator";
import { UnderReview } from "./under-review";
import { UploadForm, type KycActionErrors } from "./upload-form";
import { guardAction, guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Identity Verification · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const documents = await listDocuments(user.id);
  // the one identity status every page shows (docs/decisions/2704)
  const identity = identityStatus(user.verified, documents[0]);
  return { documents, identity, state: identity.state };
}

// a 503 (storage down) keeps its Retry-After on the page (record 3208)
export const headers = errorBoundaryHeaders;

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

/** The no-JS upload: the file streams through the upload checks, then becomes the document. */
async function act({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (user.verified) return redirectWithToast("/kyc-verification", KYC_TOASTS.alreadyVerified);
  await consumeRateLimit(request, "upload", user.id);
  const form = await parseUploadForm(request, { userId: user.id, purpose: "kyc_document" });
  const formData = new FormData();
  for (const [name, value] of Object.entries(form.fields)) formData.set(name, value);
  const submission = parseWithZod(formData, { schema: kycUploadFormSchema });
  const errors: KycActionErrors = {};
  if (submission.status !== "success") {
    errors.documentType = submission.error?.documentType?.[0] ?? "Choose a document type.";
  }
  if (form.problem) errors.file = FILE_PROBLEM_MESSAGES[form.problem];
  if (submission.status !== "success" || !form.upload) {
    if (form.upload) await discardUpload(form.upload);
    // storage down is not the person's mistake: 503, with the same place for the message
    return data({ errors }, answerInit(form.problem === "unavailable" ? 503 : 400));
  }
  try {
    await submitDocument(user, {
      documentType: submission.value.documentType,
      objectPath: objectPathFor(form.upload.objectKey),
    });
  } catch (error) {
    if (!isUserError(error)) throw error;
    await discardUpload(form.upload);
    return data({ errors: { form: error.message } satisfies KycActionErrors }, { status: 400 });
  }
  return redirectWithToast("/kyc-verification", KYC_TOASTS.uploaded);
}

export default function KycVerification() {
  const { documents, identity, state } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors: KycActionErrors = actionData && "errors" in actionData ? actionData.errors : {};

  return (
    <div className="mx-auto max-w-4xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-bold sm:text-3xl">Identity Verification</h1>
      <p className="mt-1 text-slate-600">
        Upload your government-issued ID to complete account verification
      </p>
      <div className="mt-6">
        <StepIndicator state={state} />
      </div>
      <StatusBanner identity={identity} />
      <div className="mt-6 grid gap-6 md:grid-cols-3">
        <div className="md:col-span-2">
          {/* One document is reviewed at a time (record 0303): while one is under review the
              page shows it in place of the form; a rejected one opens the form again (record
              3333). */}
          {state === "pending" && documents[0] ? (
            <UnderReview document={documents[0]} />
          ) : state !== "verified" ? (
            <UploadForm state={state} errors={errors} />
          ) : null}
          <DocumentHistory documents={documents} />
        </div>
        <Guidance />
      </div>
      {state === "verified" || state === "pending" ? (
        <div className="mt-8 text-center">
          <Link
            to="/"
            className="inline-flex rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            {state === "verified" ? "Continue to Dashboard" : "Return to Dashboard"}
          </Link>
        </div>
      ) : null}
    </div>
  );
}
