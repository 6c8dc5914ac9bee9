import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { secondaryButton } from "~/components/affiliates/ui";
import {
  listApplications,
  reviewApplication,
  toPublicApplication,
  type ApplicationWithApplicant,
} from "~/services/affiliates/applications.server";
import { isUserError } from "~/utils/user-error";
import { requireAdmin } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { ReviewApplicationSchema } from "~/services/affiliates/schemas";
import { Decided, Details, ReviewForms } from "./application";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Affiliate applications · Admin · BidYard" }];

/** An application as the review list shows it: its public fields and who sent it. */
function row(application: ApplicationWithApplicant) {
  const applicant = application.applicant;
  const reviewer = application.reviewer;
  return {
    ...toPublicApplication(application),
    applicant: applicant
      ? {
          name:
            [applicant.firstName, applicant.lastName].filter(Boolean).join(" ") || applicant.email,
          email: applicant.email,
        }
      : null,
    // Who decided, for Recent decisions (reviewed_by; the account may since have been removed).
    decidedBy: reviewer
      ? [reviewer.firstName, reviewer.lastName].filter(Boolean).join(" ") || reviewer.email
      : null,
  };
}

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
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

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = Object.fromEntries(await readForm(request));
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
              <ReviewForms application={application} busy={busy} />
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
              <Decided application={application} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export type ApplicationRow = ReturnType<typeof row>;
