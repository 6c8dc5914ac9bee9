// The dated rates an admin keeps (table exchange_rates): the newest on or before today is in force
// (docs/decisions/2806). Read on every search with a price filter, so one shared copy per process
// serves them, forgotten at once when this process saves a new rate.
import { QueryTypes } from "sequelize";
import type { User } from "~/models/user.server";
import { sequelize } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { sharedAnswer } from "~/platform/shared-answer.server";
import { recordAdminAction } from "~/services/admin/audit.server";
import { UserError } from "~/utils/user-error";
import { CONVERTED_CURRENCIES, type RatesInForce } from "./exchange-rates";

/** Today's date where the rates are kept (UTC), YYYY-MM-DD. */
function today() {
  return now().toISOString().slice(0, 10);
}

async function loadRatesInForce(): Promise<RatesInForce> {
  const rows = await sequelize.query<{ currency: string; per_usd: string; as_of: string }>(
    `SELECT DISTINCT ON (currency) currency, per_usd::text AS per_usd, as_of::text AS as_of
       FROM exchange_rates WHERE as_of <= CAST(:today AS date)
      ORDER BY currency, as_of DESC`,
    { replacements: { today: today() }, type: QueryTypes.SELECT },
  );
  const rates: RatesInForce = {
    perUsd: { USD: "1", CAD: "", MXN: "" },
    asOf: { CAD: "", MXN: "" },
  };
  for (const row of rows) {
    const currency = row.currency as (typeof CONVERTED_CURRENCIES)[number];
    rates.perUsd[currency] = row.per_usd;
    rates.asOf[currency] = row.as_of;
  }
  for (const currency of CONVERTED_CURRENCIES) {
    if (!rates.perUsd[currency]) throw new Error(`No exchange rate in force for ${currency}`);
  }
  return rates;
}

const cached = sharedAnswer({ name: "exchange rates", freshMs: 60_000, load: loadRatesInForce });

/** The rates in force now (one shared copy per process, at most a minute old). */
export function ratesInForce() {
  return cached.get();
}

export type RateRow = {
  id: string;
  currency: string;
  perUsd: string;
  asOf: string;
  setBy: string | null;
  updatedAt: string;
};

/** The newest rows first: what the admin page lists. */
export async function rateHistory(limit = 30): Promise<RateRow[]> {
  const rows = await sequelize.query<Omit<RateRow, "updatedAt"> & { updatedAt: Date }>(
    `SELECT r.id::text AS id, r.currency, r.per_usd::text AS "perUsd", r.as_of::text AS "asOf",
            u.email AS "setBy", r.updated_at AS "updatedAt"
       FROM exchange_rates r LEFT JOIN users u ON u.id = r.set_by
      ORDER BY r.as_of DESC, r.currency LIMIT :limit`,
    { replacements: { limit }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

/**
 * Sets a currency's rate as of a date (a second entry for the same date corrects it); audited.
 * A date after today is refused: a rate is what was, not a forecast.
 */
export async function setExchangeRate(
  admin: Pick<User, "id" | "email">,
  input: { currency: string; perUsd: string; asOf: string },
) {
  if (input.asOf > today())
    throw new UserError("The date cannot be after today.", { status: 400, field: "asOf" });
  await sequelize.transaction(async (transaction) => {
    const [before] = await sequelize.query<{ per_usd: string }>(
      "SELECT per_usd::text AS per_usd FROM exchange_rates WHERE currency = :currency AND as_of = :asOf",
      { replacements: input, type: QueryTypes.SELECT, transaction },
    );
    await sequelize.query(
      `INSERT INTO exchange_rates (currency, per_usd, as_of, set_by)
       VALUES (:currency, :perUsd, :asOf, :adminId)
       ON CONFLICT (currency, as_of)
       DO UPDATE SET per_usd = EXCLUDED.per_usd, set_by = EXCLUDED.set_by, updated_at = now()`,
      { replacements: { ...input, adminId: admin.id }, transaction },
    );
    await recordAdminAction(
      admin,
      "exchange_rate.set",
      { type: "exchange_rate", id: `${input.currency}:${input.asOf}` },
      { before: before ? { perUsd: before.per_usd } : null, after: { perUsd: input.perUsd } },
      transaction,
    );
  });
  cached.forget();
}
