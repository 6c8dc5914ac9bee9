import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { VinReport } from "~/services/vehicles/vin-report.server";

function engineText(engine: NonNullable<VinReport["decoded"]>["engine"]) {
  const parts = [
    engine.displacementLiters ? `${engine.displacementLiters} L` : null,
    engine.cylinders ? `${engine.cylinders} cylinders` : null,
    engine.model,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : null;
}

/** The VIN section's frame, the same on the VIN page and the lot page: heading, VIN, warning. */
function VinSection({
  vin,
  warning,
  children,
}: {
  vin: string;
  warning: string | null;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="vin-facts-heading"
      className="mt-6 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="vin-facts-heading" className="text-lg font-bold">
        What the VIN says
      </h2>
      <p className="text-xs text-slate-500">
        <span className="break-all font-mono">{vin}</span>, decoded from NHTSA vehicle data
      </p>
      {warning ? (
        <p
          role="note"
          className="mt-2 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
          data-testid="vin-warning"
        >
          {warning}
        </p>
      ) : null}
      {children}
    </section>
  );
}

/**
 * What the VIN itself says (decoded offline from NHTSA's vPIC data), beside what the seller or
 * feed states: model year, make and model, body, drivetrain, engine, fuel and plant, and a
 * warning when the two disagree or the check digit fails.
 */
export function VinFacts({ report }: { report: VinReport | null }) {
  if (!report) return null;
  const d = report.decoded;
  const rows: Array<[string, string | null]> = d
    ? [
        ["Model year", d.modelYear ? String(d.modelYear) : null],
        ["Make and model", [d.make, d.model].filter(Boolean).join(" ") || null],
        ["Series / trim", [d.series, d.trim].filter(Boolean).join(" · ") || null],
        [
          "Body",
          [d.bodyStyle, d.doors ? `${d.doors} doors` : null].filter(Boolean).join(", ") || null,
        ],
        ["Drivetrain", d.driveType],
        ["Engine", engineText(d.engine)],
        ["Fuel", d.fuelType],
        ["Plant", d.plant ? [d.plant.city, d.plant.country].filter(Boolean).join(", ") : null],
        ["Manufacturer", d.manufacturer],
        ["Check digit", d.checkDigitValid ? "Valid" : "Invalid"],
      ]
    : [];
  return (
    <VinSection vin={report.vin} warning={report.warning}>
      {d && d.decoded ? (
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-3 border-b border-slate-100 py-1">
              <dt className="text-slate-600">{label}</dt>
              <dd className="text-right font-medium">{value ?? "Not encoded"}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-600">
          This VIN&apos;s maker is not in the NHTSA data, so it cannot be decoded here.
        </p>
      )}
    </VinSection>
  );
}

/** What the lot page keeps of the VIN report: the VIN, its warning, whether it decodes. */
export type VinSummaryData = Pick<VinReport, "vin" | "warning"> & { decoded: boolean };

export function vinSummary(report: VinReport | null): VinSummaryData | null {
  if (!report) return null;
  return { vin: report.vin, warning: report.warning, decoded: Boolean(report.decoded?.decoded) };
}

/**
 * The lot page's VIN section: the warning where the VIN disagrees or fails its check digit, and
 * a link to every decoded fact on their own page (record 3544).
 */
export function VinSummary({ summary, href }: { summary: VinSummaryData | null; href: string }) {
  if (!summary) return null;
  return (
    <VinSection vin={summary.vin} warning={summary.warning}>
      <p className="mt-2 text-sm">
        {summary.decoded ? (
          <Link to={href} prefetch="intent" className="text-brand-700 underline">
            Model year, body, drivetrain, engine and plant as the VIN decodes
          </Link>
        ) : (
          "This VIN's maker is not in the NHTSA data, so it cannot be decoded here."
        )}
      </p>
    </VinSection>
  );
}
