// Payment due dates skip US federal holidays (record 3210): the invoice the closer writes, its
// notification and its e-mail (subject, text and the invoice attached) all give the same day,
// from the one business-day function.
import { QueryTypes } from "sequelize";
import { describe, expect, it } from "vitest";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import { loadTerms } from "~/services/purchases/schedules.server";
import { formatDeadline } from "~/utils/time";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { withTestGateway } from "../support/gateway";

withTestGateway();

const select = <T extends object>(sql: string, replacements: Record<string, unknown>) =>
  sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });

async function wonAt(soldAt: string) {
  const buyer = await createBuyer("5000.00");
  const { purchaseId } = await arrangeWonPurchase(buyer, "2000.00", { soldAt: new Date(soldAt) });
  const user = await User.findByPk(buyer.id, { rejectOnEmpty: true });
  const view = await purchaseView(buyer.id, purchaseId);
  const [note] = await select<{ body: string }>(
    "SELECT body FROM notifications WHERE user_id = :id AND kind = 'auction_won'",
    { id: buyer.id },
  );
  const [mail] = await select<{
    subject: string;
    text_body: string;
    attachments: Array<{ content: string }>;
  }>(
    "SELECT subject, text_body, attachments FROM mail_outbox WHERE user_id = :id AND topic = 'won'",
    {
      id: buyer.id,
    },
  );
  return { view, note, mail, zone: user.timeZone };
}

describe("due dates and the US federal holidays", () => {
  it("the day before Thanksgiving 2026: due three business days on, Thanksgiving skipped", async () => {
    expect((await loadTerms()).dueBusinessDays).toBe(3);
    // Wednesday Nov 25, noon in Dallas: Fri 27, Mon 30, Tue Dec 1 (not Thu 26, Thanksgiving)
    const { view, note, mail, zone } = await wonAt("2026-11-25T18:00:00Z");
    expect(view.dueAt).toBe("2026-12-01T23:00:00.000Z");
    const due = formatDeadline(new Date(view.dueAt!), zone);
    expect(due).toContain("Dec");
    expect(note.body).toContain(`due by ${due}`);
    expect(mail.subject).toContain(`due by ${due}`);
    expect(mail.text_body).toContain(`due by ${due}`);
    expect(mail.attachments[0].content).toContain(due);
  });

  it("around Christmas 2026: Friday Dec 25 is skipped; New Year's Day 2027 too", async () => {
    // Tuesday Dec 22: Wed 23, Thu 24, Mon 28
    const christmas = await wonAt("2026-12-22T18:00:00Z");
    expect(christmas.view.dueAt).toBe("2026-12-28T23:00:00.000Z");
    const due = formatDeadline(new Date(christmas.view.dueAt!), christmas.zone);
    expect(christmas.mail.subject).toContain(`due by ${due}`);
    expect(christmas.note.body).toContain(`due by ${due}`);
    // Wednesday Dec 30: Thu 31, Mon Jan 4, Tue Jan 5 (not Fri Jan 1)
    const newYear = await wonAt("2026-12-30T18:00:00Z");
    expect(newYear.view.dueAt).toBe("2027-01-05T23:00:00.000Z");
    expect(newYear.mail.subject).toContain(
      `due by ${formatDeadline(new Date(newYear.view.dueAt!), newYear.zone)}`,
    );
  });
});
