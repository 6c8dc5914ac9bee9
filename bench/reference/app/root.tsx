// A root layout of the size of BidYard's: a header with the main links and the account's, a
// footer with two lists of links, the user read from the session in the loader.
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
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { getUser, type User } from "./db.server";
import styles from "./styles.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  return { user: await getUser(request) };
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

const pill = ({ isActive }: { isActive: boolean }) => (isActive ? "pill active" : "pill");

function Header({ user }: { user: User | null }) {
  return (
    <header className="header">
      <div className="bar">
        <Link to="/" className="logo">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          BidYard
        </Link>
        <nav aria-label="Main" className="nav">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={pill}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        {user ? (
          <div className="account" role="group" aria-label="Account">
            <NavLink to="/post-vehicle" className={pill}>
              Post Vehicle
            </NavLink>
            <span className="name">{user.firstName || user.email}</span>
            <NavLink to="/" end className={pill}>
              Dashboard
            </NavLink>
            <form method="post" action="/api/logout">
              <button type="submit" className="pill">
                Logout
              </button>
            </form>
            <Link to="/notifications" className="bell" aria-label="Notifications">
              <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor">
                <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
              </svg>
            </Link>
          </div>
        ) : (
          <div className="account" role="group" aria-label="Account">
            <a href="/api/login" className="pill">
              Sign In
            </a>
            <Link to="/?register=1" className="pill accent">
              Register
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}

function FooterList({ title, links }: { title: string; links: typeof QUICK }) {
  return (
    <div>
      <h2>{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Footer() {
  return (
    <footer className="footer">
      <div className="columns">
        <div>
          <p className="brand">BidYard</p>
          <p>
            Used and salvage vehicles from Copart and IAAI, and from sellers like you. Open to all
            buyers, no dealer licence needed.
          </p>
        </div>
        <FooterList title="Quick Links" links={QUICK} />
        <FooterList title="Support" links={SUPPORT} />
        <div>
          <h2>Company</h2>
          <ul>
            <li>Privacy Policy</li>
            <li>Terms of Service</li>
            <li>Contact Us</li>
          </ul>
        </div>
      </div>
      <p className="legal">
        © {new Date().getFullYear()} BidYard. Beta: official launch coming soon.
      </p>
    </footer>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <>
      <a href="#main" className="skip">
        Skip to content
      </a>
      <Header user={data?.user ?? null} />
      <main id="main">{children}</main>
      <Footer />
    </>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Reference</title>
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

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
      <section className="error">
        <p className="status">{status}</p>
        <h1>{status === 404 ? "Page not found" : "Something went wrong"}</h1>
        <p>
          {status === 404
            ? "The page you asked for does not exist or has moved."
            : "Please try again in a moment."}
        </p>
        <Link to="/">Back to the home page</Link> · <Link to="/auctions">Browse auctions</Link>
      </section>
    </Shell>
  );
}
