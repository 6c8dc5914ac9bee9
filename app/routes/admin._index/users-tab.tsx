// The Users tab: search by name or e-mail, newest first, a page at a time.
import { Form, Link } from "@remix-run/react";
import { AdminTable, TruncatedCell } from "~/components/admin/admin-tabs";
import { LocalTime } from "~/components/local-time";

type UserRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  verified: boolean;
  createdAt: string;
};

export function UsersTab({
  users,
  search,
  next,
}: {
  users: UserRow[];
  search: string;
  next: string | null;
}) {
  return (
    <div>
      <Form method="get" className="flex flex-wrap items-end gap-2" role="search">
        <input type="hidden" name="tab" value="users" />
        <label className="flex flex-col text-sm font-medium">
          Search users
          <input
            name="q"
            defaultValue={search}
            placeholder="Name or e-mail"
            className="mt-1 w-64 max-w-full rounded-md border border-slate-300 px-3 py-2"
          />
        </label>
        <button
          type="submit"
          className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white"
        >
          Search
        </button>
      </Form>
      <AdminTable
        label="Users table"
        className="mt-4"
        headers={["Name", "E-mail", "Role", "Status", "Joined", { srOnly: "Actions" }]}
        empty={users.length === 0 ? "No users match your search." : null}
      >
        {users.map((user) => (
          <tr key={user.id} className="border-t border-slate-100">
            <TruncatedCell label="Name" value={user.name} />
            <TruncatedCell label="E-mail" value={user.email} />
            <td data-label="Role" className="px-4 py-2 capitalize">
              {user.role}
            </td>
            <td data-label="Status" className="px-4 py-2">
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                  user.verified ? "bg-green-100 text-green-800" : "bg-yellow-100 text-yellow-800"
                }`}
              >
                {user.verified ? "Verified" : "Pending"}
              </span>
            </td>
            <td data-label="Joined" className="whitespace-nowrap px-4 py-2">
              <LocalTime at={user.createdAt} style="day" />
            </td>
            <td className="px-4 py-2">
              <Link
                to={`/admin/users/${user.id}`}
                className="font-semibold text-brand-700 hover:underline"
              >
                Edit<span className="sr-only"> {user.email}</span>
              </Link>
            </td>
          </tr>
        ))}
      </AdminTable>
      {next ? (
        <Link
          to={`/admin?tab=users&q=${encodeURIComponent(search)}&after=${next}`}
          className="mt-4 inline-block font-semibold text-brand-700 hover:underline"
        >
          Next page
        </Link>
      ) : null}
    </div>
  );
}
