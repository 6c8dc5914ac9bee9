import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { ADMIN_TABS, AdminTabs, StatCard, type AdminTab } from "~/components/admin/admin-tabs";
import {
  adminStats,
  decodeCursor,
  listPrelaunchSignups,
  searchUsers,
} from "~/services/admin/admin.server";
import { KycReviewList } from "~/components/kyc/review-list";
import { listAuditEntries } from "~/services/admin/audit.server";
import { listPendingDocuments } from "~/services/kyc/kyc.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { getSettings, updateSetting } from "~/services/admin/settings.server";
import { systemStatus } from "~/services/admin/system-status.server";
import { redirectWithToast } from "~/http/toast.server";
import { settingsSchema } from "~/services/admin/schemas";
import { AuditTab } from "./audit-tab";
import { EarlyAccessTab } from "./early-access-tab";
import { SettingsTab } from "./settings-tab";
import { UsersTab } from "./users-tab";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Admin · BidYard" }];

function tabFrom(url: URL): AdminTab {
  const tab = url.searchParams.get("tab");
  return (ADMIN_TABS.find((t) => t.id === tab)?.id ?? "users") as AdminTab;
}

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
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

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: settingsSchema });
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

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
