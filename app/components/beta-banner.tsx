import { useEffect, useState, type FormEvent } from "react";
import { DialogLink, usePageWithoutDialogs } from "./shell-dialogs";
import { BETA_BANNER_CLOSED, DEFAULT_BETA_BANNER_TEXT as DEFAULT_TEXT } from "~/utils/shell";
import { useHydrated } from "~/utils/use-hydrated";

/** Asks the server for its (HttpOnly) close cookie; a failure only means it shows again later. */
function rememberOnServer() {
  return fetch("/api/beta-banner", { method: "POST", headers: { Accept: "application/json" } })
    .then(() => undefined)
    .catch(() => undefined);
}

/** BETA VERSION banner; its close is remembered in localStorage and a cookie the server reads. */
export function BetaBanner({ closedOnServer, text }: { closedOnServer: boolean; text?: string }) {
  const [closed, setClosed] = useState(closedOnServer);
  const hydrated = useHydrated();
  const back = usePageWithoutDialogs();

  useEffect(() => {
    if (!closedOnServer && localStorage.getItem(BETA_BANNER_CLOSED) === "true") {
      void rememberOnServer();
      // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage is read only after hydration
      setClosed(true);
    }
  }, [closedOnServer]);

  async function close(event: FormEvent) {
    event.preventDefault();
    localStorage.setItem(BETA_BANNER_CLOSED, "true");
    await rememberOnServer();
    setClosed(true);
  }

  if (closed) return null;
  return (
    <aside
      aria-label="Beta announcement"
      className="bg-gradient-to-r from-accent-500 to-amber-400 text-slate-900"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm sm:px-6">
        {text && text !== DEFAULT_TEXT ? (
          <p className="min-w-0 flex-1 font-semibold">{text}</p>
        ) : (
          <p className="min-w-0 flex-1">
            <strong className="font-black tracking-wide">BETA VERSION</strong>
            <span className="mx-1">·</span>
            <span className="font-semibold">Official Launch Coming Soon</span>
            <span className="hidden sm:inline">
              <span className="mx-1">·</span>Join now for exclusive pre-launch benefits
            </span>
          </p>
        )}
        <DialogLink
          dialog="early-access"
          className="rounded-md bg-slate-900 px-3 py-1 text-xs font-semibold text-white hover:bg-slate-800"
        >
          Get Early Access
        </DialogLink>
        <form method="post" action="/api/beta-banner" onSubmit={hydrated ? close : undefined}>
          <input type="hidden" name="redirectTo" value={back} />
          <button
            type="submit"
            aria-label="Close beta banner"
            className="rounded p-1 text-lg leading-none hover:bg-black/10"
          >
            ×
          </button>
        </form>
      </div>
    </aside>
  );
}
