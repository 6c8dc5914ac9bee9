import { useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

const STYLES = {
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-slate-300 bg-white text-slate-900",
} as const;

/**
 * The flash toast carried across the last redirect ('Title: description'), shown by the server
 * too so a no-JS form post gets its answer.
 */
export function FlashNotice() {
  const toast = useRouteLoaderData<typeof rootLoader>("root")?.toast;
  return (
    <div role="status" aria-live="polite">
      {toast ? (
        <p
          data-testid="flash-notice"
          className={`mb-6 rounded-lg border px-4 py-3 text-sm ${STYLES[toast.type ?? "info"]}`}
        >
          <strong className="font-semibold">{toast.title}</strong>
          {toast.description ? `: ${toast.description}` : null}
        </p>
      ) : null}
    </div>
  );
}
