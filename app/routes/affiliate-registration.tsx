import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { LicenceUpload } from "~/components/affiliates/licence-upload";
import type { Upload } from "~/models/upload.server";
import {
  Badge,
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
} from "~/components/affiliates/ui";
import {
  getApplication,
  submitApplication,
  toPublicApplication,
} from "~/modules/affiliates/applications.server";
import { replyFor } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { parseUploadForm } from "~/platform/multipart-upload.server";
import { consumeRateLimit } from "~/platform/rate-limit.server";
import { requireUser } from "~/modules/accounts/session.server";
import { discardUpload, objectPathFor } from "~/platform/uploads.server";
import { FILE_PROBLEM_MESSAGES, type FileProblem } from "~/utils/file-type";
import { redirectWithToast } from "~/http/toast.server";
import { AffiliateApplicationFormSchema, SERVICE_TYPE_OPTIONS } from "~/modules/affiliates/schemas";
import { LICENCE_UPLOAD_PURPOSE } from "~/modules/affiliates/rules";

export const meta: MetaFunction = () => [{ title: "Become a Service Provider · BidYard" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const application = await getApplication(user.id);
  return { email: user.email, application: application ? toPublicApplication(application) : null };
}

/** The Apply to Join form: a multipart post (the optional document streams to storage) or plain. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  let formData: FormData;
  let upload: Upload | null = null;
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
    formData = await request.formData();
  }
  if (upload) formData.set("licenseDocumentUrl", objectPathFor(upload.objectKey));
  const submission = parseWithZod(formData, { schema: AffiliateApplicationFormSchema });
  if (submission.status !== "success" || fileProblem) {
    if (upload) await discardUpload(upload);
    const fieldErrors: Record<string, string[]> = {
      ...(submission.status === "success" ? {} : submission.error),
      ...(fileProblem ? { licenseDocument: [FILE_PROBLEM_MESSAGES[fileProblem]] } : {}),
    } as Record<string, string[]>;
    return data(submission.reply({ fieldErrors }), {
      status: fileProblem === "unavailable" ? 503 : 400,
    });
  }
  try {
    await submitApplication(user.id, submission.value);
  } catch (error) {
    if (upload) await discardUpload(upload);
    if (!isUserError(error)) throw error;
    return data(replyFor(submission, error), { status: error.status });
  }
  return redirectWithToast("/", {
    title: "Application Submitted",
    description: "Your affiliate application has been submitted for review.",
    type: "success",
  });
}

const PITCH = [
  {
    title: "Guaranteed Payments",
    body: "Get paid for every completed job. Our platform fee is deducted automatically from each payout, so there are no invoices to chase.",
  },
  {
    title: "Flexible Services",
    body: "Offer domestic shipping, international export, or both, in the areas you choose.",
  },
  {
    title: "Growing Market",
    body: "Every vehicle won at auction needs to move. Claim jobs from buyers across the US.",
  },
];

export default function AffiliateRegistration() {
  const { application } = useLoaderData<typeof loader>();
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
        body="We are reviewing your application, usually within 24 hours. We will notify you when it is decided."
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
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {PITCH.map((item) => (
          <li key={item.title} className="rounded-lg border border-slate-200 bg-white p-4">
            <h2 className="font-semibold text-brand-800">{item.title}</h2>
            <p className="mt-1 text-sm text-slate-600">{item.body}</p>
          </li>
        ))}
      </ul>
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

function StatusCard(props: {
  title: string;
  badge: React.ReactNode;
  body: string;
  action: React.ReactNode;
}) {
  return (
    <div className="mx-auto max-w-xl px-4 py-12 text-center">
      <div className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-bold">{props.title}</h1>
        <div className="mt-3">{props.badge}</div>
        <p className="mt-4 text-slate-600">{props.body}</p>
        <div className="mt-6">{props.action}</div>
      </div>
    </div>
  );
}

function ApplicationForm() {
  const { email } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { businessEmail: email },
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: AffiliateApplicationFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const submitting = navigation.state === "submitting";
  const chosenTypes = (fields.serviceTypes.initialValue as string[] | string | undefined) ?? [];
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 className="text-xl font-semibold">Apply to Join</h2>
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {form.errors[0]}
        </p>
      ) : null}
      <div>
        <label htmlFor={fields.companyName.id} className={labelClass}>
          Company name
        </label>
        <input
          {...getInputProps(fields.companyName, { type: "text" })}
          className={inputClass}
          autoComplete="organization"
        />
        <FieldError id={fields.companyName.errorId} errors={fields.companyName.errors} />
      </div>
      <fieldset aria-describedby={fields.serviceTypes.errorId}>
        <legend className={labelClass}>Service types</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {SERVICE_TYPE_OPTIONS.map((option, index) => (
            <label key={option.value} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                // indexed names survive the multipart reader, which keeps one value per name
                name={`${fields.serviceTypes.name}[${index}]`}
                value={option.value}
                defaultChecked={[chosenTypes].flat().includes(option.value)}
                className="h-4 w-4 rounded border-slate-300"
              />
              {option.label}
            </label>
          ))}
        </div>
        <FieldError id={fields.serviceTypes.errorId} errors={fields.serviceTypes.errors} />
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={fields.businessPhone.id} className={labelClass}>
            Business phone
          </label>
          <input
            {...getInputProps(fields.businessPhone, { type: "tel" })}
            className={inputClass}
            autoComplete="tel"
          />
          <FieldError id={fields.businessPhone.errorId} errors={fields.businessPhone.errors} />
        </div>
        <div>
          <label htmlFor={fields.businessEmail.id} className={labelClass}>
            Business e-mail
          </label>
          <input
            {...getInputProps(fields.businessEmail, { type: "email" })}
            className={inputClass}
            autoComplete="email"
          />
          <FieldError id={fields.businessEmail.errorId} errors={fields.businessEmail.errors} />
        </div>
      </div>
      <div>
        <label htmlFor={fields.serviceAreas.id} className={labelClass}>
          Service areas
        </label>
        <input
          {...getInputProps(fields.serviceAreas, { type: "text" })}
          className={inputClass}
          placeholder="Texas, Oklahoma, Louisiana"
        />
        <p className="mt-1 text-xs text-slate-500">Separate areas with commas.</p>
        <FieldError id={fields.serviceAreas.errorId} errors={fields.serviceAreas.errors} />
      </div>
      <LicenceUpload
        serverError={(form.allErrors as Record<string, string[] | undefined>).licenseDocument}
      />
      <div>
        <label className="inline-flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name={fields.agreeToTerms.name}
            id={fields.agreeToTerms.id}
            aria-describedby={fields.agreeToTerms.errorId}
            className="mt-0.5 h-4 w-4 rounded border-slate-300"
          />
          I agree to the provider terms, including the platform fee deducted from each payout.
        </label>
        <FieldError id={fields.agreeToTerms.errorId} errors={fields.agreeToTerms.errors} />
      </div>
      <button type="submit" className={primaryButton} disabled={submitting}>
        {submitting ? "Submitting..." : "Submit Application"}
      </button>
    </Form>
  );
}
