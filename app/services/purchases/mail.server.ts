// The purchase's e-mails (docs/decisions/2754): won (with the invoice attached as HTML), payment
// due within 24 hours, overdue, paid (a receipt) and release ready. Each is queued in the outbox
// in the transaction that made it true, under a key that lets it be queued once per purchase, and
// under its own topic, so each has its own preference and one-click unsubscribe.
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { env } from "~/platform/env.server";
import { queueMail, type MailAttachment } from "~/platform/mail/outbox.server";
import type { MailTopic } from "~/platform/mail/topics";
import { formatDeadline } from "~/utils/time";
import { formatUsd } from "~/utils/money";
import { defaultableAt, linesTotal, storageStartsAt, type InvoiceLine } from "./fees";
import { findPurchase, lotTitle, purchaseLines, type PurchaseRow } from "./invoices.server";
import { penalties, penaltySummary } from "./penalties";
import { howToPay, paidParts } from "./pay-words";
import { paymentGateway } from "~/platform/payments/index.server";
import { loadTerms } from "./schedules.server";

export type PurchaseMailKind = "won" | "payment_due" | "overdue" | "paid" | "release";

const appUrl = (path: string) => `${new URL(env().APP_URL).origin}${path}`;

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** The invoice as a standalone HTML page: what the won e-mail attaches and a buyer can print. */
export function invoiceHtml(input: {
  purchaseId: string;
  title: string;
  house: string;
  lotNumber: string;
  vin: string;
  yard: string;
  lines: InvoiceLine[];
  totalCents: number;
  due: string;
  /** How the invoice can be paid, as the invoice page offers it (pay-words.ts). */
  howToPay: string;
  terms: Parameters<typeof penalties>[0];
}) {
  const rows = input.lines
    .map(
      (line) =>
        `<tr><th scope="row" style="text-align:left;font-weight:normal;padding:4px 12px 4px 0">${escapeHtml(line.label)}</th><td style="text-align:right;padding:4px 0">${formatUsd(line.cents, "cents")}</td></tr>`,
    )
    .join("\n");
  const terms = penalties(input.terms)
    .map((p) => `<li><strong>${escapeHtml(p.label)}:</strong> ${escapeHtml(p.text)}</li>`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>BidYard invoice ${escapeHtml(input.purchaseId)}: ${escapeHtml(input.title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:640px;margin:0 auto;padding:16px;color:#0f172a">
<h1 style="font-size:22px">BidYard invoice</h1>
<p>Purchase ${escapeHtml(input.purchaseId)} · ${escapeHtml(input.title)}<br>
${escapeHtml(input.house)} lot ${escapeHtml(input.lotNumber)} · VIN ${escapeHtml(input.vin)}<br>
Pickup: ${escapeHtml(input.yard)}</p>
<table style="width:100%;border-collapse:collapse;font-size:14px"><tbody>
${rows}
</tbody><tfoot><tr><th scope="row" style="text-align:left;padding-top:8px">Total</th><td style="text-align:right;padding-top:8px;font-weight:bold">${formatUsd(input.totalCents, "cents")}</td></tr></tfoot></table>
<p><strong>Due by ${escapeHtml(input.due)}.</strong> ${escapeHtml(input.howToPay)}</p>
<h2 style="font-size:16px">If you pay late or leave it at the yard</h2>
<ul>
${terms}
</ul>
</body></html>`;
}

type Recipient = { time_zone: string };

async function recipient(userId: string, transaction?: Transaction) {
  const [row] = await sequelize.query<Recipient>("SELECT time_zone FROM users WHERE id = :userId", {
    replacements: { userId },
    type: QueryTypes.SELECT,
    transaction,
  });
  return row ?? { time_zone: "America/Chicago" };
}

/**
 * Where the release e-mail sends the buyer (record 3531): the yard's street, then its hours and
 * phone from the yards table (record 3314); the yard's town and a line to ask it when not on file.
 */
async function releaseWhere(row: PurchaseRow, yardLine: string, transaction: Transaction) {
  const [yard] = row.yard_name
    ? await sequelize.query<{
        street: string | null;
        city: string;
        state: string;
        zip: string | null;
        hours: string | null;
        phone: string | null;
      }>(
        `SELECT street, city, state, zip, hours, phone FROM yards
          WHERE auction_house = :house AND name = :name`,
        {
          replacements: { house: row.auction_house, name: row.yard_name },
          type: QueryTypes.SELECT,
          transaction,
        },
      )
    : [];
  const where = yard?.street
    ? `${row.yard_name}, ${yard.street}, ${yard.city}, ${yard.state}${yard.zip ? ` ${yard.zip}` : ""}`
    : yardLine;
  const hours = yard?.hours
    ? `Yard hours: ${yard.hours}.`
    : "Ask the yard for its hours before you go.";
  const phone = yard?.phone ? ` Yard phone: ${yard.phone}.` : "";
  return [`Where: ${where}. VIN ${row.vin}.`, `${hours}${phone}`];
}

function yardOf(row: PurchaseRow) {
  const house = row.auction_house === "iaai" ? "IAAI" : "Copart";
  const address = `${row.location_city}, ${row.location_state}${row.location_zip ? ` ${row.location_zip}` : ""}`;
  return { house, yard: `${row.yard_name ?? `${house} ${row.location_city}`}, ${address}` };
}

/**
 * Queues the `kind` e-mail of purchase `purchaseId` inside `transaction` (the one that made it
 * true), once: a second call for the same purchase and kind queues nothing. Answers the outbox
 * id, or null when nothing was queued (already queued, or the buyer stopped that topic).
 */
export async function queuePurchaseMail(
  kind: PurchaseMailKind,
  purchaseId: string,
  transaction: Transaction,
) {
  const row = await findPurchase(purchaseId, transaction);
  if (!row) return null;
  const [terms, person] = await Promise.all([
    loadTerms(transaction),
    recipient(row.user_id, transaction),
  ]);
  const zone = person.time_zone;
  const title = lotTitle(row);
  const at = now();
  const lines = purchaseLines(row, terms, at);
  const totalCents = linesTotal(lines);
  const due = row.due_at ? formatDeadline(row.due_at, zone) : "";
  const invoice = appUrl(`/purchases/${row.id}`);
  const { house, yard } = yardOf(row);
  // how to pay, in the invoice page's own words (record 3512)
  const ways = howToPay(paymentGateway().testMode);
  let subject: string;
  let paragraphs: string[];
  let action: { label: string; url: string };
  let attachments: MailAttachment[] | undefined;

  switch (kind) {
    case "won":
      subject = `You won the ${title}: ${formatUsd(totalCents, "cents")} due by ${due}`;
      paragraphs = [
        `You won the ${title} (${house} lot ${row.lot_number}) for ${formatUsd(row.amount)}.`,
        `Your invoice is attached: ${formatUsd(totalCents, "cents")} in all, due by ${due}.`,
        ways,
        penaltySummary(terms),
      ];
      action = { label: "Pay the invoice", url: invoice };
      attachments = [
        {
          filename: `bidyard-invoice-${row.id}.html`,
          contentType: "text/html; charset=utf-8",
          content: invoiceHtml({
            purchaseId: String(row.id),
            title,
            house,
            lotNumber: row.lot_number,
            vin: row.vin,
            yard,
            lines,
            totalCents,
            due,
            howToPay: ways,
            terms,
          }),
        },
      ];
      break;
    case "payment_due":
      subject = `Payment due by ${due}: ${title}`;
      paragraphs = [
        `Your invoice for the ${title} (${house} lot ${row.lot_number}) is due by ${due}: ${formatUsd(totalCents, "cents")}.`,
        terms.lateFeeCents > 0
          ? `Pay by then to avoid the ${formatUsd(terms.lateFeeCents, "cents")} late fee.`
          : "Pay by then to keep your purchase.",
        ways,
      ];
      action = { label: "Pay the invoice", url: invoice };
      break;
    case "overdue": {
      const cancelFrom = row.due_at ? formatDeadline(defaultableAt(terms, row.due_at), zone) : "";
      subject = `Payment overdue: ${title}`;
      paragraphs = [
        `Your invoice for the ${title} (${house} lot ${row.lot_number}) was due by ${due} and is not paid.`,
        `${terms.lateFeeCents > 0 ? `The ${formatUsd(terms.lateFeeCents, "cents")} late fee is now on it: ` : ""}${formatUsd(totalCents, "cents")} in all.`,
        `Unpaid by ${cancelFrom}, the sale can be cancelled${terms.defaultFeeCents > 0 ? ` and a default fee of ${formatUsd(terms.defaultFeeCents, "cents")} taken from your deposit` : ""}.`,
        ways,
      ];
      action = { label: "Pay the invoice", url: invoice };
      break;
    }
    case "paid": {
      const [parts] = await sequelize.query<{ deposit: string | null; gateway: string | null }>(
        `SELECT sum(amount) FILTER (WHERE kind = 'deposit')::text AS deposit,
                sum(amount) FILTER (WHERE kind = 'gateway')::text AS gateway
           FROM purchase_entries WHERE purchase_id = :id`,
        { replacements: { id: row.id }, type: QueryTypes.SELECT, transaction },
      );
      subject = `Receipt: ${title} paid, ${formatUsd(totalCents, "cents")}`;
      paragraphs = [
        `We received your payment for the ${title} (${house} lot ${row.lot_number}): ${formatUsd(totalCents, "cents")}, paid once.`,
        // what paid it, as the paid invoice page lists it (record 3512)
        ...paidParts({
          deposit: parts?.deposit ? formatUsd(parts.deposit) : null,
          gateway: parts?.gateway ? formatUsd(parts.gateway) : null,
        }),
      ];
      action = { label: "See the invoice", url: invoice };
      break;
    }
    case "release": {
      const paidAt = row.paid_at ? new Date(row.paid_at) : at;
      subject = `Release ready: pick up the ${title}`;
      paragraphs = [
        `The ${title} is yours to collect. Pickup code: ${row.pickup_code ?? ""}.`,
        ...(await releaseWhere(row, yard, transaction)),
        terms.storagePerDayCents > 0
          ? `Storage is free until ${formatDeadline(storageStartsAt(terms, paidAt, row.location_state), zone)}, then ${formatUsd(terms.storagePerDayCents, "cents")} a day, paid at the yard.`
          : "Storage at the yard is free until pickup.",
      ];
      action = { label: "Print the release", url: appUrl(`/purchases/${row.id}/release`) };
      break;
    }
  }

  return queueMail(
    {
      userId: row.user_id,
      topic: kind satisfies MailTopic,
      subject,
      content: { paragraphs, action },
      dedupeKey: `purchase-${kind}:${row.id}`,
      attachments,
    },
    transaction,
  );
}
