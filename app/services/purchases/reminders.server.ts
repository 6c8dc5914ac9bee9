// "Payment due tomorrow" and "Payment overdue": once per purchase each, from the reminders
// job. The mark, the notification and the e-mail commit together, so a purchase is told once
// even when two runs meet (docs/decisions/2754).
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { notify } from "~/platform/notifications.server";
import { formatUsd } from "~/utils/money";
import { queuePurchaseMail } from "./mail.server";
import { penalties } from "./penalties";
import { loadTerms } from "./schedules.server";
import { formatDeadline } from "~/utils/time";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function remindDuePurchases(limit = 500) {
  const at = now();
  return sequelize.transaction(async (transaction) => {
    const due = await sequelize.query<{
      id: string;
      user_id: string;
      due_at: Date;
      year: number;
      make: string;
      model: string;
      time_zone: string;
    }>(
      `UPDATE purchases p SET due_reminded_at = :at
         FROM lots l
        WHERE l.id = p.lot_id AND p.id IN (
          SELECT id FROM purchases WHERE status = 'pending' AND due_reminded_at IS NULL
             AND due_at > :at AND due_at <= :until ORDER BY due_at LIMIT :limit
             FOR UPDATE SKIP LOCKED)
        RETURNING p.id, p.user_id, p.due_at, l.year, l.make, l.model,
          (SELECT u.time_zone FROM users u WHERE u.id = p.user_id) AS time_zone`,
      {
        replacements: { at, until: new Date(at.getTime() + DAY_MS), limit },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    for (const p of due) {
      await notify(
        p.user_id,
        {
          kind: "purchase_due",
          title: "Payment due tomorrow",
          body: `Your ${p.year} ${p.make} ${p.model} is due by ${formatDeadline(p.due_at, p.time_zone)}. A late fee applies after that.`,
          link: `/purchases/${p.id}`,
        },
        transaction,
      );
      await queuePurchaseMail("payment_due", String(p.id), transaction);
    }
    return due.length;
  });
}

/**
 * "Payment overdue": once per purchase, from the reminders job, for unpaid purchases past
 * their due date: the late fee now on the invoice and when the sale can be cancelled, in the app
 * and by e-mail. Marked in the same commit, so told once even when two machines tick together.
 */
export async function noticeOverduePurchases(limit = 500) {
  const at = now();
  const terms = await loadTerms();
  return sequelize.transaction(async (transaction) => {
    const overdue = await sequelize.query<{
      id: string;
      user_id: string;
      due_at: Date;
      year: number;
      make: string;
      model: string;
    }>(
      `UPDATE purchases p SET overdue_notified_at = :at
         FROM lots l
        WHERE l.id = p.lot_id AND p.id IN (
          SELECT id FROM purchases WHERE status = 'pending' AND overdue_notified_at IS NULL
             AND due_at <= :at ORDER BY due_at LIMIT :limit
             FOR UPDATE SKIP LOCKED)
        RETURNING p.id, p.user_id, p.due_at, l.year, l.make, l.model`,
      { replacements: { at, limit }, type: QueryTypes.SELECT, transaction },
    );
    for (const p of overdue) {
      await notify(
        p.user_id,
        {
          kind: "purchase_overdue",
          title: "Payment overdue",
          body: `Your ${p.year} ${p.make} ${p.model} is not paid and past its due date.${terms.lateFeeCents > 0 ? ` The ${formatUsd(terms.lateFeeCents, "cents")} late fee is now on the invoice.` : ""} ${penalties(terms).find((x) => x.code === "default")!.text}`,
          link: `/purchases/${p.id}`,
        },
        transaction,
      );
      await queuePurchaseMail("overdue", String(p.id), transaction);
    }
    return overdue.length;
  });
}
