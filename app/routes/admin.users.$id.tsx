import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { LocalTime } from "~/components/local-time";
import { findUserForAdmin, updateUserByAdmin } from "~/services/admin/admin.server";
import { isUserError } from "~/utils/user-error";
import { requireAdmin } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import { adminUserEditSchema } from "~/services/admin/schemas";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Edit user · Admin · BidYard" }];

async function findUser(id: string | undefined) {
  const user = await findUserForAdmin(id);
  if (!user) throw new Response("User not found", { status: 404 });
  return user;
}

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const user = await findUser(params.id);
  return {
    user: {
      id: user.id,
      email: user.email,
      name: [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email,
      role: user.role,
      verified: user.verified,
      createdAt: user.createdAt.toISOString(),
    },
  };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const user = await findUser(params.id);
  const submission = parseWithZod(await readForm(request), { schema: adminUserEditSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), review: null, error: null }, { status: 400 });
  }
  const { intent, role, verified } = submission.value;
  const review = {
    role,
    verified,
    changes: [
      role !== user.role ? `Role: ${user.role} → ${role}` : null,
      verified !== user.verified
        ? `Verification: ${user.verified ? "Verified" : "Pending"} → ${verified ? "Verified" : "Pending"}`
        : null,
    ].filter((line): line is string => line !== null),
  };
  if (intent === "review") return data({ result: submission.reply(), review, error: null });
  try {
    await updateUserByAdmin(admin, user.id, { role, verified });
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data(
      { result: submission.reply(), review: null, error: error.message },
      { status: error.status },
    );
  }
  return redirectWithToast("/admin?tab=users", {
    title: "User updated",
    description: `${user.email} saved.`,
    type: "success",
  });
}

export default function EditUser() {
  const { user } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const review = actionData?.review;
  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <Link to="/admin?tab=users" className="text-sm font-semibold text-brand-700 hover:underline">
        ← Back to users
      </Link>
      <h1 className="mt-3 text-2xl font-bold">Edit {user.name}</h1>
      <p className="text-slate-600">
        {user.email} · joined <LocalTime at={user.createdAt} style="day" />
      </p>
      {actionData?.error ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800">
          {actionData.error}
        </p>
      ) : null}
      {review ? (
        <Form method="post" className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-4">
          <h2 className="font-semibold">Confirm changes</h2>
          {review.changes.length ? (
            <ul className="mt-2 list-disc pl-5 text-sm">
              {review.changes.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm">Nothing changes.</p>
          )}
          <input type="hidden" name="role" value={review.role} />
          <input type="hidden" name="verified" value={String(review.verified)} />
          <div className="mt-4 flex gap-2">
            <button
              type="submit"
              name="intent"
              value="confirm"
              className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white"
            >
              Confirm
            </button>
            <Link
              to={`/admin/users/${user.id}`}
              className="rounded-md px-4 py-2 text-sm font-semibold text-slate-700"
            >
              Cancel
            </Link>
          </div>
        </Form>
      ) : (
        <Form
          method="post"
          className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-4"
        >
          <label className="block text-sm font-medium">
            Role
            <select
              name="role"
              defaultValue={user.role}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            >
              <option value="user">User</option>
              <option value="admin">Admin</option>
            </select>
          </label>
          <label className="block text-sm font-medium">
            Identity verification
            <select
              name="verified"
              defaultValue={String(user.verified)}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            >
              <option value="true">Verified</option>
              <option value="false">Pending</option>
            </select>
          </label>
          <button
            type="submit"
            name="intent"
            value="review"
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white"
          >
            Review changes
          </button>
        </Form>
      )}
    </div>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
