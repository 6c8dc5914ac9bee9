import { Op, QueryTypes } from "sequelize";
import { sequelize } from "~/models/db.server";
import { PrelaunchSignup, ROLES, User, type Role } from "~/models/user.server";
import { UserError } from "~/utils/user-error";
import { recordAdminAction } from "./audit.server";
import { escapeLike } from "~/utils/escape-like";
import { DEFAULT_TIME_ZONE, zoneAbbreviation, zonedWallTime } from "~/utils/time";

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` has the shape of a user id (a UUID), so a lookup is worth making. */
export function isUserId(id: string | undefined): id is string {
  return id !== undefined && USER_ID.test(id);
}

/** The user an admin is looking at, or null for an unknown or malformed id. */
export async function findUserForAdmin(id: string | undefined) {
  return isUserId(id) ? User.findByPk(id) : null;
}

export type AdminStats = {
  totalUsers: number;
  earlyAccess: number;
  pendingKyc: number;
  verifiedUsers: number;
};

/** The four stat cards, counted in one round trip. */
export async function adminStats(): Promise<AdminStats> {
  const [row] = await sequelize.query<Record<keyof AdminStats, string>>(
    `select (select count(*) from users) as "totalUsers",
            (select count(*) from prelaunch_signups) as "earlyAccess",
            (select count(distinct user_id) from kyc_documents where status = 'pending') as "pendingKyc",
            (select count(*) from users where verified) as "verifiedUsers"`,
    { type: QueryTypes.SELECT },
  );
  return {
    totalUsers: Number(row.totalUsers),
    earlyAccess: Number(row.earlyAccess),
    pendingKyc: Number(row.pendingKyc),
    verifiedUsers: Number(row.verifiedUsers),
  };
}

export type UserCursor = { createdAt: string; id: string };

export function encodeCursor(cursor: UserCursor) {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

export function decodeCursor(value: string | null): UserCursor | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (typeof parsed?.createdAt !== "string" || typeof parsed?.id !== "string") return null;
    if (Number.isNaN(Date.parse(parsed.createdAt))) return null;
    if (!/^[0-9a-f-]{36}$/i.test(parsed.id)) return null;
    return parsed;
  } catch {
    return null;
  }
}

/** Users newest first, searched by name or e-mail, keyset-paginated. */
export async function searchUsers(options: {
  search?: string;
  after?: UserCursor | null;
  limit?: number;
}) {
  const limit = Math.min(Math.max(options.limit ?? 25, 1), 100);
  const search = options.search?.trim().slice(0, 100);
  const where: Record<string | symbol, unknown>[] = [];
  if (search) {
    const like = `%${escapeLike(search)}%`;
    where.push({
      [Op.or]: [
        { email: { [Op.iLike]: like } },
        { firstName: { [Op.iLike]: like } },
        { lastName: { [Op.iLike]: like } },
      ],
    });
  }
  if (options.after) {
    where.push({
      [Op.or]: [
        { createdAt: { [Op.lt]: new Date(options.after.createdAt) } },
        { createdAt: new Date(options.after.createdAt), id: { [Op.lt]: options.after.id } },
      ],
    });
  }
  const rows = await User.findAll({
    where: { [Op.and]: where },
    order: [
      ["createdAt", "DESC"],
      ["id", "DESC"],
    ],
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    users: page,
    next:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id })
        : null,
  };
}

/** A change an admin may not make (a 400 with the reason). */
export class AdminRuleError extends UserError {}

/** Changes a user's role or verified flag, audited; an admin cannot demote themself. */
export async function updateUserByAdmin(
  admin: User,
  userId: string,
  change: { role: Role; verified: boolean },
) {
  if (!ROLES.includes(change.role)) throw new AdminRuleError("Unknown role");
  return sequelize.transaction(async (transaction) => {
    const user = await User.findByPk(userId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!user) return null;
    if (user.id === admin.id && change.role !== "admin") {
      throw new AdminRuleError("You cannot remove your own admin role.");
    }
    const before = { role: user.role, verified: user.verified };
    if (before.role === change.role && before.verified === change.verified) return user;
    await user.update(change, { transaction });
    await recordAdminAction(
      admin,
      "user.update",
      { type: "user", id: user.id },
      { before, after: change },
      transaction,
    );
    return user;
  });
}

export async function listPrelaunchSignups(options: { before?: string; limit?: number } = {}) {
  const limit = Math.min(Math.max(options.limit ?? 100, 1), 1000);
  return PrelaunchSignup.findAll({
    where: options.before ? { id: { [Op.lt]: options.before } } : {},
    order: [["id", "DESC"]],
    limit,
  });
}

function csvCell(value: unknown) {
  let text = value == null ? "" : String(value);
  // Cells starting with these run as formulas in spreadsheets.
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Every signup as CSV, newest first. */
/** "2026-11-26 23:22:04 CST": a moment on the wall clock of `zone`, for a spreadsheet. */
function csvLocalTime(at: Date, zone: string) {
  const w = zonedWallTime(at, zone);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)} ${zoneAbbreviation(zone, at)}`;
}

/**
 * The early-access signups as CSV. The sign-up time is written in `zone` (the admin's, as the
 * Early Access tab shows it), the zone named in the column's header and beside each time, and
 * again in UTC for a program to read (record 3332).
 */
export async function prelaunchSignupsCsv(zone: string = DEFAULT_TIME_ZONE) {
  const rows = await PrelaunchSignup.findAll({ order: [["id", "DESC"]] });
  const lines = [
    [
      "id",
      "email",
      "first_name",
      "last_name",
      "source",
      `created_at (${zone})`,
      "created_at_utc",
    ].join(","),
  ];
  for (const row of rows) {
    lines.push(
      [
        row.id,
        row.email,
        row.firstName,
        row.lastName,
        row.source,
        csvLocalTime(row.createdAt, zone),
        row.createdAt.toISOString(),
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
