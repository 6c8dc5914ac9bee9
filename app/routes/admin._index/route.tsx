import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  Form,
  Link,
  isRouteErrorResponse,
  useLoaderData,
  useNavigation,
  useRouteError,
} from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { ErrorPage } from "~/components/error-page";
import {
  ADMIN_TABS,
  AdminTable,
  AdminTabs,
  StatCard,
  formatDate,
  formatDateTime,
  type AdminTab,
} from "~/components/admin/admin-tabs";
import {
  adminStats,
  decodeCursor,
  listPrelaunchSignups,
  searchUsers,
} from "~/modules/admin/admin.server";
import { KycReviewList } from "~/components/kyc/review-list";
import { listAuditEntries } from "~/modules/admin/audit.server";
import { listPendingDocuments } from "~/modules/kyc/kyc.server";
import { requireAdmin } from "~/modules/accounts/session.server";
import { getSettings, updateSetting } from "~/modules/admin/settings.server";
import { systemStatus } from "~/modules/admin/system-status.server";
import { redirectWithToast } from "~/http/toast.server";
import { settingsSchema } from "~/modules/admin/schemas";

export const meta: MetaFunction = () => [{ title: "Admin · BidYard" }];

function tabFrom(url: URL): AdminTab {
  const tab = url.searchParams.get("tab");
  return (ADMIN_TABS.find((t) => t.id === tab)?.id ?? "users") as AdminTab;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const tab = tabFrom(url);
  const stats = await adminStats();
  const base = { tab, stats };

  if (tab === "users") {
    const search = url.searchParams.get("q") ?? "";
    const { users, next } = await searchUsers({
      search,
      after: decodeCursor(url.searchParams.get("after")),
    });
    return data({
      ...base,
      view: "users" as const,
      search,
      next,
      users: users.map((u) => ({
        id: u.id,
        name: [u.firstName, u.lastName].filter(Boolean).join(" ") || "—",
        email: u.email,
        role: u.role,
        verified: u.verified,
        createdAt: u.createdAt.toISOString(),
      })),
    });
  }
  if (tab === "early-access") {
    const signups = await listPrelaunchSignups({ limit: 500 });
    return data({
      ...base,
      view: "early-access" as const,
      signups: signups.map((s) => ({
        id: s.id,
        name: [s.firstName, s.lastName].filter(Boolean).join(" ") || "—",
        email: s.email,
        source: s.source,
        createdAt: s.createdAt.toISOString(),
      })),
    });
  }
  if (tab === "settings") {
    const [settings, status] = await Promise.all([getSettings(), systemStatus()]);
    return data({ ...base, view: "settings" as const, settings, status });
  }
  if (tab === "audit") {
    const entries = await listAuditEntries({ before: url.searchParams.get("before") ?? undefined });
    return data({
      ...base,
      view: "audit" as const,
      entries: entries.map((e) => ({
        id: e.id,
        adminEmail: e.adminEmail,
        action: e.action,
        target: `${e.targetType}${e.targetId ? ` ${e.targetId}` : ""}`,
        before: e.before == null ? "" : JSON.stringify(e.before),
        after: e.after == null ? "" : JSON.stringify(e.after),
        createdAt: e.createdAt.toISOString(),
      })),
    });
  }
  if (tab === "kyc") {
    return data({ ...base, view: "kyc" as const, documents: await listPendingDocuments() });
  }
  return data({ ...base, view: "link" as const });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: settingsSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  const value = submission.value;
  if (value.intent === "maintenance") {
    await updateSetting(admin, "maintenanceMode", value.enabled === "true");
  } else if (value.intent === "registration") {
    await updateSetting(admin, "registrationOpen", value.enabled === "true");
  } else {
    await updateSetting(admin, "betaBanner", {
      enabled: value.enabled === "true",
      text: value.text,
    });
  }
  return redirectWithToast("/admin?tab=settings", { title: "Settings saved", type: "success" });
}

