import { Op, type Transaction } from "sequelize";
import { Notification } from "~/models/notification.server";

export type NewNotification = { kind: string; title: string; body?: string; link?: string | null };

/** Tells a user something happened; pass the transaction that made it happen. */
export async function notify(userId: string, note: NewNotification, transaction?: Transaction) {
  return Notification.create(
    {
      userId,
      kind: note.kind,
      title: note.title,
      body: note.body ?? "",
      link: note.link ?? null,
      readAt: null,
    },
    { transaction },
  );
}

export async function unreadNotificationCount(userId: string) {
  return Notification.count({ where: { userId, readAt: null } });
}

/** Newest first, keyset-paginated by id. */
export async function listNotifications(
  userId: string,
  options: { before?: string; limit?: number } = {},
) {
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 100);
  return Notification.findAll({
    where: { userId, ...(options.before ? { id: { [Op.lt]: options.before } } : {}) },
    order: [["id", "DESC"]],
    limit,
  });
}

export async function markNotificationsRead(userId: string, ids?: string[]) {
  const [count] = await Notification.update(
    { readAt: new Date() },
    { where: { userId, readAt: null, ...(ids ? { id: ids } : {}) } },
  );
  return count;
}
