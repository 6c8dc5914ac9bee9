// A root layout of the same size as BidYard's (the same elements and classes, so the same HTML to
// render and send): a beta banner, a header with the main links and the account's, a footer with
// two lists of links and a toast region; the user read from the session in the loader, one query.
// Written the way a small app would write it: no logic beyond what renders (docs/decisions/2902).
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import {
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { getUser } from "./db.server";
import styles from "./styles.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return {
    user: user && { ...user, createdAt: user.createdAt.toISOString() },
    banner:
      "BETA VERSION · Official Launch Coming Soon · Join now for exclusive pre-launch benefits",
  };
}

const NAV = [
  { to: "/auctions", label: "Auctions" },
  { to: "/community-vehicles", label: "Community Vehicles" },
  { to: "/membership", label: "Membership" },
];
const QUICK = [
  { to: "/auctions", label: "Live Auctions" },
  { to: "/community-vehicles", label: "Community Vehicles" },
  { to: "/membership", label: "Membership" },
  { to: "/post-vehicle", label: "Post a Vehicle" },
];
const SUPPORT = [
  { to: "/kyc-verification", label: "Identity Verification" },
  { to: "/deposit", label: "Deposits" },
  { to: "/service-orders", label: "Service Orders" },
  { to: "/affiliate-registration", label: "Become a Provider" },
];

