/**
 * The header's bell: links to /notifications and shows the unread count. A plain link that the
 * header's click handler follows in the page (usePlainLinkClicks, record 3545).
 */
export function NotificationBell({ unreadCount }: { unreadCount: number }) {
  const label =
    unreadCount > 0 ? `Notifications, ${unreadCount} unread` : "Notifications, none unread";
  return (
    <a
      href="/notifications"
      data-discover="true"
      aria-label={label}
      title={label}
      className="relative inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
    >
      <svg
        viewBox="0 0 24 24"
        width="22"
        height="22"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0" />
      </svg>
      {unreadCount > 0 ? (
        <span className="absolute -right-1 -top-1 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-bold leading-5 text-white">
          {unreadCount > 99 ? "99+" : unreadCount}
        </span>
      ) : null}
    </a>
  );
}
