import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DeliveryDetails, YardDetails } from "~/components/affiliates/pickup-papers";
import { LocalTime } from "~/components/local-time";
import { RouteErrorBoundary } from "~/components/error-page";
import { requireUser } from "~/services/accounts/session.server";
import { pickupPapersFor } from "~/services/affiliates/pickup-papers.server";
import { isUserError } from "~/utils/user-error";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Gate pass · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

/**
 * The claimed job's gate pass, for the carrier that claimed it only (record 3531): the buyer's
 * release naming this carrier, the yard and the delivery address. Any other person, provider or
 * not, gets "not found".
 */
async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const papers = await pickupPapersFor(params.id ?? "", user.id);
    return data({ papers }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (isUserError(error)) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

export default function GatePassPage() {
  const { papers } = useLoaderData<typeof loader>();
  const { release } = papers;
  return (
    <article className="gate-pass mx-auto max-w-2xl px-3 py-6 sm:px-6 print:max-w-none print:p-0">
      <style>{`@media print { header, footer, nav, .no-print { display: none !important; } body { background: #fff; } .gate-pass { font-size: 12pt; } }`}</style>
      <p className="no-print text-sm">
        <Link to={`/service-orders/${papers.orderId}`} className="text-brand-700 underline">
          Back to the job
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">Gate pass</h1>
      <p className="text-slate-600">
        {release
          ? "Show this page (printed or on your phone) at the yard's gate, with your photo ID."
          : "This job was created by BidYard staff: there is no buyer's release on file. Ask BidYard for the paperwork before you go."}
      </p>

      {release ? (
        <section
          aria-labelledby="code-heading"
          className="mt-4 rounded-xl border-2 border-slate-900 p-4 text-center"
        >
          <h2 id="code-heading" className="text-sm font-bold uppercase tracking-wide">
            Pickup code
          </h2>
          <p
            className="mt-1 break-all font-mono text-3xl font-black tracking-widest sm:text-4xl"
            data-testid="pickup-code"
          >
            {release.pickupCode}
          </p>
        </section>
      ) : null}

      <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Vehicle</dt>
        <dd>{papers.vehicleLabel}</dd>
        {release ? (
          <>
            <dt className="font-semibold">Lot</dt>
            <dd>{release.lot}</dd>
            <dt className="font-semibold">VIN</dt>
            <dd className="break-all font-mono">{release.vin}</dd>
            <dt className="font-semibold">Bought by</dt>
            <dd data-testid="buyer-name">{release.buyerFirstName}, a BidYard buyer</dd>
          </>
        ) : null}
        <dt className="font-semibold">Authorised carrier</dt>
        <dd data-testid="authorised-carrier">{papers.carrierName}</dd>
        {papers.claimedAt ? (
          <>
            <dt className="font-semibold">Job claimed</dt>
            <dd>
              <LocalTime at={papers.claimedAt} />
            </dd>
          </>
        ) : null}
      </dl>

      <section
        aria-labelledby="yard-heading"
        className="mt-4 rounded-lg border border-slate-300 p-3 text-sm"
      >
        <h2 id="yard-heading" className="font-bold">
          Collect at
        </h2>
        <YardDetails papers={papers} />
      </section>
      <section
        aria-labelledby="delivery-heading"
        className="mt-4 rounded-lg border border-slate-300 p-3 text-sm"
      >
        <h2 id="delivery-heading" className="font-bold">
          {papers.serviceType === "export" ? "Deliver to the port" : "Deliver to"}
        </h2>
        <DeliveryDetails papers={papers} />
      </section>
      <p className="no-print mt-6 text-sm text-slate-600">
        Questions about the job go to the buyer through{" "}
        <Link to={`/service-orders/${papers.orderId}`} className="text-brand-700 underline">
          the job&apos;s messages
        </Link>
        ; BidYard does not share the buyer&apos;s e-mail or phone.
      </p>
    </article>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
