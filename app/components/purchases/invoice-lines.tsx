import type { InvoiceLine } from "~/services/purchases/fees";
import { formatUsd } from "~/utils/money";

/** Every line of an invoice or estimate, and the total, in one table (prints as it shows). */
export function InvoiceLines({
  lines,
  totalCents,
  caption,
  totalLabel = "Total",
}: {
  lines: InvoiceLine[];
  totalCents: number;
  caption: string;
  totalLabel?: string;
}) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {lines.map((line) => (
          <tr key={line.code} className="border-b border-slate-100">
            <th scope="row" className="py-1.5 pr-3 text-left font-normal text-slate-700">
              {line.label}
            </th>
            <td className="py-1.5 text-right tabular-nums">{formatUsd(line.cents, "cents")}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" className="pt-2 text-left font-bold">
            {totalLabel}
          </th>
          <td className="pt-2 text-right font-bold tabular-nums" data-testid="invoice-total">
            {formatUsd(totalCents, "cents")}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
