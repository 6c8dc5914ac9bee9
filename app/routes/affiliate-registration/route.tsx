import { parseWithZod } from "@conform-to/zod/v4";
import { REVIEW_TIME } from "~/services/kyc/status";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Badge, primaryButton } from "~/components/affiliates/ui";
import {
  getApplication,
  submitApplication,
  toPublicApplication,
} from "~/services/affiliates/applications.server";
import { errorBoundaryHeaders } from "~/http/http.server";
import { answerInit, replyFor } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { parseUploadForm } from "~/platform/multipart-upload.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/services/accounts/session.server";
import { asFormDefaults, keepingTypedForm, takeKeptForm } from "~/http/kept-form.server";
import { KeptFormNotice } from "~/components/kept-form-notice";
import { discardUpload, objectPathFor } from "~/platform/uploads.server";
import { FILE_PROBLEM_MESSAGES, type FileProblem } from "~/utils/file-type";
import { redirectWithToast } from "~/http/toast.server";
import { AffiliateApplicationFormSchema } from "~/services/affiliates/schemas";
import { LICENCE_UPLOAD_PURPOSE } from "~/services/affiliates/rules";
import { ApplicationForm } from "./application-form";
import { Pitch, StatusCard } from "./status";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Become a Service Provider · BidYard" }];

// a 503 (storage down) keeps its Retry-After on the page (record 3208)
export const headers = errorBoundaryHeaders;

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const application = await getApplication(user.id);
  // a rejected applicant corrects their last application rather than typing it all again
  const prefill =
    application?.status === "rejected"
      ? {
          companyName: application.companyName,
          serviceTypes: application.serviceTypes,
          businessPhone: application.businessPhone,
          businessEmail: application.businessEmail,
          serviceAreas: application.serviceAreas.join(", "),
        }
      : null;
  // what was typed before a session ended comes back once (see record 3320)
  const { restored, headers } = await takeKeptForm(request, user.id);
  const open = !application || application.status === "rejected";
  return data(
    {
      email: user.email,
      prefill: open && restored ? { ...prefill, ...asFormDefaults(restored.fields) } : prefill,
      restored: open ? restored : null,
      application: application ? toPublicApplication(application) : null,
    },
    { headers },
  );
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

/** The Apply to Join form: a multipart post (the optional document streams to storage) or plain. */
async function act({ request }: ActionFunctionArgs) {
  const user = await keepingTypedForm(request, () => requireUser(request));
  let formData: FormData;
  let upload: Awaited<ReturnType<typeof parseUploadForm>>["upload"] = null;
  let fileProblem: FileProblem | null = null;
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    await consumeRateLimit(request, "upload", user.id);
    const parsed = await parseUploadForm(request, {
      userId: user.id,
      purpose: LICENCE_UPLOAD_PURPOSE,
      fileField: "licenseDocument",
    });
    formData = new FormData();
    for (const [name, value] of Object.entries(parsed.fields)) formData.append(name, value);
    upload = parsed.upload;
    fileProblem = parsed.problem === "missing" ? null : parsed.problem;
  } else {
    formData = await readForm(request);
  }
  if (upload) formData.set("licenseDocumentUrl", objectPathFor(upload.objectKey));
  const submission = parseWithZod(formData, { schema: AffiliateApplicationFormSchema });
  if (submission.status !== "success" || fileProblem) {
    if (upload) await discardUpload(upload);
    const fieldErrors: Record<string, string[]> = {
      ...(submission.status === "success" ? {} : submission.error),
      ...(fileProblem ? { licenseDocument: [FILE_PROBLEM_MESSAGES[fileProblem]] } : {}),
    } as Record<string, string[]>;
    return data(
      submission.reply({ fieldErrors }),
      answerInit(fileProblem === "unavailable" ? 503 : 400),
    );
  }
  try {
    await submitApplication(user.id, submission.value);
  } catch (error) {
    if (upload) await discardUpload(upload);
    if (!isUserError(error)) throw error;
    return data(replyFor(submission, error), answerInit(error.status));
  }
  return redirectWithToast("/", {
    title: "Application Submitted",
    description: "Your affiliate application has been submitted for review.",
    type: "success",
  });
}

export default function AffiliateRegistration() {
  const { application, restored } = useLoaderData<typeof loader>();
  if (application?.status === "approved") {
    return (
      <StatusCard
        title="Application Approved!"
        badge={<Badge tone="green">Approved Affiliate</Badge>}
        body={`${application.companyName} is an approved service provider. Claim shipping and export jobs on the job board.`}
        action={
          <Link to="/service-orders" className={primaryButton}>
            Browse Service Orders
          </Link>
        }
      />
    );
  }
  if (application?.status === "pending") {
    return (
      <StatusCard
        title="Application Under Review"
        badge={<Badge tone="yellow">Under Review</Badge>}
        body={`We are reviewing your application, ${REVIEW_TIME}. We will notify you when it is decided.`}
        action={
          <Link to="/" className={primaryButton}>
            Return to Dashboard
          </Link>
        }
      />
    );
  }
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold">Become a Service Provider</h1>
      <p className="mt-2 text-slate-600">
        Join our network of shipping and export providers and claim jobs for vehicles won at
        auction.
      </p>
      <div className="mt-6">
        <KeptFormNotice restored={restored} />
      </div>
      <Pitch />
      {application?.status === "rejected" ? (
        <div role="status" className="mt-6 rounded-lg border border-red-300 bg-red-50 p-4 text-sm">
          <p className="font-semibold text-red-900">Your previous application was not approved</p>
          <p className="text-red-800">{application.rejectionReason}</p>
          <p className="mt-1 text-red-800">You may correct it and apply again below.</p>
        </div>
      ) : null}
      <ApplicationForm />
    </div>
  );
}
