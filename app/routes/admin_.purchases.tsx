import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { requireAdmin } from "~/services/accounts/session.server";
import { defaultPurchase, overduePurchases } from "~/services/purchases/defaults.server";
import { redirectWithToast } from "~/http/toast.server";
import { formatUsd } from "~/utils/money";
import { isUserError } from "~/utils/user-error";
import { LocalTime } from "~/components/local-time";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Overdue purchases · Admin · BidYard" }];

const defaultSchema = z.object({
  purchaseId: z.string().regex(/^\d{1,18}$/),
  lotAfter: z.enum(["relist", "close"]),
});

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return data({ overdue: await overduePurchases() }, { headers: { "Cache-Control": "no-store" } });
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const parsed = defaultSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    return data({ error: "Choose a purchase and what happens to its lot." }, { status: 400 });
  }
  try {
    const done = await defaultPurchase(admin, parsed.data.purchaseId, parsed.data.lotAfter);
    return redirectWithToast("/admin/purchases", {
      title: "Purchase defaulted",
      description: `Default fee ${formatUsd(done.feeCents, "cents")} taken; the lot was ${done.relistedId ? "relisted" : "closed"}.`,
      type: "success",
    });
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data({ error: error.message }, { status: error.status });
  }
}

export default function AdminOverduePurchases() {
  const { overdue } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-5xl px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-bold">Overdue purchases</h1>
      <p className="mt-1 text-slate-600">
        Unpaid after the due date. Past the grace days a purchase can be defaulted: the default fee
        comes out of the buyer&apos;s deposit, the rest of the hold is released.{" "}
        <Link to="/admin/fees" className="text-brand-700 underline">
          Fees and terms
        </Link>
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-3 rounded bg-red-50 p-2 text-red-800">
          {actionData.error}
        </p>
      ) : null}
      {overdue.length === 0 ? <p className="mt-6">No overdue purchases.</p> : null}
      <ul className="mt-6 grid gap-3">
        {overdue.map((p) => (
          <li key={p.id} className="rounded-lg border border-slate-200 bg-white p-3">
            <p className="font-semibold">
              {p.title} · lot {p.lotNumber} · {formatUsd(p.amount)}
            </p>
            <p className="text-sm text-slate-600">
              {p.buyerEmail} · due <LocalTime at={p.dueAt} style="deadline" />
            </p>
            {p.defaultable ? (
              <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                <input type="hidden" name="purchaseId" value={p.id} />
                <label className="text-sm">
                  <span className="block font-semibold">Then the lot</span>
                  <select name="lotAfter" className="rounded border border-slate-300 px-2 py-1">
                    <option value="relist">is relisted (7 days)</option>
                    <option value="close">is closed</option>
                  </select>
                </label>
                <button
                  type="submit"
                  className="rounded bg-red-700 px-3 py-1.5 text-sm font-semibold text-white"
                >
                  Mark defaulted
                </button>
              </Form>
            ) : (
              <p className="mt-1 text-sm">In the grace period.</p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
