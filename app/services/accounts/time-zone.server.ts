import type { Transaction } from "sequelize";
import { User } from "~/models/user.server";
import { DEFAULT_TIME_ZONE, isTimeZone } from "~/utils/time";
import { UserError } from "~/utils/user-error";

/** Saves the zone every page, e-mail and notice shows the account's times in (record 2701). */
export async function setTimeZone(userId: string, timeZone: string) {
  if (!isTimeZone(timeZone)) {
    throw new UserError("Choose a time zone from the list.", { status: 400, field: "timeZone" });
  }
  await User.update({ timeZone }, { where: { id: userId } });
}

/**
 * The zone to write a recipient's times in (notifications, e-mail: there is no browser to ask).
 * Pass the transaction that writes the message so the read joins it.
 */
export async function userTimeZone(userId: string, transaction?: Transaction): Promise<string> {
  const user = await User.findByPk(userId, { attributes: ["timeZone"], transaction });
  return user && isTimeZone(user.timeZone) ? user.timeZone : DEFAULT_TIME_ZONE;
}
