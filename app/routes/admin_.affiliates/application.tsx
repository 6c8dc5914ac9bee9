// One application in the admin's review list: its details, and the approve / reject forms (plain
// posts to this page, so a review works without JavaScript).
import { Form } from "@remix-run/react";
import {
  Badge,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
} from "~/components/affiliates/ui";
import { LocalTime } from "~/components/local-time";
import type { ApplicationRow } from "./route";

export function ReviewForms({ application, busy }: { application: ApplicationRow; busy: boolean }) {
  return (
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
          <input id={`reason-${application.id}`} name="reason" type="text" className={inputClass} />
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
  );
}

export function Details({ application }: { application: ApplicationRow }) {
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

/** When and by whom a decided application was approved or rejected (record 3332). */
export function Decided({ application }: { application: ApplicationRow }) {
  if (application.status === "pending") return null;
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="decided">
      {application.status === "approved" ? "Approved" : "Rejected"}
      {application.reviewedAt ? (
        <>
          {" "}
          on <LocalTime at={application.reviewedAt} />
        </>
      ) : null}
      {application.decidedBy
        ? ` by ${application.decidedBy}`
        : " (the deciding admin is not on record)"}
    </p>
  );
}
