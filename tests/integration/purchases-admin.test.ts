// Admin side of purchases: defaulting an unpaid purchase past due + grace, and editing the fee
// schedules and terms; both audited.
import { describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { exposure } from "~/services/auctions/buying-power.server";
import { ledgerTotal } from "~/services/deposits/deposits.server";
import { defaultPurchase } from "~/services/purchases/defaults.server";
import { purchaseView } from "~/services/purchases/invoices.server";
import {
  loadSchedules,
  loadTerms,
  replaceSchedule,
  updateTerms,
} from "~/services/purchases/schedules.server";
import { action as feesAction } from "~/routes/admin_.fees";
import { createTestUser, requestAs } from "../support/auth";
import { fromCents } from "~/utils/money";
import { arrangeWonPurchase, createBuyer } from "../support/purchases";
import { createTestLot } from "../support/lots";
import { placeBid } from "../support/bids";

const select = <T extends object>(sql: string, replacements: Record<string, unknown>) =>
  sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
const admin = () => createTestUser({ role: "admin" });

describe("defaulting", () => {
  it("charges the default fee from the deposit, releases the hold, relists the lot; audited, notified", async () => {
    const boss = await admin();
    const buyer = await createBuyer("1000.00");
    const { lot, purchaseId } = await arrangeWonPurchase(buyer, "1000.00", {
      soldAt: new Date("2025-03-03T15:00:00Z"),
    });
    // held: the invoice's whole total, late fee included, as it stands now (record 3510)
    expect(await exposure(buyer.id)).toBe(
      fromCents((await purchaseView(buyer.id, purchaseId)).totalCents),
    );
    const terms = await loadTerms();
    const done = await defaultPurchase(boss, purchaseId, "relist");
    expect(done.feeCents).toBe(terms.defaultFeeCents);
    const user = await User.findByPk(buyer.id, { rejectOnEmpty: true });
    expect(user.deposit).toBe(((100_000 - terms.defaultFeeCents) / 100).toFixed(2));
    expect(await ledgerTotal(buyer.id)).toBe(user.deposit);
    expect(await exposure(buyer.id)).toBe("0.00");
    const [old] = await select<{ status: string }>("SELECT status FROM lots WHERE id = :id", {
      id: lot.id,
    });
    expect(old.status).toBe("unsold");
    const [relisted] = await select<{ status: string; vin: string; lot_number: string }>(
      "SELECT status, vin, lot_number FROM lots WHERE id = :id",
      { id: done.relistedId },
    );
    expect(relisted).toEqual({
      status: "active",
      vin: lot.vin,
      lot_number: `${lot.lotNumber.slice(0, 16)}-R1`,
    });
    const audit = await select<{ action: string }>(
      "SELECT action FROM admin_audit_log WHERE target_type = 'purchase' AND target_id = :id",
      { id: purchaseId },
    );
    expect(audit.map((a) => a.action)).toEqual(["purchases.defaulted"]);
    const notes = await select<{ kind: string }>(
      "SELECT kind FROM notifications WHERE user_id = :id AND kind = 'purchase_defaulted'",
      { id: buyer.id },
    );
    expect(notes).toHaveLength(1);
    expect((await purchaseView(buyer.id, purchaseId)).defaultFeeCents).toBe(terms.defaultFeeCents);
    // twice: refused, nothing more taken
    await expect(defaultPurchase(boss, purchaseId, "close")).toBeRefused(409);
    expect(await ledgerTotal(buyer.id)).toBe(user.deposit);
  });

  it("takes the fee only from what the deposit has free: a leading bid stays covered", async () => {
    const boss = await admin();
    const terms = await loadTerms();
    expect(terms.defaultFeeCents).toBeGreaterThan(10_000);
    const buyer = await createBuyer("1000.00");
    // the buyer leads an open lot with a maximum that leaves $100 free once the purchase's hold
    // ends (bid first: the invoice's fees hold more than the $100 bid while it is unpaid)
    const leadingMax = 90_000;
    const open = await createTestLot();
    const bid = await placeBid(buyer.id, {
      lotId: open.id,
      amount: "100.00",
      isProxy: true,
      maxAmount: (leadingMax / 100).toFixed(2),
    });
    expect(bid.bidId).toBeTruthy();
    const { purchaseId } = await arrangeWonPurchase(buyer, "100.00", {
      soldAt: new Date("2025-03-03T15:00:00Z"),
    });
    const done = await defaultPurchase(boss, purchaseId, "close");
    expect(done.feeCents).toBe(100_000 - leadingMax);
    const user = await User.findByPk(buyer.id, { rejectOnEmpty: true });
    expect(user.deposit).toBe((leadingMax / 100).toFixed(2));
    expect(await ledgerTotal(buyer.id)).toBe(user.deposit);
    expect(await exposure(buyer.id)).toBe(user.deposit);
  });

  it("refuses a purchase still inside its due date and grace; nothing written", async () => {
    const boss = await admin();
    const buyer = await createBuyer("1000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "800.00");
    await expect(defaultPurchase(boss, purchaseId, "close")).toBeRefused(409);
    expect(await ledgerTotal(buyer.id)).toBe("1000.00");
    await expect(defaultPurchase(boss, "999999999", "close")).toBeRefused(404);
  });
});

describe("fee schedules", () => {
  it("an admin's change is audited and applies to new invoices only", async () => {
    const boss = await admin();
    const buyer = await createBuyer("9000.00");
    const before = await arrangeWonPurchase(buyer, "500.00");
    const gateBefore = (await loadSchedules()).gate;
    const request = await requestAs(boss, "/admin/fees", {
      form: { intent: "schedule", schedule: "gate", min: ["0"], fee: ["95"], percent: [""] },
    });
    const response = (await feesAction({ request, params: {}, context: {} })) as Response;
    expect(response.status).toBe(302);
    expect((await loadSchedules()).gate).toEqual([
      { minCents: 0, maxCents: null, feeCents: 9500, percentBp: 0 },
    ]);
    const after = await arrangeWonPurchase(buyer, "500.00");
    const gate = async (id: string) =>
      (await purchaseView(buyer.id, id)).lines.find((l) => l.code === "gate_fee")!.cents;
    expect(await gate(before.purchaseId)).toBe(gateBefore[0].feeCents);
    expect(await gate(after.purchaseId)).toBe(9500);
    const audit = await select<{ before: unknown; after: unknown }>(
      "SELECT before, after FROM admin_audit_log WHERE action = 'fees.schedule_changed' AND admin_id = :id",
      { id: boss.id },
    );
    expect(audit).toHaveLength(1);
    // a band list not starting at $0 is refused, nothing changes
    const bad = await feesAction({
      request: await requestAs(boss, "/admin/fees", {
        form: { intent: "schedule", schedule: "gate", min: ["10"], fee: ["1"], percent: [""] },
      }),
      params: {},
      context: {},
    });
    expect((bad as { init?: { status?: number } }).init?.status).toBe(400);
    await replaceSchedule(boss, "gate", gateBefore);
    const terms = await loadTerms();
    await updateTerms(boss, { ...terms, lateFeeCents: 7500 });
    expect((await loadTerms()).lateFeeCents).toBe(7500);
    await updateTerms(boss, terms);
  });
});

describe("fees and terms by form", () => {
  const post = async (boss: User, form: Record<string, string | string[]>) =>
    (await feesAction({
      request: await requestAs(boss, "/admin/fees", { form }),
      params: {},
      context: {},
    })) as Response & { init?: { status?: number }; data?: { error?: string } };

  it("amounts past what the books take are a 400 that says the limit; nothing changes", async () => {
    const boss = await admin();
    const schedules = await loadSchedules();
    const terms = await loadTerms();
    const band = await post(boss, {
      intent: "schedule",
      schedule: "gate",
      min: ["0"],
      fee: ["2000000"],
      percent: [""],
    });
    expect(band.init?.status).toBe(400);
    expect(band.data?.error).toBe("Row 1: Fee: at most $1,000,000.00");
    const form = {
      intent: "terms",
      dueBusinessDays: String(terms.dueBusinessDays),
      lateFee: fromCents(terms.lateFeeCents),
      storageFreeDays: String(terms.storageFreeDays),
      storagePerDay: fromCents(terms.storagePerDayCents),
      defaultGraceDays: String(terms.defaultGraceDays),
      defaultFee: fromCents(terms.defaultFeeCents),
    };
    for (const [field, value, message] of [
      ["lateFee", "100000.01", "Late fee: at most $100,000.00"],
      ["storagePerDay", "99999", "Storage per day: at most $10,000.00"],
      ["defaultFee", "1000000", "Default fee: at most $100,000.00"],
    ] as const) {
      const refused = await post(boss, { ...form, [field]: value });
      expect(refused.init?.status).toBe(400);
      expect(refused.data?.error).toBe(message);
    }
    expect(await loadSchedules()).toEqual(schedules);
    expect(await loadTerms()).toEqual(terms);
  });

  it("terms saved by form apply and are audited with what they were", async () => {
    const boss = await admin();
    const terms = await loadTerms();
    const saved = await post(boss, {
      intent: "terms",
      dueBusinessDays: String(terms.dueBusinessDays),
      lateFee: fromCents(terms.lateFeeCents),
      storageFreeDays: String(terms.storageFreeDays),
      storagePerDay: "31.50",
      defaultGraceDays: String(terms.defaultGraceDays),
      defaultFee: fromCents(terms.defaultFeeCents),
    });
    expect(saved.status).toBe(302);
    expect(await loadTerms()).toEqual({ ...terms, storagePerDayCents: 3150 });
    const [audit] = await select<{ before: typeof terms; after: typeof terms }>(
      "SELECT before, after FROM admin_audit_log WHERE action = 'fees.terms_changed' AND admin_id = :id",
      { id: boss.id },
    );
    expect(audit.before).toEqual(terms);
    expect(audit.after).toEqual({ ...terms, storagePerDayCents: 3150 });
    await updateTerms(boss, terms);
  });
});

describe("payment due tomorrow", () => {
  it("the reminders job reminds each unpaid purchase due within a day, once", async () => {
    const { addJob } = await import("~/platform/jobs/queue.server");
    const { runJobs } = await import("../support/jobs");
    const runReminders = async () => {
      await addJob("reminders", {});
      await runJobs();
    };
    const buyer = await createBuyer("3000.00");
    const { purchaseId } = await arrangeWonPurchase(buyer, "600.00");
    // due in 12 hours
    await sequelize.query(
      "UPDATE purchases SET due_at = now() + interval '12 hours' WHERE id = :id",
      {
        replacements: { id: purchaseId },
      },
    );
    await runReminders();
    await runReminders();
    const notes = await select<{ link: string }>(
      "SELECT link FROM notifications WHERE user_id = :id AND kind = 'purchase_due'",
      { id: buyer.id },
    );
    expect(notes).toEqual([{ link: `/purchases/${purchaseId}` }]);
  });
});
