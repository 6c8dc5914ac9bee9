import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import type { PublicUser } from "~/services/accounts/users.server";
import { useHydrated } from "~/utils/use-hydrated";
import { usePlainLinkClicks } from "~/utils/plain-links";
import { NotificationBell } from "./notification-bell";
import { DialogLink } from "./shell-dialogs";

const NAV = [
  { to: "/auctions", label: "Auctions" },
  { to: "/community-vehicles", label: "Community Vehicles" },
  { to: "/membership", label: "Membership" },
];

export const AUTH_LOADING_MAX_MS = 3000;

// the navigation pills' look is a class of its own (app/tailwind.css), said once rather than on
// each of the header's links on every page (record 3545)
const pill = ({ isActive }: { isActive: boolean }) =>
  isActive ? "nav-pill nav-pill-on" : "nav-pill";

/**
 * A header link: a plain `<a data-discover>` that the header's one click handler navigates as
 * `<Link>` would (usePlainLinkClicks), active as NavLink says (this path or one below it; with
 * `end` this path only, letter case aside) and then `aria-current="page"`. NavLink's and Link's
 * hooks on the header's eight links were a visible share of every page's render (record 3545).
 */
function HeaderLink({
  to,
  end = false,
  className,
  children,
  ...rest
}: {
  to: string;
  end?: boolean;
  className: string | ((state: { isActive: boolean }) => string);
  children: ReactNode;
  "aria-label"?: string;
  title?: string;
  "data-testid"?: string;
}) {
  const pathname = useLocation().pathname.toLowerCase();
  const path = to.toLowerCase();
  const isActive =
    pathname === path ||
    (!end && path !== "/" && pathname.startsWith(path) && pathname.charAt(path.length) === "/");
  return (
    <a
      {...rest}
      href={to}
      data-discover="true"
      aria-current={isActive ? "page" : undefined}
      className={typeof className === "function" ? className({ isActive }) : className}
    >
      {children}
    </a>
  );
}

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

const MENU_TOGGLE = "site-menu-toggle";
const MENU = "site-menu";

/**
 * One row at every width (docs/decisions/1403-one-row-header.md). From md up: logo, the main
 * links, the account group, the bell. Below md: a Menu toggle, the logo, and Sign In and
 * Register or the bell; the toggle (a checkbox, so it works without JavaScript and from the
 * keyboard) shows the main links and the account group as a panel under the header.
 */
export function SiteHeader({
  user: known,
  unreadNotifications = 0,
}: {
  user: PublicUser | null | undefined;
  unreadNotifications?: number;
}) {
  const { user, loading } = useHeaderUser(known);
  const toggle = useRef<HTMLInputElement>(null);
  const location = useLocation();
  const followLink = usePlainLinkClicks();
  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location]);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !toggle.current?.checked) return;
    toggle.current.checked = false;
    toggle.current.focus();
  };

  return (
    // the links and the menu's checkbox inside are the controls: this catches their clicks and Escape
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions -- as said above
    <header
      className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur"
      onKeyDown={closeOnEscape}
      onClick={followLink}
    >
      <div className="relative mx-auto flex max-w-7xl items-center gap-x-2 px-3 py-2 sm:px-6 md:gap-x-4">
        {/* The checkbox covers its icon, so a tap or a click lands on the control itself. */}
        <div className="relative h-9 w-9 shrink-0 md:hidden">
          <input
            ref={toggle}
            id={MENU_TOGGLE}
            type="checkbox"
            aria-label="Menu"
            aria-controls={MENU}
            className="site-menu-toggle peer absolute inset-0 z-10 h-full w-full cursor-pointer appearance-none rounded-md bg-transparent"
          />
          <span
            aria-hidden="true"
            className="site-menu-face flex h-9 w-9 items-center justify-center rounded-md text-slate-700 peer-hover:bg-slate-100"
          >
            <svg
              viewBox="0 0 24 24"
              width="22"
              height="22"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path className="site-menu-closed" d="M4 6h16M4 12h16M4 18h16" />
              <path className="site-menu-open" d="M6 6l12 12M18 6L6 18" />
            </svg>
          </span>
        </div>
        <a
          href="/"
          data-discover="true"
          className="flex shrink-0 items-center gap-2 text-lg font-black tracking-tight text-brand-800"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          BidYard
        </a>
        <div
          id={MENU}
          className="absolute inset-x-0 top-full site-menu hidden max-h-[calc(100vh-4rem)] flex-col gap-1 overflow-y-auto border-b border-slate-200 bg-white p-3 shadow-lg md:static md:flex md:max-h-none md:flex-1 md:flex-row md:items-center md:gap-4 md:overflow-visible md:border-0 md:bg-transparent md:p-0 md:shadow-none"
        >
          <nav aria-label="Main" className="flex flex-col gap-1 md:flex-row">
            {NAV.map((item) => (
              <HeaderLink key={item.to} to={item.to} className={pill}>
                {item.label}
              </HeaderLink>
            ))}
          </nav>
          {user && !loading ? (
            <div
              className="mt-2 flex flex-col gap-1 border-t border-slate-200 pt-2 md:ml-auto md:mt-0 md:flex-row md:items-center md:gap-2 md:border-0 md:pt-0"
              aria-label="Account"
              role="group"
            >
              <SignedIn user={user} />
            </div>
          ) : null}
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2 md:ml-0">
          {loading ? (
            <button
              type="button"
              disabled
              className="rounded-md px-3 py-1.5 text-sm font-semibold text-slate-400"
            >
              Loading
            </button>
          ) : user ? (
            <NotificationBell unreadCount={unreadNotifications} />
          ) : (
            <div className="flex items-center gap-1 sm:gap-2" aria-label="Account" role="group">
              <a
                href="/api/login"
                className="whitespace-nowrap rounded-md px-2 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 sm:px-3"
              >
                Sign In
              </a>
              <DialogLink
                dialog="register"
                className="rounded-md bg-accent-500 px-2 py-1.5 text-sm font-semibold text-slate-900 hover:bg-accent-600 sm:px-3"
              >
                Register
              </DialogLink>
            </div>
          )}
        </div>
      </div>
    </header>
  );
}

function SignedIn({ user }: { user: PublicUser }) {
  const isAdmin = user.role === "admin";
  return (
    <>
      <HeaderLink
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
      </HeaderLink>
      <span className="flex max-w-[12rem] items-center gap-1 truncate px-1 text-sm font-semibold text-slate-800">
        {/* the account page: e-mail preferences and the time zone */}
        <a
          href="/account"
          data-discover="true"
          className="truncate hover:underline"
          data-testid="user-label"
        >
          {userLabel(user)}
        </a>
        {/* One "Admin" in the header: the role badge is the link to the admin pages (record
            3332). */}
        {isAdmin ? (
          <HeaderLink
            to="/admin"
            data-testid="admin-badge"
            className={({ isActive }) =>
              `shrink-0 rounded-full px-2.5 py-1 text-xs font-bold text-white hover:bg-brand-800 ${
                isActive ? "bg-brand-800 underline" : "bg-brand-700"
              }`
            }
          >
            Admin
          </HeaderLink>
        ) : null}
      </span>
      <HeaderLink to="/" end className={pill}>
        Dashboard
      </HeaderLink>
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
          className="w-full rounded-md px-3 py-1.5 text-left text-sm font-semibold text-slate-700 hover:bg-slate-100"
        >
          Logout
        </button>
      </form>
    </>
  );
}
