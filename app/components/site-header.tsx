import { Link, NavLink } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { PublicUser } from "~/modules/accounts/users.server";
import { useHydrated } from "~/utils/use-hydrated";
import { NotificationBell } from "./notification-bell";
import { DialogLink } from "./shell-dialogs";

const NAV = [
  { to: "/auctions", label: "Auctions" },
  { to: "/community-vehicles", label: "Community Vehicles" },
  { to: "/membership", label: "Membership" },
];

export const AUTH_LOADING_MAX_MS = 3000;

const pill = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ${
    isActive ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"
  }`;

/** How the header names the user: first name, else e-mail, else 'User'. */
export function userLabel(user: Pick<PublicUser, "firstName" | "email">) {
  return user.firstName?.trim() || user.email?.trim() || "User";
}

/**
 * The signed-in user as the header knows it. The root loader normally says; when its data is
 * missing (an error page), the browser asks /api/auth/user, showing Loading for at most 3 s.
 */
function useHeaderUser(known: PublicUser | null | undefined) {
  const hydrated = useHydrated();
  const [fetched, setFetched] = useState<PublicUser | null | undefined>(undefined);
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (known !== undefined) return;
    let live = true;
    fetch("/api/auth/user", { credentials: "include", headers: { Accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .then((user) => live && setFetched(user))
      .catch(() => live && setFetched(null));
    const timer = setTimeout(() => live && setTimedOut(true), AUTH_LOADING_MAX_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [known]);
  if (known !== undefined) return { user: known, loading: false };
  if (!hydrated) return { user: null, loading: false };
  return { user: fetched ?? null, loading: fetched === undefined && !timedOut };
}

/** The first stop on every page, before the beta banner and the header it skips. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[60] focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:font-semibold focus:text-brand-800"
    >
      Skip to content
    </a>
  );
}

export function SiteHeader({
  user: known,
  unreadNotifications = 0,
}: {
  user: PublicUser | null | undefined;
  unreadNotifications?: number;
}) {
  const { user, loading } = useHeaderUser(known);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 sm:px-6">
        <Link
          to="/"
          className="flex items-center gap-2 text-lg font-black tracking-tight text-brand-800"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          BidYard
        </Link>
        <nav
          aria-label="Main"
          className="order-3 flex w-full gap-1 overflow-x-auto md:order-none md:w-auto"
        >
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={pill}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div
          className="ml-auto flex flex-wrap items-center justify-end gap-1 sm:gap-2"
          aria-label="Account"
          role="group"
        >
          {loading ? (
            <button
              type="button"
              disabled
              className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-400"
            >
              Loading
            </button>
          ) : user ? (
            <SignedIn user={user} unreadNotifications={unreadNotifications} />
          ) : (
            <>
              <a
                href="/api/login"
                className="rounded-md px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
              >
                Sign In
              </a>
              <DialogLink
                dialog="register"
                className="rounded-md bg-accent-500 px-3 py-1.5 text-sm font-semibold text-slate-900 hover:bg-accent-600"
              >
                Register
              </DialogLink>
            </>
          )}
        </div>
      </div>
    </header>
  );
}

function SignedIn({
  user,
  unreadNotifications,
}: {
  user: PublicUser;
  unreadNotifications: number;
}) {
  const isAdmin = user.role === "admin";
  return (
    <>
      <NotificationBell unreadCount={unreadNotifications} />
      <NavLink
        to="/post-vehicle"
        className={({ isActive }) =>
          `whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-semibold ${
            isActive
              ? "bg-brand-800 text-white"
              : "bg-accent-500 text-slate-900 hover:bg-accent-600"
          }`
        }
      >
        Post Vehicle
      </NavLink>
      <span className="flex max-w-[12rem] items-center gap-1 truncate px-1 text-sm font-semibold text-slate-800">
        <span className="truncate" data-testid="user-label">
          {userLabel(user)}
        </span>
        {isAdmin ? (
          <span
            data-testid="admin-badge"
            className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white"
          >
            Admin
          </span>
        ) : null}
      </span>
      <NavLink to="/" end className={pill}>
        Dashboard
      </NavLink>
      {isAdmin ? (
        <NavLink to="/admin" className={pill}>
          Admin
        </NavLink>
      ) : null}
      <form
        method="post"
        action="/api/logout"
        onSubmit={() => {
          // Nothing of this user stays in the browser: storage is cleared, then the session ends.
          localStorage.clear();
          sessionStorage.clear();
        }}
      >
        <button
          type="submit"
          className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-100"
        >
          Logout
        </button>
      </form>
    </>
  );
}
