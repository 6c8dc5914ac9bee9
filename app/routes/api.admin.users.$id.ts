import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { isUserId, updateUserByAdmin } from "~/services/admin/admin.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { toPublicUser } from "~/services/accounts/users.server";
import { jsonError } from "~/http/http.server";
import { readJson } from "~/http/json-body.server";
import { errorJson } from "~/http/respond.server";
import { guardResourceAction } from "~/http/route-guards.server";

const schema = z.object({ role: z.enum(["user", "admin"]), verified: z.boolean() }).strict();

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  if (request.method !== "POST" && request.method !== "PATCH")
    return jsonError(405, "Use POST or PATCH");
  // an id that cannot be a user's is a 404 before its body is read
  if (!isUserId(params.id)) return jsonError(404, "User not found");
  const parsed = schema.safeParse(await readJson(request));
  if (!parsed.success) return jsonError(400, "Send {role: 'user' | 'admin', verified: boolean}");
  try {
    const user = await updateUserByAdmin(admin, params.id, parsed.data);
    if (!user) return jsonError(404, "User not found");
    return Response.json(toPublicUser(user));
  } catch (error) {
    return errorJson(error);
  }
}
