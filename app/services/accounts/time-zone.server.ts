import { User } from "~/models/user.server";
import { isTimeZone } from "~/services/accounts/time-zones";
import { UserError } from "~/utils/user-error";

/** Saves the zone the account's times are shown in without JavaScript (docs/decisions/1802). */
export async function setTimeZone(userId: string, timeZone: string) {
  if (!isTimeZone(timeZone)) {
    throw new UserError("Choose a time zone from the list.", { status: 400, field: "timeZone" });
  }
  await User.update({ timeZone }, { where: { id: userId } });
}
