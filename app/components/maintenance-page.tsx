import type { MaintenanceNotice } from "~/utils/maintenance";
import { userLabel } from "./site-header";

/**
 * The page everyone but admins gets while maintenance mode is on (docs/decisions/2852). It knows
 * who is signed in (their name and Sign out, never "Sign In / Register") and links to nothing
 * that would answer this same page: no site navigation, no "home page". It reloads itself when
 * the retry time is up (the root's meta refresh), with or without JavaScript.
 */
export function MaintenancePage({ notice }: { notice: MaintenanceNotice }) {
  const minutes = Math.max(1, Math.round(notice.retryAfterSeconds / 60));
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 sm:px-6">
          <span className="flex shrink-0 items-center gap-2 text-lg font-black tracking-tight text-brand-800">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            BidYard
          </span>
          {notice.user ? (
            <div
              role="group"
              aria-label="Account"
              className="ml-auto flex min-w-0 items-center gap-2 text-sm"
            >
              <span className="min-w-0 truncate text-slate-700">
                Signed in as{" "}
                <strong className="font-semibold text-slate-900" data-testid="user-label">
                  {userLabel(notice.user)}
                </strong>
              </span>
              <form method="post" action="/api/logout">
                <button
                  type="submit"
                  className="whitespace-nowrap rounded-md px-3 py-1.5 font-semibold text-slate-700 hover:bg-slate-100"
                >
                  Sign out
                </button>
              </form>
            </div>
          ) : null}
        </div>
      </header>
      <main id="main" className="flex-1">
        <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
          <p className="text-6xl font-black text-brand-700">503</p>
          <h1 className="mt-4 text-2xl font-bold sm:text-3xl">Down for maintenance</h1>
          <p className="mt-3 text-slate-600">{notice.message}</p>
          <p className="mt-3 text-sm text-slate-600">
            {notice.user ? "You are still signed in; nothing you saved is lost. " : null}
            This page checks again by itself every {minutes} {minutes === 1 ? "minute" : "minutes"}{" "}
            and opens as soon as we are back.
          </p>
          {notice.user ? null : (
            <p className="mt-8 text-sm text-slate-500">
              Staff can still{" "}
              <a href="/api/login" className="font-semibold text-brand-700 underline">
                sign in to the admin
              </a>
              .
            </p>
          )}
        </section>
      </main>
    </>
  );
}
