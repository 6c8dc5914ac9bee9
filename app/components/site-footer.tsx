import { usePlainLinkClicks } from "~/utils/plain-links";
import { useOptionalUser, useViewerTimeZone } from "~/services/accounts/use-user";
import { timeZoneLabel } from "~/services/accounts/time-zones";

const QUICK_LINKS = [
  { to: "/auctions", label: "Live Auctions" },
  { to: "/community-vehicles", label: "Community Vehicles" },
  { to: "/membership", label: "Membership" },
  { to: "/post-vehicle", label: "Post a Vehicle" },
];

const SUPPORT_LINKS = [
  { to: "/kyc-verification", label: "Identity Verification" },
  { to: "/deposit", label: "Deposits" },
  { to: "/service-orders", label: "Service Orders" },
  { to: "/affiliate-registration", label: "Become a Provider" },
];

const COMPANY_LINKS = [
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/contact", label: "Contact Us" },
];

export function SiteFooter() {
  // plain links with one click handler for all: the same navigation as <Link> (record 3545)
  const onClick = usePlainLinkClicks();
  return (
    // the links inside are the controls (Enter on a link is a click too): this only catches them
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- as said above
    <footer className="mt-16 bg-slate-900 text-slate-300" onClick={onClick}>
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div>
          <p className="text-lg font-black text-white">BidYard</p>
          <p className="mt-2 text-sm">
            Used and salvage vehicles from Copart and IAAI, and from sellers like you. Open to all
            buyers, no dealer licence needed.
          </p>
        </div>
        <FooterList title="Quick Links" links={QUICK_LINKS} />
        <FooterList title="Support" links={SUPPORT_LINKS} />
        <FooterList title="Company" links={COMPANY_LINKS} />
      </div>
      <ZoneNote />
      <p className="border-t border-slate-800 py-4 text-center text-xs">
        {`© ${new Date().getFullYear()} BidYard. Beta: official launch coming soon.`}
      </p>
    </footer>
  );
}

function FooterList({
  title,
  links,
}: {
  title: string;
  links: Array<{ to: string; label: string }>;
}) {
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-white">{title}</h2>
      {/* the links' hover is the list's class (app/tailwind.css), said once (record 3545) */}
      <ul className="footer-links mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <a href={link.to} data-discover="true">
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Names the zone every time on the page is in (docs/decisions/2701), with a way to change it. */
function ZoneNote() {
  const user = useOptionalUser();
  const zone = useViewerTimeZone();
  return (
    <p className="px-4 pb-4 text-center text-xs" data-testid="zone-note">
      {`Times are shown in ${timeZoneLabel(zone)} time. `}
      {user ? (
        <a href="/account/time-zone" data-discover="true" className="underline hover:text-white">
          Change time zone
        </a>
      ) : null}
    </p>
  );
}
