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
    // the rows' look is the table's class (app/tailwind.css), said once (record 3545)
    <table className="invoice-lines w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {lines.map((line) => (
          <tr key={line.code}>
            <th scope="row">{line.label}</th>
            <td>{formatUsd(line.cents, "cents")}</td>
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
