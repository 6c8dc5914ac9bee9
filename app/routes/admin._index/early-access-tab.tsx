// The Early Access tab: the prelaunch signups, with a CSV export.
import { AdminTable, TruncatedCell } from "~/components/admin/admin-tabs";
import { LocalTime } from "~/components/local-time";

type SignupRow = { id: string; name: string; email: string; source: string; createdAt: string };

export function EarlyAccessTab({ signups }: { signups: SignupRow[] }) {
  return (
    <div>
      <a
        href="/admin/early-access.csv"
        download
        className="inline-flex rounded-md border border-brand-700 px-4 py-2 font-semibold text-brand-700 hover:bg-brand-50"
      >
        Export CSV
      </a>
      <AdminTable
        label="Early access signups table"
        className="mt-4"
        headers={["Name", "E-mail", "Source", "Date", { srOnly: "Contact" }]}
        empty={signups.length === 0 ? "No early-access signups yet." : null}
      >
        {signups.map((signup) => (
          <tr key={signup.id} className="border-t border-slate-100">
            <TruncatedCell value={signup.name} />
            <TruncatedCell value={signup.email} />
            <TruncatedCell value={signup.source} />
            <td className="whitespace-nowrap px-4 py-2">
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
