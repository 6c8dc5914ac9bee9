import type { ReactNode } from "react";
import { useHydrated } from "~/utils/use-hydrated";
import { LazyModal } from "./lazy-modal";

/**
 * A keyboard-usable Headless UI dialog (loaded when first opened) once JavaScript runs; before that (or without it) the same
 * content as an inline panel, shown when its query parameter is in the URL.
 */
export function ShellDialogFrame({
  id,
  open,
  onClose,
  title,
  closeHref,
  children,
}: {
  id: string;
  open: boolean;
  onClose: () => void;
  title: string;
  closeHref: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  if (!hydrated) {
    if (!open) return null;
    return (
      <section
        id={id}
        aria-labelledby={`${id}-title`}
        className="mx-auto my-6 w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-lg"
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id={`${id}-title`} className="text-xl font-bold">
            {title}
          </h2>
          <a href={closeHref} className="text-sm font-semibold text-brand-700 underline">
            Close
          </a>
        </div>
        <div className="mt-4">{children}</div>
      </section>
    );
  }
  return (
    <LazyModal open={open} onClose={onClose} panelId={id}>
      {(Title) => (
        <>
          <div className="flex items-start justify-between gap-4">
            <Title as="h2" id={`${id}-title`} className="text-xl font-bold">
              {title}
            </Title>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded p-1 text-2xl leading-none text-slate-500 hover:bg-slate-100"
            >
              ×
            </button>
          </div>
          <div className="mt-4">{children}</div>
        </>
      )}
    </LazyModal>
  );
}
