import { Link } from "@remix-run/react";
import type { PickupPapers } from "~/services/affiliates/pickup-papers.server";

/** The yard's street, hours and phone; or its city and a line to ask it (record 3314). */
export function YardDetails({ papers }: { papers: PickupPapers }) {
  const { yard } = papers;
  return (
    <div data-testid="pickup-yard">
      <p className="font-semibold">{papers.pickupYard ?? papers.pickupPlace}</p>
      {yard?.street ? (
        <address className="not-italic">
          {yard.street}
          <br />
          {yard.city}, {yard.state} {yard.zip ?? ""}
        </address>
      ) : (
        <p>{yard ? `${yard.city}, ${yard.state} ${yard.zip ?? ""}` : papers.pickupPlace}</p>
      )}
      <p>
        <span className="font-semibold">Hours:</span> {yard?.hours ?? "Ask the yard before you go."}
      </p>
      <p>
        <span className="font-semibold">Phone:</span>{" "}
        {yard?.phone ? (
          <a href={`tel:${yard.phone.replace(/[^\d+]/g, "")}`} className="text-brand-700 underline">
            {yard.phone}
          </a>
        ) : (
          "not on file"
        )}
      </p>
    </div>
  );
}

/** Where the vehicle goes: street (when given), city, state and ZIP; or the port. */
export function DeliveryDetails({ papers }: { papers: PickupPapers }) {
  if (papers.delivery) {
    const { street, city, state, zip } = papers.delivery;
    return (
      <address className="not-italic" data-testid="delivery-address">
        {street ? (
          <>
            {street}
            <br />
          </>
        ) : null}
        {city}, {state}
        {zip ? ` ${zip}` : ""}
        {street ? null : (
          <span className="block text-slate-600">
            No street given: the buyer chose the {zip ? "ZIP code's" : "city's"} area.
          </span>
        )}
      </address>
    );
  }
  return (
    <p data-testid="delivery-address">
      {papers.exportPort ?? ""}
      {papers.destinationCountry ? ` (to ${papers.destinationCountry})` : ""}
    </p>
  );
}

/** On the claimed job's page, for its carrier: where to collect, where to deliver, the pass. */
export function PickupPapersCard({ papers }: { papers: PickupPapers }) {
  return (
    <section
      aria-labelledby="papers-heading"
      className="mt-6 rounded-lg border border-slate-200 p-4 text-sm"
    >
      <h2 id="papers-heading" className="font-semibold">
        Pickup and delivery
      </h2>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-xs uppercase tracking-wide text-slate-500">Collect at</h3>
          <YardDetails papers={papers} />
        </div>
        <div>
          <h3 className="text-xs uppercase tracking-wide text-slate-500">
            {papers.serviceType === "export" ? "Deliver to the port" : "Deliver to"}
          </h3>
          <DeliveryDetails papers={papers} />
        </div>
      </div>
      <p className="mt-3">
        <Link
          to={`/service-orders/${papers.orderId}/gate-pass`}
          className="font-semibold text-brand-700 underline"
        >
          Open the gate pass (to show or print at the yard)
        </Link>
      </p>
    </section>
  );
}
