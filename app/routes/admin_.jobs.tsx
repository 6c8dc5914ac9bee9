import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminQueueAction, AdminQueuePage } from "~/components/admin/queue-page";
import { LocalTime } from "~/components/local-time";
import { redirectWithToast } from "~/http/toast.server";
import { requireAdmin } from "~/services/accounts/session.server";
import {
  discardFailedJob,
  listFailedJobs,
  retryFailedJob,
} from "~/services/admin/failed-jobs.server";
import { failedJobActionSchema } from "~/services/admin/schemas";
import { isUserError } from "~/utils/user-error";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Failed jobs · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { jobs: await listFailedJobs() };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: failedJobActionSchema });
  if (submission.status !== "success") throw new Response("Choose a job.", { status: 400 });
  const { intent, jobId } = submission.value;
  try {
    if (intent === "retry") await retryFailedJob(admin, jobId);
    else await discardFailedJob(admin, jobId);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return redirectWithToast("/admin/jobs", {
      title: "Nothing to do",
      description: error.message,
      type: "error",
    });
  }
  return redirectWithToast("/admin/jobs", {
    title: intent === "retry" ? "Job sent to run again" : "Job discarded",
    description:
      intent === "retry" ? `Job ${jobId} runs again now.` : `Job ${jobId} will not run again.`,
    type: "success",
  });
}

/** Background jobs with an error: still retrying, or out of tries (docs/decisions/3561). */
export default function FailedJobsPage() {
  const { jobs } = useLoaderData<typeof loader>();
  return (
    <AdminQueuePage
      title="Failed jobs"
      intro="Background jobs whose last run failed. The queue tries each again on its own until it runs out of tries; run one again now once its cause is fixed, or discard it."
      empty="No failed jobs."
      items={jobs}
      testId="failed-job"
    >
      {(job) => (
        <>
          <h2 className="font-bold">
            {job.kind} <span className="font-normal text-slate-600">· job {job.id}</span>
          </h2>
          <p className="text-sm text-slate-600">
            Tries {job.attempts} of {job.maxAttempts} ·{" "}
            {job.nextRunAt ? (
              <>
                next run <LocalTime at={job.nextRunAt} />
              </>
            ) : (
              "out of tries: runs again only if you retry it"
            )}
            {job.about ? (
              <>
                {" "}
                · about{" "}
                {job.about.href ? (
                  <Link to={job.about.href} className="text-brand-700 underline">
                    {job.about.label}
                  </Link>
                ) : (
                  job.about.label
                )}
              </>
            ) : null}
          </p>
          <pre className="mt-2 overflow-x-auto whitespace-pre-wrap wrap-anywhere rounded bg-slate-50 p-2 text-xs">
            {job.error}
          </pre>
          <div className="mt-3 flex flex-wrap gap-2">
            <AdminQueueAction name="jobId" value={job.id} intent="retry" label="Retry now" />
            <AdminQueueAction name="jobId" value={job.id} intent="discard" label="Discard" />
          </div>
        </>
      )}
    </AdminQueuePage>
  );
}
