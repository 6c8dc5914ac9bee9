import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { toastIn, type Toast } from "~/utils/toast";
import { useHydrated } from "~/utils/use-hydrated";

// The one toast path (docs/architecture.md, "Toasts"): the server's flash toast (redirectWithToast)
// arrives as `serverToast`; an action that stays on its page answers `{ toast }`, shown by
// `useActionToast`; what only the browser knows (its own fetch failed) goes through `useToast`.

export type ToastMessage = Toast;

type Shown = ToastMessage & { id: number };

export const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

const ToastContext = createContext<(toast: ToastMessage) => void>(() => undefined);

/** Shows a toast (one at a time: a new one replaces the current). */
export function useToast() {
  return useContext(ToastContext);
}

/** Shows the `toast` an action (or a fetcher's JSON answer) carries, once per answer. */
export function useActionToast(data: unknown) {
  const show = useToast();
  useEffect(() => {
    const toast = toastIn(data);
    if (toast) show(toast);
  }, [data, show]);
}

let nextId = 1;

/**
 * The toast region: one at a time, 5000 ms, F8 focuses it, swipe right to dismiss.
 * The server's flash toast renders into the HTML, so it shows without JavaScript too; until
 * scripts run it closes by CSS alone (a checkbox for ×, an animation for the 5000 ms, paused
 * while pointed at or focused, like the timer): docs/decisions/1401-toast-without-javascript.md.
 */
export function ToastProvider({
  serverToast,
  children,
  outlet = false,
}: {
  serverToast: ToastMessage | null;
  children: ReactNode;
  /** the page places the region itself with <ToastOutlet /> (the root: at the top of main) */
  outlet?: boolean;
}) {
  const [current, setCurrent] = useState<Shown | null>(() =>
    serverToast ? { ...serverToast, id: 0 } : null,
  );
  const show = useCallback((toast: ToastMessage) => setCurrent({ ...toast, id: nextId++ }), []);
  const dismiss = useCallback(() => setCurrent(null), []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a flash toast from a new server answer shows as a new toast
    if (serverToast) show(serverToast);
  }, [serverToast, show]);

  const value = useMemo(() => show, [show]);
  const shown = useMemo(() => ({ toast: current, dismiss }), [current, dismiss]);
  return (
    <ToastContext.Provider value={value}>
      <ShownToastContext.Provider value={shown}>
        {children}
        {outlet ? null : <ToastRegion toast={current} onDismiss={dismiss} />}
      </ShownToastContext.Provider>
    </ToastContext.Provider>
  );
}

const ShownToastContext = createContext<{ toast: Shown | null; dismiss: () => void }>({
  toast: null,
  dismiss: () => undefined,
});

/**
 * Where the root places the toast region: at the top of the page's content, so that without
 * JavaScript on a phone the server's toast sits in the flow above the page instead of over its
 * cards (docs/decisions/3306); with scripts it floats at the bottom as before.
 */
export function ToastOutlet() {
  const { toast, dismiss } = useContext(ShownToastContext);
  return <ToastRegion toast={toast} onDismiss={dismiss} />;
}

function ToastRegion({ toast, onDismiss }: { toast: Shown | null; onDismiss: () => void }) {
  const hydrated = useHydrated();
  const region = useRef<HTMLElement>(null);
  const [paused, setPaused] = useState(false);
  const [dragX, setDragX] = useState(0);
  const startX = useRef<number | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new toast starts undragged, with its own timer
    setDragX(0);
    if (!toast || paused) return;
    const timer = setTimeout(onDismiss, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, paused, onDismiss]);

  const tone =
    toast?.type === "error"
      ? "border-red-300 bg-red-50 text-red-900"
      : toast?.type === "success"
        ? "border-green-300 bg-green-50 text-green-900"
        : "border-slate-200 bg-white text-slate-900";

  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className={`pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-end p-2 outline-none sm:p-4 md:left-auto md:max-w-[420px] ${hydrated ? "" : "max-sm:static max-sm:z-auto max-sm:p-0"}`}
    >
      <ol className="w-full">
        {toast ? (
          <li
            key={toast.id}
            data-testid="toast"
            className={`pointer-events-auto flex w-full touch-pan-y items-start gap-3 rounded-lg border px-3 py-2 shadow-lg sm:p-4 ${tone} ${hydrated ? "" : "toast-static"}`}
            style={
              hydrated
                ? dragX
                  ? { transform: `translateX(${dragX}px)`, opacity: 1 - dragX / 200 }
                  : {}
                : { animationDelay: `${TOAST_DURATION_MS}ms` }
            }
            onMouseEnter={() => setPaused(true)}
            onMouseLeave={() => setPaused(false)}
            onFocus={() => setPaused(true)}
            onBlur={() => setPaused(false)}
            onPointerDown={(event) => {
              startX.current = event.clientX;
            }}
            onPointerMove={(event) => {
              if (startX.current !== null) setDragX(Math.max(0, event.clientX - startX.current));
            }}
            onPointerUp={(event) => {
              const moved = startX.current === null ? 0 : event.clientX - startX.current;
              startX.current = null;
              if (moved > SWIPE_THRESHOLD_PX) onDismiss();
              else setDragX(0);
            }}
            onPointerCancel={() => {
              startX.current = null;
              setDragX(0);
            }}
          >
            {hydrated ? null : (
              <input
                type="checkbox"
                id={`toast-dismiss-${toast.id}`}
                aria-label="Dismiss notification"
                className="toast-dismiss sr-only"
              />
            )}
            <div
              role={toast.type === "error" ? "alert" : "status"}
              aria-live={toast.type === "error" ? "assertive" : "polite"}
              className="flex-1"
            >
              <p className="font-semibold">{toast.title}</p>
              {toast.description ? (
                <p className="mt-0.5 text-sm sm:mt-1">{toast.description}</p>
              ) : null}
            </div>
            {hydrated ? (
              <button
                type="button"
                onClick={onDismiss}
                aria-label="Dismiss notification"
                className="rounded p-1 text-lg leading-none opacity-70 hover:opacity-100"
              >
                ×
              </button>
            ) : (
              // The checkbox above is the control (focusable, named); this is its visible face.
              <label
                htmlFor={`toast-dismiss-${toast.id}`}
                aria-hidden="true"
                className="toast-dismiss-face cursor-pointer rounded p-1 text-lg leading-none opacity-70 hover:opacity-100"
              >
                ×
              </label>
            )}
          </li>
        ) : null}
      </ol>
    </section>
  );
}
