import { Op, type Transaction } from "sequelize";
import { AdminAuditEntry } from "~/models/admin.server";
import type { User } from "~/models/user.server";

export type AuditTarget = { type: string; id?: string | number | null };

/** Records who did what to what, with the state before and after; pass the action's transaction. */
export async function recordAdminAction(
  admin: Pick<User, "id" | "email">,
  action: string,
  target: AuditTarget,
  change: { before?: unknown; after?: unknown } = {},
  transaction?: Transaction,
) {
  return AdminAuditEntry.create(
    {
      adminId: admin.id,
      adminEmail: admin.email,
      action,
      targetType: target.type,
      targetId: target.id == null ? null : String(target.id),
      before: change.before ?? null,
      after: change.after ?? null,
    },
    { transaction },
  );
}

/** Newest first, keyset-paginated by id. */
export async function listAuditEntries(options: { before?: string; limit?: number } = {}) {
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 200);
  return AdminAuditEntry.findAll({
    where: options.before ? { id: { [Op.lt]: options.before } } : {},
    order: [["id", "DESC"]],
    limit,
  });
}
