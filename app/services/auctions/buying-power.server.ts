import { QueryTypes, type Transaction } from "sequelize";
import { sequelize, sql } from "~/models/db.server";
import { now } from "~/platform/clock.server";
import { User } from "~/models/user.server";
import { biddingEligibility, type BiddingEligibility } from "~/services/auctions/eligibility";
import { identityStatusOf } from "~/services/kyc/kyc.server";
import type { IdentityStatus } from "~/services/kyc/status";
import { fromCents, toCents } from "~/utils/money";

/**
 * What a user's deposit is holding: the user's maxima on OTHER open lots where they lead, plus
 * each unpaid invoice's whole total (bid, fees, and the late fee once past due: record 3510).
 * Being outbid frees the hold at once because the lot's leader changes. The rule is the
 * deposit_exposure SQL function (db/functions/010-deposit-exposure.sql), which place_bid uses for its
 * funds check too; it is asked at the server's clock, the one the invoices charge by.
 */
export async function exposure(
  userId: string,
  transaction?: Transaction,
  options: { excludeLotId?: string | number } = {},
): Promise<string> {
  const statement = "SELECT total::numeric(14, 2)::text AS total FROM deposit_exposure($1, $2, $3)";
  if (!transaction) {
    // a screen's figure: one statement straight through the pool (docs/decisions/2904)
    const [row] = await sql<{ total: string }>(
      statement,
      [userId, options.excludeLotId ?? null, now()],
      {
        prepared: true,
      },
    );
    return row.total;
  }
  const [row] = await sequelize.query<{ total: string }>(
    "SELECT total::numeric(14, 2)::text AS total FROM deposit_exposure(:userId, :excludeLotId, :at)",
    {
      replacements: { userId, excludeLotId: options.excludeLotId ?? null, at: now() },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return row.total;
}

/**
 * Deposit minus exposure, as a decimal string with two places. Pass the user row when it has just
 * been read (in this transaction, or for a screen) to skip reading it again.
 */
export async function availableBuyingPower(
  userOrId: string | { id: string; deposit: string },
  transaction?: Transaction,
  options: { excludeLotId?: string | number } = {},
) {
  const user =
    typeof userOrId === "string"
      ? await User.findByPk(userOrId, { transaction, rejectOnEmpty: true })
      : userOrId;
  return availableWith(user.deposit, await exposure(user.id, transaction, options));
}

/** Deposit minus what it holds, never below zero: the figure every screen shows. */
export function availableWith(deposit: string, held: string) {
  return fromCents(Math.max(0, toCents(deposit) - toCents(held)));
}

export type BuyingPower = {
  /**
   * Deposit minus everything it holds (leads on open lots, unpaid invoices' whole totals), e.g. "2000.00": the
   * one figure every screen shows as "Available for bidding". On a lot the user leads, the bid
   * form adds that lot's own hold back (availableForLot), since a lot's hold is not counted
   * against itself.
   */
  available: string;
  /** Whether this user may bid, and every step still missing (one rule: eligibility.ts). */
  eligibility: BiddingEligibility;
  /** Where their identity verification stands (services/kyc/status.ts). */
  identity: IdentityStatus;
};

/**
 * The signed-in user's buying power as every screen shows it (dashboard, auction list and bid
 * dialog, lot page, deposit page), and what, if anything, keeps them from bidding. Checked
 * again, under the lot lock, on every bid.
 */
export async function buyingPower(
  user: {
    id: string;
    verified: boolean;
    deposit: string;
  },
  /**
   * `transaction`: read inside it (the lot page's one snapshot); `held`: what the deposit holds,
   * when it came with the user in a page's session read (docs/decisions/2903).
   */
  options: { transaction?: Transaction; held?: string } = {},
): Promise<BuyingPower> {
  const { transaction, held } = options;
  // the user row was just read for this request: only what their deposit holds is asked for,
  // unless it came with the user
  const [available, identity] = await Promise.all([
    held === undefined
      ? availableBuyingPower(user, transaction)
      : Promise.resolve(availableWith(user.deposit, held)),
    identityStatusOf(user),
  ]);
  return {
    available,
    identity,
    eligibility: biddingEligibility(identity, toCents(user.deposit)),
  };
}
