import { useState, type FormEvent } from "react";
import { ShellDialogFrame } from "./shell-dialog-frame";
import { usePageWithoutDialogs, useShellDialogs } from "./shell-dialogs";
import { useToast } from "./toaster";
import { useHydrated } from "~/utils/use-hydrated";
import { HONEYPOT_FIELD } from "~/utils/shell";
import { toastIn } from "~/utils/toast";
import { EARLY_ACCESS_FAILED, EARLY_ACCESS_SUCCESS } from "~/services/accounts/messages";

const input =
  "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900 focus:border-brand-600";

/** The early-access (pre-launch) signup: JSON with JavaScript, a plain form post without. */
export function EarlyAccessDialog() {
  const { current, close } = useShellDialogs();
  const back = usePageWithoutDialogs();
  const hydrated = useHydrated();
  const toast = useToast();
  const [email, setEmail] = useState("");
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    try {
      const response = await fetch("/api/prelaunch-signup", {
        method: "POST",
        credentials: "include",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({
          email: form.get("email"),
          firstName: form.get("firstName"),
          lastName: form.get("lastName"),
          [HONEYPOT_FIELD]: form.get(HONEYPOT_FIELD),
        }),
      });
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      // The answer says what to show; an answer without a toast (a 429, a 403) shows its message.
      const answer = toastIn(body);
      if (!response.ok) {
        toast(
          answer ?? { ...EARLY_ACCESS_FAILED, description: body?.message || "Failed to sign up" },
        );
        return;
      }
      toast(answer ?? EARLY_ACCESS_SUCCESS);
      setEmail("");
      close();
    } catch {
      toast(EARLY_ACCESS_FAILED);
    } finally {
      setPending(false);
    }
  }

  return (
    <ShellDialogFrame
      id="early-access"
      open={current === "early-access"}
      onClose={close}
      title="Get Early Access"
      closeHref={back}
    >
      <p className="text-sm text-slate-600">
        Join the pre-launch list for exclusive benefits when BidYard officially launches.
      </p>
      <form
        method="post"
        action="/api/prelaunch-signup"
        onSubmit={hydrated ? submit : undefined}
        noValidate
        className="mt-4 space-y-3"
      >
        <input type="hidden" name="redirectTo" value={back} />
        <div>
          <label htmlFor="early-access-email" className="block text-sm font-semibold">
            Email
          </label>
          <input
            id="early-access-email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            className={input}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="early-access-first" className="block text-sm font-semibold">
              First name
            </label>
            <input
              id="early-access-first"
              name="firstName"
              autoComplete="given-name"
              className={input}
            />
          </div>
          <div>
            <label htmlFor="early-access-last" className="block text-sm font-semibold">
              Last name
            </label>
            <input
              id="early-access-last"
              name="lastName"
              autoComplete="family-name"
              className={input}
            />
          </div>
        </div>
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="early-access-website">Leave this field empty</label>
          <input id="early-access-website" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
        </div>
        <button
          type="submit"
          disabled={hydrated && (pending || email.trim() === "")}
          className="w-full rounded-md bg-accent-500 px-4 py-2.5 font-semibold text-slate-900 hover:bg-accent-600 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {pending ? "Signing up..." : "Join Early Access"}
        </button>
      </form>
    </ShellDialogFrame>
  );
}
