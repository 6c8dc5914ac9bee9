import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { testPaymentsAllowed } from "~/platform/payments/index.server";
import { decideTestOrder, findTestOrder } from "~/platform/payments/test-gateway.server";
import { formatUsd } from "~/utils/money";
import { requireSameOrigin } from "~/http/http.server";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Test Checkout · TEST MODE · BidYard" }];

function refuseInProduction() {
  if (!testPaymentsAllowed()) throw new Response("Not Found", { status: 404 });
}

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

/** The TEST MODE gateway's approval page: plays the provider's checkout, no money moves. */
async function load({ request }: LoaderFunctionArgs) {
  refuseInProduction();
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const order = await findTestOrder(token);
  if (!order) throw new Response("This test payment does not exist.", { status: 404 });
  return data(
    {
      order: {
        id: order.id,
        amount: order.amount,
        description: order.description,
        open: order.status === "CREATED" || order.status === "APPROVED",
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  refuseInProduction();
  requireSameOrigin(request);
  const form = await readForm(request);
  const token = String(form.get("token") ?? "");
  const approve = form.get("intent") === "approve";
  const next = await decideTestOrder(token, approve);
  if (!next) {
    return data({ error: "This test payment is no longer open." }, { status: 409 });
  }
  return redirect(next);
}

export default function TestCheckout() {
  const { order } = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto max-w-md px-4 py-12">
      <p className="inline-block rounded bg-accent-500 px-2 py-1 text-xs font-bold tracking-wide text-slate-900">
        TEST MODE
      </p>
      <h1 className="mt-3 text-2xl font-bold">Test Checkout</h1>
      <p className="mt-2 text-sm text-slate-600">
        BidYard&apos;s built-in test gateway stands in for PayPal. No real money moves.
      </p>
      <dl className="mt-6 rounded-lg border border-slate-200 bg-white p-4">
        <dt className="text-sm text-slate-500">Amount</dt>
        <dd className="text-3xl font-bold" data-testid="test-checkout-amount">
          {formatUsd(order.amount)}
        </dd>
        <dt className="mt-3 text-sm text-slate-500">For</dt>
        <dd>{order.description}</dd>
      </dl>
      {order.open ? (
        // A plain document form: the redirect goes back through the return URL like PayPal's.
        <form method="post" className="mt-6 flex flex-col gap-3 sm:flex-row">
          <input type="hidden" name="token" value={order.id} />
          <button
            type="submit"
            name="intent"
            value="approve"
            className="flex-1 rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
          >
            Approve payment
          </button>
          <button
            type="submit"
            name="intent"
            value="cancel"
            className="flex-1 rounded-lg border border-slate-300 bg-white px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-50"
          >
            Cancel
          </button>
        </form>
      ) : (
        <p role="alert" className="mt-6 rounded-lg bg-slate-100 p-3">
          This test payment is no longer open.
        </p>
      )}
    </section>
  );
}
