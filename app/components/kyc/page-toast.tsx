import { useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { loader as rootLoader } from "~/root";

export type ToastMessage = {
  title: string;
  description?: string;
  type?: "success" | "error" | "info";
};

/**
 * Shows the flash toast from the root loader (no-JS form posts) or one raised in the browser.
 * One at a time, 5 seconds with JavaScript (SPEC §9); without it, it simply stays.
 */
export function PageToast({ toast: local }: { toast?: ToastMessage | null }) {
  const flash = useRouteLoaderData<typeof rootLoader>("root")?.toast ?? null;
  const toast = local ?? flash;
  const [dismissed, setDismissed] = useState<ToastMessage | null>(null);
  useEffect(() => {
    if (!toast) return;
    setDismissed(null);
    const timer = setTimeout(() => setDismissed(toast), 5000);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!toast || dismissed === toast) return null;
  const tone =
    toast.type === "error"
      ? "border-red-300 bg-red-50 text-red-900"
      : toast.type === "success"
        ? "border-green-300 bg-green-50 text-green-900"
        : "border-slate-300 bg-white text-slate-900";
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      className={`fixed inset-x-3 bottom-3 z-50 rounded-lg border p-4 shadow-lg md:left-auto md:max-w-[420px] ${tone}`}
    >
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
    </div>
  );
}
