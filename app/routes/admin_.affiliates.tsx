import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import {
  Badge,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
} from "~/components/affiliates/ui";
import {
  listApplications,
  reviewApplication,
  type ApplicationWithApplicant,
} from "~/modules/affiliates/applications.server";
import { isUserError } from "~/utils/user-error";
import { requireAdmin } from "~/modules/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { ReviewApplicationSchema } from "~/modules/affiliates/schemas";

export const meta: MetaFunction = () => [{ title: "Affiliate applications · Admin · BidYard" }];

function row(application: ApplicationWithApplicant) {
  const applicant = application.applicant;
  return {
    id: String(application.id),
    companyName: application.companyName,
    serviceTypes: application.serviceTypes,
    businessPhone: application.businessPhone,
    businessEmail: application.businessEmail,
    serviceAreas: application.serviceAreas,
    licenseDocumentUrl: application.licenseDocumentUrl,
    status: application.status,
    rejectionReason: application.rejectionReason,
    createdAt: application.createdAt.toISOString(),
    applicant: applicant
      ? {
          name:
            [applicant.firstName, applicant.lastName].filter(Boolean).join(" ") || applicant.email,
          email: applicant.email,
        }
      : null,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [pending, approved, rejected] = await Promise.all([
    listApplications("pending"),
    listApplications("approved", 25),
    listApplications("rejected", 25),
  ]);
  return {
    pending: pending.map(row),
    decided: [...approved, ...rejected]
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
      .slice(0, 25)
      .map(row),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = Object.fromEntries(await request.formData());
  const parsed = ReviewApplicationSchema.safeParse(form);
  const applicationId = String(form.applicationId ?? "");
  if (!parsed.success || !/^\d{1,18}$/.test(applicationId)) {
    return redirectWithToast(
      "/admin/affiliates",
      {
        title: "Review not saved",
        description: parsed.success ? "Unknown application" : parsed.error.issues[0].message,
        type: "error",
      },
      { status: 303 },
    );
  }
  try {
    const application = await reviewApplication(admin, applicationId, parsed.data);
    return redirectWithToast(
      "/admin/affiliates",
      {
        title: parsed.data.decision === "approve" ? "Application approved" : "Application rejected",
        description: `${application.companyName} has been told.`,
        type: "success",
      },
      { status: 303 },
    );
  } catch (error) {
    if (!isUserError(error)) throw error;
    return redirectWithToast(
      "/admin/affiliates",
      { title: "Review not saved", description: error.message, type: "error" },
      { status: 303 },
    );
  }
}

export default function AdminAffiliates() {
  const { pending, decided } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Affiliate applications</h1>
        <div className="flex gap-2">
          <Link to="/admin/service-orders/new" className={secondaryButton}>
            Create service order
          </Link>
          <Link to="/admin" className={secondaryButton}>
            Admin dashboard
          </Link>
        </div>
      </div>
      <h2 className="mt-6 text-lg font-semibold">Awaiting review ({pending.length})</h2>
      {pending.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No applications are waiting.</p>
      ) : (
        <ul className="mt-3 space-y-4">
          {pending.map((application) => (
            <li
              key={application.id}
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              aria-labelledby={`application-${application.id}`}
            >
              <Details application={application} />
              <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
                <Form method="post">
                  <input type="hidden" name="applicationId" value={application.id} />
                  <input type="hidden" name="decision" value="approve" />
                  <button
                    type="submit"
                    className={primaryButton}
                    disabled={busy}
                    aria-label={`Approve ${application.companyName}`}
                  >
                    Approve
                  </button>
                </Form>
                <Form method="post" className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
                  <input type="hidden" name="applicationId" value={application.id} />
                  <input type="hidden" name="decision" value="reject" />
                  <div className="flex-1">
                    <label htmlFor={`reason-${application.id}`} className={labelClass}>
                      Reason for rejection
                    </label>
                    <input
                      id={`reason-${application.id}`}
                      name="reason"
                      type="text"
                      className={inputClass}
                    />
                  </div>
                  <button
                    type="submit"
                    className={secondaryButton}
                    disabled={busy}
                    aria-label={`Reject ${application.companyName}`}
                  >
                    Reject
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <h2 className="mt-8 text-lg font-semibold">Recent decisions</h2>
      {decided.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">None yet.</p>
      ) : (
        <ul className="mt-3 space-y-3">
          {decided.map((application) => (
            <li key={application.id} className="rounded-xl border border-slate-200 bg-white p-4">
              <Details application={application} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Details({ application }: { application: ReturnType<typeof row> }) {
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`application-${application.id}`} className="font-semibold">
          {application.companyName}
        </h3>
        <Badge
          tone={
            application.status === "approved"
              ? "green"
              : application.status === "rejected"
                ? "red"
                : "yellow"
          }
        >
          {application.status}
        </Badge>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-500">Applicant: </dt>
          <dd className="inline">
            {application.applicant
              ? `${application.applicant.name} (${application.applicant.email})`
              : "deleted"}
          </dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Services: </dt>
          <dd className="inline">{application.serviceTypes.join(", ")}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">Phone: </dt>
          <dd className="inline">{application.businessPhone}</dd>
        </div>
        <div>
          <dt className="inline text-slate-500">E-mail: </dt>
          <dd className="inline">{application.businessEmail}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="inline text-slate-500">Areas: </dt>
          <dd className="inline">{application.serviceAreas.join(", ")}</dd>
        </div>
        {application.licenseDocumentUrl ? (
          <div className="sm:col-span-2">
            <dt className="inline text-slate-500">Document: </dt>
            <dd className="inline">
              <a
                href={application.licenseDocumentUrl}
                target="_blank"
                rel="noreferrer"
                className="font-semibold text-brand-700 underline"
              >
                View document
              </a>
            </dd>
          </div>
        ) : null}
        {application.rejectionReason ? (
          <div className="sm:col-span-2">
            <dt className="inline text-slate-500">Reason: </dt>
            <dd className="inline">{application.rejectionReason}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}
