// What a buyer owes when a purchase is paid late, defaulted or left at the yard, in dollars,
// before it is owed (docs/decisions/2751). Read from the same payment terms the charges use
// (lateFeeCents, defaultableAt, storageCents in ./fees), so the words and the charges cannot
// drift apart. Plain TypeScript: the invoice, the pay step, the lot's all-in box, the "You won"
// notice and the won e-mail all word it here.
import { formatUsd } from "~/utils/money";
import type { PurchaseTerms } from "./fees";

export type PenaltyTerms = Pick<
  PurchaseTerms,
  "lateFeeCents" | "storageFreeDays" | "storagePerDayCents" | "defaultGraceDays" | "defaultFeeCents"
>;

export type Penalty = { code: "late_fee" | "default" | "storage"; label: string; text: string };

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/** Only the fields the words need: what a loader sends to the page. */
export function penaltyTerms(terms: PurchaseTerms): PenaltyTerms {
  return {
    lateFeeCents: terms.lateFeeCents,
    storageFreeDays: terms.storageFreeDays,
    storagePerDayCents: terms.storagePerDayCents,
    defaultGraceDays: terms.defaultGraceDays,
    defaultFeeCents: terms.defaultFeeCents,
  };
}

/** One line each: the late fee, the default (grace days and fee), storage (free days and rate). */
export function penalties(terms: PenaltyTerms): Penalty[] {
  const late = formatUsd(terms.lateFeeCents, "cents");
  const fee = formatUsd(terms.defaultFeeCents, "cents");
  const perDay = formatUsd(terms.storagePerDayCents, "cents");
  return [
    {
      code: "late_fee",
      label: "Late fee",
      text:
        terms.lateFeeCents > 0
          ? `${late}, added once if the invoice is not paid by its due date.`
          : "None: paying after the due date adds no fee.",
    },
    {
      code: "default",
      label: "Default",
      text: `Unpaid ${terms.defaultGraceDays > 0 ? `${days(terms.defaultGraceDays)} after` : "at"} the due date, the sale can be cancelled${terms.defaultFeeCents > 0 ? ` and a default fee of ${fee} taken from your deposit` : ""}.`,
    },
    {
      code: "storage",
      label: "Storage",
      text:
        terms.storagePerDayCents === 0
          ? "Free at the yard until pickup."
          : terms.storageFreeDays > 0
            ? // yard days, ending when the yard closes on the last one (record 3511)
              `Free for ${terms.storageFreeDays} business ${terms.storageFreeDays === 1 ? "day" : "days"} after payment, until the yard closes on ${terms.storageFreeDays === 1 ? "that day" : "the last of them"} (weekends and holidays do not count), then ${perDay} a day at the yard until pickup.`
            : `${perDay} a day at the yard from payment until pickup.`,
    },
  ];
}

/** The same terms as one paragraph, for notices and e-mails. */
export function penaltySummary(terms: PenaltyTerms) {
  return penalties(terms)
    .map((p) => `${p.label}: ${p.text}`)
    .join(" ");
}
