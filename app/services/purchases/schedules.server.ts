// The fee schedules and payment terms as stored (docs/decisions/1701), read for every invoice and
// estimate, and changed by admins (audited, in one transaction).
import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import type { User } from "~/models/user.server";
import { recordAdminAction } from "~/services/admin/audit.server";
import {
  FEE_SCHEDULES,
  type FeeBand,
  type FeeScheduleName,
  type FeeSchedules,
  type PurchaseTerms,
} from "./fees";

type BandRow = {
  schedule: FeeScheduleName;
  min_cents: string;
  max_cents: string | null;
  fee_cents: string;
  percent_bp: number;
};

/** Every schedule's bands, lowest price first. */
export async function loadSchedules(transaction?: Transaction): Promise<FeeSchedules> {
  const rows = await sequelize.query<BandRow>(
    "SELECT schedule, min_cents, max_cents, fee_cents, percent_bp FROM fee_bands ORDER BY schedule, min_cents",
    { type: QueryTypes.SELECT, transaction },
  );
  const schedules = Object.fromEntries(
    FEE_SCHEDULES.map((name) => [name, [] as FeeBand[]]),
  ) as FeeSchedules;
  for (const row of rows) {
    schedules[row.schedule].push({
      minCents: Number(row.min_cents),
      maxCents: row.max_cents === null ? null : Number(row.max_cents),
      feeCents: Number(row.fee_cents),
      percentBp: row.percent_bp,
    });
  }
  return schedules;
}

type TermsRow = {
  due_business_days: number;
  late_fee_cents: string;
  storage_free_days: number;
  storage_per_day_cents: string;
  default_grace_days: number;
  default_fee_cents: string;
};

export async function loadTerms(transaction?: Transaction): Promise<PurchaseTerms> {
  const [row] = await sequelize.query<TermsRow>("SELECT * FROM purchase_terms WHERE id", {
    type: QueryTypes.SELECT,
    transaction,
  });
  if (!row) throw new Error("purchase_terms is empty: run the migrations");
  return {
    dueBusinessDays: row.due_business_days,
    lateFeeCents: Number(row.late_fee_cents),
    storageFreeDays: row.storage_free_days,
    storagePerDayCents: Number(row.storage_per_day_cents),
    defaultGraceDays: row.default_grace_days,
    defaultFeeCents: Number(row.default_fee_cents),
  };
}

/**
 * The stored fees' version, as a SQL expression another read can carry at no extra round trip
 * (the lot page's one read does): the bands' count and newest writing transaction, and the terms
 * row's. Every change an admin makes writes rows in a new transaction, so the version moves in
 * every worker's next read (record 3543).
 */
export const FEES_VERSION_SQL = `(SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0)
     FROM fee_bands) || '/' || (SELECT xmin::text FROM purchase_terms WHERE id)`;

export type Fees = { schedules: FeeSchedules; terms: PurchaseTerms };

/** The last fees read in this process, with their version; the load in flight is shared. */
let kept: { version: string; fees: Promise<Fees> } | null = null;

/**
 * The schedules and terms at `version` (from FEES_VERSION_SQL): kept in this process until the
 * version moves, so a page reads them once per admin change, not once per request (record 3543).
 * Without a version they are read as stored now.
 */
export function feesAt(version: string | null): Promise<Fees> {
  if (version === null) return readFees();
  if (kept?.version === version) return kept.fees;
  const fees = readFees();
  const entry = { version, fees };
  kept = entry;
  // a failed read is not kept: the next request reads again
  fees.catch(() => {
    if (kept === entry) kept = null;
  });
  return fees;
}

async function readFees(): Promise<Fees> {
  const [schedules, terms] = await Promise.all([loadSchedules(), loadTerms()]);
  return { schedules, terms };
}

/** Replaces one schedule's bands (already checked by the admin form's schema); audited. */
export async function replaceSchedule(
  admin: Pick<User, "id" | "email">,
  schedule: FeeScheduleName,
  bands: FeeBand[],
) {
  await sequelize.transaction(async (transaction) => {
    // one writer at a time per schedule: the audit's "before" is what was replaced
    await sequelize.query("SELECT pg_advisory_xact_lock(1701, :n)", {
      replacements: { n: FEE_SCHEDULES.indexOf(schedule) },
      transaction,
    });
    const before = (await loadSchedules(transaction))[schedule];
    await sequelize.query("DELETE FROM fee_bands WHERE schedule = :schedule", {
      replacements: { schedule },
      transaction,
    });
    for (const band of bands) {
      await sequelize.query(
        `INSERT INTO fee_bands (schedule, min_cents, max_cents, fee_cents, percent_bp)
         VALUES (:schedule, :minCents, :maxCents, :feeCents, :percentBp)`,
        { replacements: { schedule, ...band }, transaction },
      );
    }
    await recordAdminAction(
      admin,
      "fees.schedule_changed",
      { type: "fee_schedule", id: schedule },
      { before, after: bands },
      transaction,
    );
  });
}

/** Changes the payment terms; audited. */
export async function updateTerms(admin: Pick<User, "id" | "email">, terms: PurchaseTerms) {
  await sequelize.transaction(async (transaction) => {
    await sequelize.query("SELECT 1 FROM purchase_terms WHERE id FOR UPDATE", { transaction });
    const before = await loadTerms(transaction);
    await sequelize.query(
      `UPDATE purchase_terms SET due_business_days = :dueBusinessDays,
         late_fee_cents = :lateFeeCents, storage_free_days = :storageFreeDays,
         storage_per_day_cents = :storagePerDayCents, default_grace_days = :defaultGraceDays,
         default_fee_cents = :defaultFeeCents, updated_at = now() WHERE id`,
      { replacements: terms, transaction },
    );
    await recordAdminAction(
      admin,
      "fees.terms_changed",
      { type: "purchase_terms", id: "terms" },
      { before, after: terms },
      transaction,
    );
  });
}