export default function AdminDashboard() {
  const loaderData = useLoaderData<typeof loader>();
  const { tab, stats } = loaderData;
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold">Admin Dashboard</h1>
      <p className="mt-1 text-slate-600">Review people, signups and documents, and run the site.</p>
      <div className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Total Users" value={stats.totalUsers} />
        <StatCard label="Early Access" value={stats.earlyAccess} />
        <StatCard label="Pending KYC" value={stats.pendingKyc} />
        <StatCard label="Verified Users" value={stats.verifiedUsers} />
      </div>
      <AdminTabs current={tab} />
      <section className="mt-6">
        {loaderData.view === "users" ? <UsersTab {...loaderData} /> : null}
        {loaderData.view === "early-access" ? (
          <EarlyAccessTab signups={loaderData.signups} />
        ) : null}
        {loaderData.view === "settings" ? (
          <SettingsTab settings={loaderData.settings} status={loaderData.status} />
        ) : null}
        {loaderData.view === "audit" ? <AuditTab entries={loaderData.entries} /> : null}
        {loaderData.view === "kyc" ? (
          <KycReviewList documents={loaderData.documents} redirectTo="/admin?tab=kyc" />
        ) : null}
        {tab === "affiliates" ? (
          <div className="flex flex-wrap gap-3">
            <ReviewLink to="/admin/affiliates" label="Review provider applications" />
            <ReviewLink to="/admin/service-orders/new" label="Create a service order" />
          </div>
        ) : null}
      </section>
    </div>
  );
}

function ReviewLink({ to, label }: { to: string; label: string }) {
  return (
    <Link
      to={to}
      className="inline-flex rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
    >
      {label}
    </Link>
  );
}

type UserRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  verified: boolean;
  createdAt: string;
};

