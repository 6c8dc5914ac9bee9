import { parseWithZod } from "@conform-to/zod/v4";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { redirectWithToast } from "~/http/toast.server";
import { requireAdmin } from "~/services/accounts/session.server";
import {
  refundsNeedingAPerson,
  resolveRefundCase,
} from "~/services/deposits/capture-refunds.server";
import { resolveRefundSchema } from "~/services/deposits/schemas";
import { LocalTime } from "~/components/local-time";
import { formatUsd } from "~/utils/money";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Refunds that need a person · Admin · BidYard" }];

const PURPOSE_LABELS: Record<string, string> = {
  service_order: "Transport order",
  purchase: "Invoice",
  membership: "Membership",
};

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { cases: await refundsNeedingAPerson() };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: resolveRefundSchema });
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "Check the form.";
    return data({ error, refundId: String(submission.payload.refundId ?? "") }, { status: 400 });
  }
  const { refundId, resolution } = submission.value;
  if (!(await resolveRefundCase(refundId, admin.id, resolution))) {
    return data(
      { error: "This refund does not need a person any more.", refundId },
      { status: 404 },
    );
  }
  return redirectWithToast("/admin/refunds", { title: "Marked as settled", type: "success" });
}

/**
 * Refunds the payment provider refused for good, of money that was never the deposit's (a
 * transport order's, an invoice's or a membership's capture): still the payer's, still with us,
 * and never put in the deposit (docs/decisions/3502). Oldest first.
 */
export default function RefundsNeedingAPersonPage() {
  const { cases } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-4xl px-3 py-6 sm:px-6">
      <h1 className="text-2xl font-black">Refunds that need a person</h1>
      <p className="mt-1 text-sm text-slate-600">
        The payment provider refused these refunds. The money is still the payer&apos;s: pay it back
        another way (or have the provider accept the refund), then mark it settled and say how.
      </p>
      {cases.length === 0 ? (
        <p className="mt-6 text-slate-600">No refund needs a person.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {cases.map((c) => (
            <li
              key={c.id}
              data-testid="refund-case"
              className="rounded-lg border border-slate-200 bg-white p-4"
            >
              <h2 className="font-bold">
                {formatUsd(c.amount)} · {PURPOSE_LABELS[c.purpose] ?? c.purpose}
              </h2>
              <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="font-semibold text-slate-600">Payer</dt>
                <dd className="wrap-anywhere">
                  {c.payerName} ·{" "}
                  <a href={`mailto:${c.payerEmail}`} className="text-brand-700 underline">
                    {c.payerEmail}
                  </a>
                </dd>
                <dt className="font-semibold text-slate-600">Reference</dt>
                <dd className="wrap-anywhere font-mono">
                  {c.provider === "test" ? "Test payment" : "PayPal"} capture {c.captureId}
                </dd>
                <dt className="font-semibold text-slate-600">Reason</dt>
                <dd className="wrap-anywhere">{c.reason}</dd>
                <dt className="font-semibold text-slate-600">Refused</dt>
                <dd>
                  <LocalTime at={c.refusedAt} />
                </dd>
              </dl>
              <Form method="post" className="mt-3 space-y-2">
                <input type="hidden" name="refundId" value={c.id} />
                <label htmlFor={`resolution-${c.id}`} className="block text-sm font-semibold">
                  How it was settled
                </label>
                <textarea
                  id={`resolution-${c.id}`}
                  name="resolution"
                  required
                  minLength={3}
                  maxLength={500}
                  rows={2}
                  aria-invalid={failed?.refundId === c.id ? true : undefined}
                  aria-describedby={
                    failed?.refundId === c.id ? `resolution-${c.id}-error` : undefined
                  }
                  className="block w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
                />
                {failed?.refundId === c.id ? (
                  <p id={`resolution-${c.id}-error`} role="alert" className="text-sm text-red-700">
                    {failed.error}
                  </p>
                ) : null}
                <button
                  type="submit"
                  className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 focus-visible:focus-ring"
                >
                  Mark settled
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
