// The Audit tab: what admins changed, newest first.
import { AdminTable, TruncatedCell } from "~/components/admin/admin-tabs";
import { LocalTime } from "~/components/local-time";

type AuditRow = {
  id: string;
  adminEmail: string;
  action: string;
  target: string;
  before: string;
  after: string;
  createdAt: string;
};

export function AuditTab({ entries }: { entries: AuditRow[] }) {
  return (
    <AdminTable
      label="Audit log table"
      headers={["When", "Who", "What", "Target", "Before", "After"]}
      empty={entries.length === 0 ? "No admin actions recorded yet." : null}
    >
      {entries.map((entry) => (
        <tr key={entry.id} className="border-t border-slate-100 align-top">
          <td data-label="When" className="whitespace-nowrap px-4 py-2">
            <LocalTime at={entry.createdAt} />
          </td>
          <TruncatedCell label="Who" value={entry.adminEmail} />
          <td data-label="What" className="px-4 py-2 font-mono text-xs">
            {entry.action}
          </td>
          <td data-label="Target" className="px-4 py-2 font-mono text-xs">
            {entry.target}
          </td>
          <td data-label="Before" className="max-w-xs break-all px-4 py-2 font-mono text-xs">
            {entry.before}
          </td>
          <td data-label="After" className="max-w-xs break-all px-4 py-2 font-mono text-xs">
            {entry.after}
          </td>
        </tr>
      ))}
    </AdminTable>
  );
}