function UsersTab({
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
            className="mt-1 w-64 rounded-md border border-slate-300 px-3 py-2"
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
        className="mt-4"
        headers={["Name", "E-mail", "Role", "Status", "Joined", { srOnly: "Actions" }]}
        empty={users.length === 0 ? "No users match your search." : null}
      >
        {users.map((user) => (
          <tr key={user.id} className="border-t border-slate-100">
            <td className="px-4 py-2">{user.name}</td>
            <td className="px-4 py-2">{user.email}</td>
            <td className="px-4 py-2 capitalize">{user.role}</td>
            <td className="px-4 py-2">
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                  user.verified ? "bg-green-100 text-green-800" : "bg-yellow-100 text-yellow-800"
                }`}
              >
                {user.verified ? "Verified" : "Pending"}
              </span>
            </td>
            <td className="px-4 py-2">{formatDate(user.createdAt)}</td>
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

type SignupRow = { id: string; name: string; email: string; source: string; createdAt: string };

function EarlyAccessTab({ signups }: { signups: SignupRow[] }) {
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
        className="mt-4"
        headers={["Name", "E-mail", "Source", "Date", { srOnly: "Contact" }]}
        empty={signups.length === 0 ? "No early-access signups yet." : null}
      >
        {signups.map((signup) => (
          <tr key={signup.id} className="border-t border-slate-100">
            <td className="px-4 py-2">{signup.name}</td>
            <td className="px-4 py-2">{signup.email}</td>
            <td className="px-4 py-2">{signup.source}</td>
            <td className="px-4 py-2">{formatDate(signup.createdAt)}</td>
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

type SettingsData = {
  maintenanceMode: boolean;
  registrationOpen: boolean;
  betaBanner: { enabled: boolean; text: string };
};
type StatusRow = { name: string; ok: boolean; detail: string; ms: number };

function SettingsTab({ settings, status }: { settings: SettingsData; status: StatusRow[] }) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="space-y-4">
        <ToggleCard
          title="Maintenance Mode"
          description="When on, everyone but admins sees a maintenance page."
          intent="maintenance"
          enabled={settings.maintenanceMode}
          onLabel="Turn maintenance on"
          offLabel="Turn maintenance off"
          busy={busy}
        />
        <ToggleCard
          title="User Registration"
          description="When off, people without an account cannot create one at sign-in."
          intent="registration"
          enabled={settings.registrationOpen}
          onLabel="Open registration"
          offLabel="Close registration"
          busy={busy}
        />
        <Form method="post" className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 className="font-semibold">Beta Banner</h2>
          <input type="hidden" name="intent" value="beta-banner" />
          <fieldset className="mt-2 flex gap-4 text-sm">
            <legend className="sr-only">Show the beta banner</legend>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="enabled"
                value="true"
                defaultChecked={settings.betaBanner.enabled}
              />{" "}
              Shown
            </label>
            <label className="flex items-center gap-2">
              <input
                type="radio"
                name="enabled"
                value="false"
                defaultChecked={!settings.betaBanner.enabled}
              />{" "}
              Hidden
            </label>
          </fieldset>
          <label className="mt-3 block text-sm font-medium">
            Banner text
            <input
              name="text"
              defaultValue={settings.betaBanner.text}
              maxLength={200}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          <button
            type="submit"
            disabled={busy}
            className="mt-3 rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:opacity-60"
          >
            Save banner
          </button>
        </Form>
      </div>
      <div className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 className="font-semibold">System status</h2>
        <p className="text-sm text-slate-600">Measured when this page loaded.</p>
        <ul className="mt-3 space-y-2">
          {status.map((service) => (
            <li key={service.name} className="flex items-start justify-between gap-3 text-sm">
              <span>
                <span className="font-medium">{service.name}</span>
                <span className="block text-slate-600">{service.detail}</span>
              </span>
              <span
                className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${
                  service.ok ? "bg-green-100 text-green-800" : "bg-red-100 text-red-800"
                }`}
              >
                {service.ok ? `Operational · ${service.ms} ms` : "Down"}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function ToggleCard(props: {
  title: string;
  description: string;
  intent: string;
  enabled: boolean;
  onLabel: string;
  offLabel: string;
  busy: boolean;
}) {
  return (
    <Form
      method="post"
      className="flex items-center justify-between gap-4 rounded-xl border border-slate-200 bg-white p-4"
    >
      <div>
        <h2 className="font-semibold">{props.title}</h2>
        <p className="text-sm text-slate-600">{props.description}</p>
        <p className="mt-1 text-sm">
          Now: <strong>{props.enabled ? "On" : "Off"}</strong>
        </p>
      </div>
      <input type="hidden" name="intent" value={props.intent} />
      <input type="hidden" name="enabled" value={props.enabled ? "false" : "true"} />
      <button
        type="submit"
        disabled={props.busy}
        className="shrink-0 rounded-md border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 disabled:opacity-60"
      >
        {props.enabled ? props.offLabel : props.onLabel}
      </button>
    </Form>
  );
}

type AuditRow = {
  id: string;
  adminEmail: string;
  action: string;
  target: string;
  before: string;
  after: string;
  createdAt: string;
};

function AuditTab({ entries }: { entries: AuditRow[] }) {
  return (
    <AdminTable
      headers={["When", "Who", "What", "Target", "Before", "After"]}
      empty={entries.length === 0 ? "No admin actions recorded yet." : null}
    >
      {entries.map((entry) => (
        <tr key={entry.id} className="border-t border-slate-100 align-top">
          <td className="whitespace-nowrap px-4 py-2">{formatDateTime(entry.createdAt)}</td>
          <td className="px-4 py-2">{entry.adminEmail}</td>
          <td className="px-4 py-2 font-mono text-xs">{entry.action}</td>
          <td className="px-4 py-2 font-mono text-xs">{entry.target}</td>
          <td className="max-w-xs break-all px-4 py-2 font-mono text-xs">{entry.before}</td>
          <td className="max-w-xs break-all px-4 py-2 font-mono text-xs">{entry.after}</td>
        </tr>
      ))}
    </AdminTable>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <ErrorPage status={403} message="You need admin privileges to access this page." />;
  }
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />;
}