const pill = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ${
    isActive ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"
  }`;

function Banner() {
  const { pathname } = useLocation();
  return (
    <aside
      aria-label="Beta announcement"
      className="bg-gradient-to-r from-accent-500 to-amber-400 text-slate-900"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm sm:px-6">
        <p className="min-w-0 flex-1">
          <strong className="font-black tracking-wide">BETA VERSION</strong>
          <span className="mx-1">·</span>
          <span className="font-semibold">Official Launch Coming Soon</span>
          <span className="hidden sm:inline">
            <span className="mx-1">·</span>Join now for exclusive pre-launch benefits
          </span>
        </p>
        <a
          href={`${pathname}?early-access=1`}
          className="rounded-md bg-slate-900 px-3 py-1 text-xs font-semibold text-white hover:bg-slate-800"
        >
          Get Early Access
        </a>
        <form method="post" action="/api/beta-banner">
          <input type="hidden" name="redirectTo" value={pathname} />
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

function Header({ user }: { user: { firstName: string | null; email: string } | null }) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="relative mx-auto flex max-w-7xl items-center gap-x-2 px-3 py-2 sm:px-6 md:gap-x-4">
        <div className="relative h-9 w-9 shrink-0 md:hidden">
          <input
            id="site-menu-toggle"
            type="checkbox"
            aria-label="Menu"
            aria-controls="site-menu"
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
        <Link
          to="/"
          className="flex shrink-0 items-center gap-2 text-lg font-black tracking-tight text-brand-800"
        >
          <img src="/favicon.svg" alt="" width={28} height={28} />
          BidYard
        </Link>
        <div
          id="site-menu"
          className="absolute inset-x-0 top-full site-menu hidden max-h-[calc(100vh-4rem)] flex-col gap-1 overflow-y-auto border-b border-slate-200 bg-white p-3 shadow-lg md:static md:flex md:max-h-none md:flex-1 md:flex-row md:items-center md:gap-4 md:overflow-visible md:border-0 md:bg-transparent md:p-0 md:shadow-none"
        >
          <nav aria-label="Main" className="flex flex-col gap-1 md:flex-row">
            {NAV.map((item) => (
              <NavLink key={item.to} to={item.to} className={pill}>
                {item.label}
              </NavLink>
            ))}
          </nav>
          {user ? (
            <div
              className="mt-2 flex flex-col gap-1 border-t border-slate-200 pt-2 md:ml-auto md:mt-0 md:flex-row md:items-center md:gap-2 md:border-0 md:pt-0"
              aria-label="Account"
              role="group"
            >
              <NavLink
                to="/post-vehicle"
                className="whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-semibold bg-accent-500 text-slate-900 hover:bg-accent-600"
              >
                Post Vehicle
              </NavLink>
              <span className="flex max-w-[12rem] items-center gap-1 truncate px-1 text-sm font-semibold text-slate-800">
                <span className="truncate">{user.firstName || user.email}</span>
              </span>
              <NavLink to="/" end className={pill}>
                Dashboard
              </NavLink>
              <form method="post" action="/api/logout">
                <button
                  type="submit"
                  className="w-full rounded-md px-3 py-1.5 text-left text-sm font-semibold text-slate-700 hover:bg-slate-100"
                >
                  Logout
                </button>
              </form>
            </div>
          ) : null}
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2 md:ml-0">
          {user ? (
            <Link
              to="/notifications"
              aria-label="Notifications"
              title="Notifications"
              className="relative inline-flex h-9 w-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100"
            >
              <svg
                viewBox="0 0 24 24"
                width="22"
                height="22"
                aria-hidden="true"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 1 0-12 0v3.2a2 2 0 0 1-.6 1.4L4 17h5m6 0a3 3 0 1 1-6 0" />
              </svg>
            </Link>
          ) : (
            <div className="flex items-center gap-1 sm:gap-2" aria-label="Account" role="group">
              <a
                href="/api/login"
                className="whitespace-nowrap rounded-md px-2 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50 sm:px-3"
              >
                Sign In
              </a>
              <Link
                to="/?register=1"
                className="rounded-md bg-accent-500 px-2 py-1.5 text-sm font-semibold text-slate-900 hover:bg-accent-600 sm:px-3"
              >
                Register
              </Link>
            </div>
          )}
        </div>
      </div>
    </header>
  );
}

function FooterList({ title, links }: { title: string; links: typeof QUICK }) {
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="hover:text-white hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Footer() {
  return (
    <footer className="mt-16 bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <p className="text-lg font-black text-white">BidYard</p>
          <p className="mt-2 text-sm">
            Used and salvage vehicles from Copart and IAAI, and from sellers like you. Open to all
            buyers, no dealer licence needed.
          </p>
        </div>
        <FooterList title="Quick Links" links={QUICK} />
        <FooterList title="Support" links={SUPPORT} />
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-white">Company</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>Privacy Policy</li>
            <li>Terms of Service</li>
            <li>Contact Us</li>
          </ul>
        </div>
      </div>
      <p className="border-t border-slate-800 py-4 text-center text-xs">
        © {new Date().getFullYear()} BidYard. Beta: official launch coming soon.
      </p>
    </footer>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[60] focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:font-semibold focus:text-brand-800"
      >
        Skip to content
      </a>
      <Banner />
      <Header user={data?.user ?? null} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
      <section
        tabIndex={-1}
        aria-label="Notifications (F8)"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-[100] flex flex-col items-end p-2 outline-none sm:p-4 md:left-auto md:max-w-[420px]"
      >
        <ol className="w-full" />
      </section>
    </>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1e3a8a" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export const meta = () => [
  { title: "BidYard · Used and salvage vehicle auctions" },
  {
    name: "description",
    content:
      "Bid live on Copart and IAAI lots, buy from the community marketplace, and ship or export your vehicle. No dealer licence needed.",
  },
];

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <Shell>
      <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
        <p className="text-6xl font-black text-brand-700">{status}</p>
        <h1 className="mt-4 text-2xl font-bold sm:text-3xl">
          {status === 404 ? "Page Not Found" : "Something went wrong"}
        </h1>
        <p className="mt-3 text-slate-600">
          {status === 404
            ? "The page you are looking for does not exist or has moved."
            : "Please try again in a moment."}
        </p>
        <Link
          to="/"
          className="mt-8 inline-flex items-center rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          Go to the home page
        </Link>
      </section>
    </Shell>
  );
}
