import { useEffect, useState } from "react";

export type Notice = { title: string; description?: string; type?: "success" | "error" | "info" };

const STYLES = {
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-slate-300 bg-white text-slate-900",
} as const;

/**
 * One toast at a time (a newer one replaces it), bottom right, announced politely. Rendered by
 * the server too, so a no-JS redirect shows it; with JavaScript it goes away after 5 seconds or
 * on Dismiss.
 */
export function NoticeToast({ notice }: { notice: Notice | null }) {
  const [hidden, setHidden] = useState<Notice | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setHidden(notice), 5_000);
    return () => clearTimeout(timer);
  }, [notice]);
  const visible = notice && hidden !== notice ? notice : null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-3 bottom-3 z-50 flex justify-end md:inset-x-auto md:right-4 md:w-[420px]"
    >
      {visible ? (
        <div
          className={`pointer-events-auto flex w-full items-start gap-3 rounded-lg border p-4 shadow-lg ${
            STYLES[visible.type ?? "info"]
          }`}
          data-testid="toast"
        >
          <p className="flex-1 text-sm">
            <strong className="font-semibold">{visible.title}</strong>
            {visible.description ? ` - ${visible.description}` : null}
          </p>
          <button
            type="button"
            onClick={() => setHidden(visible)}
            className="rounded px-2 text-sm font-semibold hover:bg-black/5"
            aria-label="Dismiss"
          >
            ×
          </button>
        </div>
      ) : null}
    </div>
  );
}
