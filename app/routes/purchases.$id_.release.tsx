import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/services/accounts/session.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { shipItLink } from "~/services/purchases/status";
import { InvoiceLines } from "~/components/purchases/invoice-lines";
import { LocalTime } from "~/components/local-time";
import { formatUsd } from "~/utils/money";
import { isUserError } from "~/utils/user-error";
import { guardLoader } from "~/http/route-guards.server";

export const meta: MetaFunction = () => [{ title: "Vehicle release · BidYard" }];

const PAID_BY: Record<string, string> = {
  deposit: "From your BidYard deposit",
  gateway: "Paid through the payment provider",
};

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

/** The printable release of a paid purchase: what the yard's gate asks for. */
async function load({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const purchase = await purchaseView(user.id, params.id ?? "");
    if (purchase.status !== "paid") {
      throw new Response("The release is ready once the purchase is paid.", { status: 409 });
    }
    return data({ purchase }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    if (isUserError(error) && error.status === 404)
      throw new Response(error.message, { status: 404 });
    throw error;
  }
}

type ReleaseLot = ReturnType<typeof useLoaderData<typeof loader>>["purchase"]["lot"];
type ReleaseYard = NonNullable<
  ReturnType<typeof useLoaderData<typeof loader>>["purchase"]["gatePass"]
>["yard"];

/** Where to collect: the yard's street, hours and phone when the yard is known (record 3314). */
function YardCard({ lot, yard }: { lot: ReleaseLot; yard: ReleaseYard }) {
  return (
    <section
      aria-labelledby="yard-heading"
      className="mt-4 rounded-lg border border-slate-300 p-3 text-sm"
      data-testid="yard"
    >
      <h2 id="yard-heading" className="font-bold">
        Yard: {lot.yard}
      </h2>
      {yard?.street ? (
        <address className="mt-1 not-italic">
          {yard.street}
          <br />
          {yard.city}, {yard.state} {yard.zip ?? ""}
        </address>
      ) : (
        <p className="mt-1">{lot.address}</p>
      )}
      <p className="mt-1">
        <span className="font-semibold">Hours:</span> {yard?.hours ?? "Ask the yard before you go."}
      </p>
      <p>
        <span className="font-semibold">Phone:</span>{" "}
        {yard?.phone ? (
          <a href={`tel:${yard.phone.replace(/[^\d+]/g, "")}`} className="text-brand-700 underline">
            {yard.phone}
          </a>
        ) : (
          `not on file: see the ${lot.auctionHouse} website for the yard's number`
        )}
      </p>
    </section>
  );
}

export default function ReleasePage() {
  const { purchase } = useLoaderData<typeof loader>();
  const { lot } = purchase;
  return (
    <article className="release mx-auto max-w-2xl px-3 py-6 sm:px-6 print:max-w-none print:p-0">
      <style>{`@media print { header, footer, nav, .no-print { display: none !important; } body { background: #fff; } .release { font-size: 12pt; } }`}</style>
      <p className="no-print text-sm">
        <Link to={`/purchases/${purchase.id}`} className="text-brand-700 underline">
          Back to the purchase
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-black">Vehicle release</h1>
      <p className="text-slate-600">
        Show this page (printed or on your phone) at the yard&apos;s gate.
      </p>

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
          {purchase.pickupCode}
        </p>
      </section>

      <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold">Vehicle</dt>
        <dd>{lot.title}</dd>
        <dt className="font-semibold">Lot</dt>
        <dd>
          {lot.auctionHouse} {lot.lotNumber}
        </dd>
        <dt className="font-semibold">VIN</dt>
        <dd className="break-all font-mono">{lot.vin}</dd>
        <dt className="font-semibold">Buyer</dt>
        <dd data-testid="buyer-name">{purchase.gatePass?.buyerName}</dd>
        <dt className="font-semibold">Paid</dt>
        <dd>{purchase.paidAt ? <LocalTime at={purchase.paidAt} testId="paid-at" /> : ""}</dd>
        {purchase.storage ? (
          <>
            <dt className="font-semibold">Storage</dt>
            <dd>
              Free until{" "}
              <LocalTime
                at={purchase.storage.startsAt}
                style="deadline"
                testId="storage-free-until"
              />
              , then {formatUsd(purchase.storage.perDayCents, "cents")} a day, paid at the yard
              {purchase.storage.pickedUpAt ? (
                <>
                  ; picked up <LocalTime at={purchase.storage.pickedUpAt} />
                  {purchase.storage.owedCents > 0
                    ? `, storage owed ${formatUsd(purchase.storage.owedCents, "cents")}`
                    : ", no storage owed"}
                </>
              ) : purchase.storage.owedCents > 0 ? (
                ` (owed so far: ${formatUsd(purchase.storage.owedCents, "cents")})`
              ) : (
                ""
              )}
              .
            </dd>
          </>
        ) : null}
      </dl>

      <YardCard lot={lot} yard={purchase.gatePass?.yard ?? null} />

      <section
        aria-labelledby="carrier-heading"
        className="mt-4 rounded-lg border border-slate-300 p-3 text-sm"
      >
        <h2 id="carrier-heading" className="font-bold">
          Who collects the vehicle
        </h2>
        {purchase.gatePass?.carrier ? (
          <>
            <p className="mt-1 text-slate-700">
              The buyer, with photo ID, or the carrier that claimed the transport job on BidYard,
              which has this pass with the pickup code on its own job page.
            </p>
            <p className="mt-3" data-testid="carrier-line">
              Authorised carrier: <strong>{purchase.gatePass.carrier}</strong>
            </p>
          </>
        ) : (
          <>
            <p className="mt-1 text-slate-700">
              The buyer, with photo ID, or a carrier the buyer authorises: write the carrier&apos;s
              name here before they go, and they show this pass with the pickup code.
            </p>
            <p className="mt-3" data-testid="carrier-line">
              Authorised carrier&apos;s name:{" "}
              <span
                aria-hidden="true"
                className="inline-block w-full max-w-[16rem] border-b border-slate-900 align-bottom"
              >
                &nbsp;
              </span>
            </p>
          </>
        )}
        <p className="mt-3">
          Buyer&apos;s signature:{" "}
          <span
            aria-hidden="true"
            className="inline-block w-full max-w-[16rem] border-b border-slate-900 align-bottom"
          >
            &nbsp;
          </span>
        </p>
      </section>

      <section aria-labelledby="paid-heading" className="mt-4">
        <h2 id="paid-heading" className="font-bold">
          What was paid
        </h2>
        <InvoiceLines
          lines={purchase.lines}
          totalCents={purchase.totalCents}
          caption="Invoice lines"
          totalLabel="Total paid"
        />
        <ul className="mt-2 text-sm text-slate-700">
          {purchase.paid.map((entry) => (
            <li key={entry.kind}>
              {PAID_BY[entry.kind] ?? entry.kind}: {formatUsd(entry.cents, "cents")}
            </li>
          ))}
        </ul>
      </section>

      <p className="no-print mt-6 flex flex-wrap gap-4">
        <Link to={shipItLink(purchase.lotId)} className="font-semibold text-brand-700 underline">
          Ship it
        </Link>
        <Link to="/my-auctions#won" className="text-brand-700 underline">
          My auctions
        </Link>
      </p>
    </article>
  );
}
