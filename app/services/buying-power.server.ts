import type { Transaction } from "sequelize";
import { User } from "~/models/user.server";

/**
 * What a user's deposit is holding: maxima on open lots where they lead plus unpaid purchases.
 * Nothing can be held until auctions exist; the auction engine gives this its real body.
 */
export async function exposure(_userId: string, _transaction?: Transaction): Promise<string> {
  return "0.00";
}

/** Deposit minus exposure, as a decimal string with two places. */
export async function availableBuyingPower(userId: string, transaction?: Transaction) {
  const user = await User.findByPk(userId, { transaction, rejectOnEmpty: true });
  const cents =
    Math.round(Number(user.deposit) * 100) -
    Math.round(Number(await exposure(userId, transaction)) * 100);
  return (Math.max(0, cents) / 100).toFixed(2);
}
