import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { BID_TEXTS, bidMessage } from "~/modules/auctions/rules";
import { canBidWith } from "~/modules/deposits/rules";
import { fromCents, toCents } from "~/utils/money";

/**
 * What a user's deposit is holding: the user's maxima on OTHER open lots where they lead, plus
 * unpaid purchases. Being outbid frees the hold at once because the lot's leader changes. The
 * rule is the deposit_exposure SQL function (db/migrations/20261123-0101), which place_bid uses
 * for its funds check too.
 */
export async function exposure(
  userId: string,
  transaction?: Transaction,
  options: { excludeLotId?: string | number } = {},
): Promise<string> {
  const [row] = await sequelize.query<{ total: string }>(
    "SELECT total::numeric(14, 2)::text AS total FROM deposit_exposure(:userId, :excludeLotId)",
    {
      replacements: { userId, excludeLotId: options.excludeLotId ?? null },
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
  const cents = toCents(user.deposit) - toCents(await exposure(user.id, transaction, options));
  return fromCents(Math.max(0, cents));
}

export type BuyingPower = {
  /** Deposit minus what it holds elsewhere, e.g. "1250.00" (what the bid form offers). */
  available: string;
  /** Why this user may not bid yet ("Verification Required: …"), or null. */
  blocker: string | null;
};

/**
 * The signed-in user's buying power as every screen shows it (the auction list, the lot page's
 * bid form): what is available and what, if anything, keeps them from bidding. With `forLotId`,
 * that lot's own hold is not counted against it. Checked again, under the lot lock, on every bid.
 */
export async function buyingPower(
  user: { id: string; verified: boolean; deposit: string },
  forLotId?: string,
): Promise<BuyingPower> {
  const blocker = !user.verified
    ? bidMessage(BID_TEXTS.verification)
    : !canBidWith(toCents(user.deposit))
      ? bidMessage(BID_TEXTS.deposit)
      : null;
  // the user row was just read for this request: only what their deposit holds is asked for
  const available = await availableBuyingPower(user, undefined, { excludeLotId: forLotId });
  return { available, blocker };
}
