import { useLocation } from "@remix-run/react";
import {
  createContext,
  useContext,
  useMemo,
  useState,
  type MouseEvent,
  type ReactNode,
} from "react";
import { useHydrated } from "~/utils/use-hydrated";

export type ShellDialog = "early-access" | "register";

type ShellDialogs = {
  current: ShellDialog | null;
  open: (dialog: ShellDialog) => void;
  close: () => void;
};

const Context = createContext<ShellDialogs>({
  current: null,
  open: () => undefined,
  close: () => undefined,
});

export function useShellDialogs() {
  return useContext(Context);
}

/**
 * Which shell dialog is open. Without JavaScript a dialog is a query parameter (`?register=1`)
 * that the server renders as an inline panel; with JavaScript it is state.
 */
export function ShellDialogsProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const fromUrl = new URLSearchParams(location.search);
  const initial: ShellDialog | null = fromUrl.has("register")
    ? "register"
    : fromUrl.has("early-access")
      ? "early-access"
      : null;
  const [current, setCurrent] = useState<ShellDialog | null>(initial);
  const value = useMemo(
    () => ({ current, open: setCurrent, close: () => setCurrent(null) }),
    [current],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** The current page with the dialog's query parameter set (the no-JS way to open it). */
export function useDialogHref(dialog: ShellDialog) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("register");
  params.delete("early-access");
  params.set(dialog, "1");
  return `${location.pathname}?${params.toString()}`;
}

/** The current page without any dialog parameter: where a form returns after posting. */
export function usePageWithoutDialogs() {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("register");
  params.delete("early-access");
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}`;
}

/** A link that opens a shell dialog: a plain link without JavaScript, a dialog with it. */
export function DialogLink({
  dialog,
  className,
  children,
}: {
  dialog: ShellDialog;
  className?: string;
  children: ReactNode;
}) {
  const href = useDialogHref(dialog);
  const hydrated = useHydrated();
  const { open } = useShellDialogs();
  return (
    <a
      href={href}
      className={className}
      onClick={(event: MouseEvent) => {
        if (!hydrated) return;
        event.preventDefault();
        open(dialog);
      }}
    >
      {children}
    </a>
  );
}
