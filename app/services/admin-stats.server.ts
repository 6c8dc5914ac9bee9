import { QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";

export type AdminStats = {
  totalUsers: number;
  earlyAccess: number;
  pendingKyc: number;
  verifiedUsers: number;
};

/** The admin dashboard's stat cards (SPEC §2). Pending KYC is 0 until documents exist. */
export async function adminStats(): Promise<AdminStats> {
  const [row] = await sequelize.query<{ users: string; signups: string; verified: string }>(
    `SELECT (SELECT count(*) FROM users) AS users,
            (SELECT count(*) FROM prelaunch_signups) AS signups,
            (SELECT count(*) FROM users WHERE verified) AS verified`,
    { type: QueryTypes.SELECT },
  );
  return {
    totalUsers: Number(row.users),
    earlyAccess: Number(row.signups),
    pendingKyc: 0,
    verifiedUsers: Number(row.verified),
  };
}
