import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { requireAdmin } from "~/services/accounts/session.server";
import { getSettings, updateSetting } from "~/services/admin/settings.server";
import { jsonError } from "~/http/http.server";
import { readJson } from "~/http/json-body.server";
import { bannerTextSchema } from "~/services/admin/schemas";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";

const schema = z
  .object({
    maintenanceMode: z.boolean().optional(),
    registrationOpen: z.boolean().optional(),
    betaBanner: z.object({ enabled: z.boolean(), text: bannerTextSchema }).strict().optional(),
  })
  .strict()
  .refine((change) => Object.keys(change).length > 0, "Send at least one setting to change");

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return Response.json(await getSettings());
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const parsed = schema.safeParse(await readJson(request));
  if (!parsed.success) {
    const textIssue = parsed.error.issues.find(
      (issue) => issue.path.join(".") === "betaBanner.text",
    );
    if (textIssue) return jsonError(400, textIssue.message, { field: "betaBanner.text" });
    return jsonError(
      400,
      "Send any of {maintenanceMode: boolean, registrationOpen: boolean, betaBanner: {enabled, text}}",
    );
  }
  const change = parsed.data;
  if (change.maintenanceMode !== undefined)
    await updateSetting(admin, "maintenanceMode", change.maintenanceMode);
  if (change.registrationOpen !== undefined)
    await updateSetting(admin, "registrationOpen", change.registrationOpen);
  if (change.betaBanner !== undefined) await updateSetting(admin, "betaBanner", change.betaBanner);
  return Response.json(await getSettings());
}
