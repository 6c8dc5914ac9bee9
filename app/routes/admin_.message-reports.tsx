import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminQueueAction, AdminQueuePage } from "~/components/admin/queue-page";
import { redirectWithToast } from "~/http/toast.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { REPORT_RESOLVED } from "~/services/messages/messages";
import { listOpenReports, resolveReport } from "~/services/messages/messages.server";
import { resolveReportSchema } from "~/services/messages/schemas";
import { throwAsPageError } from "~/http/respond.server";
import { LocalTime } from "~/components/local-time";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Reported messages · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { reports: await listOpenReports() };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: resolveReportSchema });
  if (submission.status !== "success") throw new Response("Choose a report.", { status: 400 });
  try {
    await resolveReport(admin.id, submission.value.reportId);
  } catch (error) {
    throwAsPageError(error);
  }
  return redirectWithToast("/admin/message-reports", REPORT_RESOLVED);
}

/** Messages people reported, with the conversation around them, oldest report first. */
export default function MessageReportsPage() {
  const { reports } = useLoaderData<typeof loader>();
  return (
    <AdminQueuePage title="Reported messages" empty="No open reports." items={reports}>
      {(report) => (
        <>
          <h2 className="wrap-anywhere font-bold">{report.listingTitle}</h2>
          <p className="wrap-anywhere text-sm text-slate-600">
            Reported by {report.reporterEmail} · written by {report.senderEmail} ·{" "}
            <LocalTime at={report.reportedAt} />
          </p>
          <p className="mt-2 wrap-anywhere">
            <span className="font-semibold">Reason:</span> {report.reason}
          </p>
          <ol className="mt-3 space-y-1 text-sm" aria-label="The conversation">
            {report.context.map((message, index) => (
              <li
                key={index}
                className={`whitespace-pre-wrap wrap-anywhere rounded p-2 ${message.reported ? "bg-red-50 font-semibold" : "bg-slate-50"}`}
              >
                {message.sender === "seller" ? "Seller" : "Buyer"}: {message.body}
              </li>
            ))}
          </ol>
          <AdminQueueAction
            name="reportId"
            value={report.id}
            label="Close report"
            className="mt-3"
          />
        </>
      )}
    </AdminQueuePage>
  );
}
