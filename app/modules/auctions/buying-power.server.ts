import { QueryTypes, type Transaction } from "sequelize";
import { sequelize } from "~/models/db.server";
import { User } from "~/models/user.server";
import { fromCents, toCents } from "~/utils/money";

/**
 * What a user's deposit is holding: the user's maxima on OTHER open lots where they lead, plus
 * unpaid purchases. Being outbid frees the hold at once because the lot's leader changes.
 */
export async function exposure(
  userId: string,
  transaction?: Transaction,
  options: { excludeLotId?: string | number } = {},
): Promise<string> {
  const [row] = await sequelize.query<{ total: string }>(
    `SELECT (
       COALESCE((SELECT sum(high_max) FROM lots
                 WHERE status = 'active' AND high_bidder_id = :userId AND id <> :excludeLotId), 0)
     + COALESCE((SELECT sum(amount) FROM purchases
                 WHERE user_id = :userId AND status = 'pending'), 0)
     )::numeric(14, 2)::text AS total`,
    {
      replacements: { userId, excludeLotId: options.excludeLotId ?? -1 },
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
