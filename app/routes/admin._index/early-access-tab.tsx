// The Early Access tab: the prelaunch signups, with a CSV export.
import { AdminTable, TruncatedCell } from "~/components/admin/admin-tabs";
import { LocalTime } from "~/components/local-time";
import { useViewerTimeZone } from "~/services/accounts/use-user";
import { zoneAbbreviation } from "~/utils/time";

type SignupRow = { id: string; name: string; email: string; source: string; createdAt: string };

export function EarlyAccessTab({ signups }: { signups: SignupRow[] }) {
  // The dates are days in the admin's zone, the same zone the CSV is written in (record 3332).
  const zone = useViewerTimeZone();
  const dateHeader = `Date (${zoneAbbreviation(zone)})`;
  return (
    <div>
      <a
        href="/admin/early-access.csv"
        download
        className="inline-flex rounded-md border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
      >
        Export CSV
      </a>
      <p className="mt-2 text-sm text-slate-600">
        Dates here and in the CSV are in your time zone, {zone} ({zoneAbbreviation(zone)}); the CSV
        also gives each time in UTC.
      </p>
      <AdminTable
        label="Early access signups table"
        className="mt-4"
        headers={["Name", "E-mail", "Source", dateHeader, { srOnly: "Contact" }]}
        empty={signups.length === 0 ? "No early-access signups yet." : null}
      >
        {signups.map((signup) => (
          <tr key={signup.id} className="border-t border-slate-100">
            <TruncatedCell label="Name" value={signup.name} />
            <TruncatedCell label="E-mail" value={signup.email} />
            <TruncatedCell label="Source" value={signup.source} />
            <td data-label={dateHeader} className="whitespace-nowrap px-4 py-2">
              <LocalTime at={signup.createdAt} style="day" />
            </td>
            <td className="px-4 py-2">
              <a
                href={`mailto:${signup.email}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                Contact<span className="sr-only"> {signup.email}</span>
              </a>
            </td>
          </tr>
        ))}
      </AdminTable>
    </div>
  );
}
