import { Link, NavLink } from "@remix-run/react";

const NAV = [
  { to: "/auctions", label: "Auctions" },
  { to: "/community-vehicles", label: "Community Vehicles" },
  { to: "/membership", label: "Membership" },
];

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
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
          className="order-3 flex w-full gap-1 overflow-x-auto sm:order-none sm:w-auto"
        >
          {NAV.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              className={({ isActive }) =>
                `whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium ${
                  isActive ? "bg-brand-700 text-white" : "text-slate-700 hover:bg-slate-100"
                }`
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <a
            href="/api/login"
            className="rounded-md px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          >
            Sign In
          </a>
          <a
            href="/api/login?intent=register"
            className="rounded-md bg-accent-500 px-3 py-1.5 text-sm font-semibold text-slate-900 hover:bg-accent-600"
          >
            Register
          </a>
        </div>
      </div>
    </header>
  );
}
