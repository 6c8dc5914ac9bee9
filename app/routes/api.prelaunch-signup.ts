import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { joinEarlyAccess } from "~/services/accounts/early-access.server";
import { earlyAccessSchema, HONEYPOT_FIELD } from "~/services/accounts/early-access.schemas";
import { EARLY_ACCESS_DUPLICATE, EARLY_ACCESS_SUCCESS } from "~/services/accounts/messages";
import { clientAddress, consumeRateLimit } from "~/platform/rate-limit.server";
import { redirectWithToast } from "~/http/toast.server";
import { jsonError, requireSameOrigin, safeRedirect } from "~/http/http.server";
import { readJson } from "~/http/json-body.server";
import { guardResourceAction, guardResourceLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const loader = (args: LoaderFunctionArgs) => guardResourceLoader(args, load);

async function load() {
  return redirect("/?early-access=1");
}

export const action = (args: ActionFunctionArgs) => guardResourceAction(args, act);

// POST /api/prelaunch-signup: JSON from the dialog or a plain form without JavaScript.
async function act({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  if (request.method !== "POST") return jsonError(405, "Method not allowed");
  const isJson = (request.headers.get("content-type") ?? "").includes("application/json");

  // Counted before the body is read: a flood of big or broken bodies spends the budget too.
  await consumeRateLimit(request, "earlyAccess", clientAddress(request));

  let raw: Record<string, unknown>;
  try {
    raw = isJson
      ? ((await readJson(request)) as Record<string, unknown>)
      : Object.fromEntries(await readForm(request));
    if (!raw || typeof raw !== "object") throw new Error("not an object");
  } catch (error) {
    if (error instanceof Response) throw error;
    return jsonError(400, "The request body could not be read");
  }
  const back = safeRedirect(typeof raw.redirectTo === "string" ? raw.redirectTo : null, "/");

  // A filled honeypot is a bot: answer as if it worked and store nothing.
  const honeypot = raw[HONEYPOT_FIELD];
  if (typeof honeypot === "string" && honeypot.trim() !== "") {
    return isJson
      ? Response.json(
          { ok: true, message: EARLY_ACCESS_SUCCESS.description, toast: EARLY_ACCESS_SUCCESS },
          { status: 201 },
        )
      : redirectWithToast(back, EARLY_ACCESS_SUCCESS, { status: 303 });
  }

  const parsed = earlyAccessSchema.safeParse(raw);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "form");
      fieldErrors[field] ??= issue.message;
    }
    const message = fieldErrors.email ?? Object.values(fieldErrors)[0] ?? "Invalid signup";
    const toast = { title: "Error", description: message, type: "error" } as const;
    if (isJson) return jsonError(400, message, { fieldErrors, toast });
    const reopen = new URL(back, "http://x");
    reopen.searchParams.set("early-access", "1");
    return redirectWithToast(`${reopen.pathname}${reopen.search}`, toast, { status: 303 });
  }

  const outcome = await joinEarlyAccess(parsed.data);
  const toast = outcome === "joined" ? EARLY_ACCESS_SUCCESS : EARLY_ACCESS_DUPLICATE;
  if (isJson) {
    return Response.json(
      { ok: true, alreadyJoined: outcome === "already-joined", message: toast.description, toast },
      { status: outcome === "joined" ? 201 : 200 },
    );
  }
  return redirectWithToast(back, toast, { status: 303 });
}
