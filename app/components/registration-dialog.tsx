import { useState, type FormEvent } from "react";
import { ShellDialogFrame } from "./shell-dialog-frame";
import { usePageWithoutDialogs, useShellDialogs } from "./shell-dialogs";
import { useHydrated } from "~/utils/use-hydrated";

const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900";

const FIELDS = [
  { id: "firstName", label: "First name", type: "text", autoComplete: "given-name" },
  { id: "lastName", label: "Last name", type: "text", autoComplete: "family-name" },
  { id: "email", label: "Email", type: "email", autoComplete: "email" },
  { id: "phone", label: "Phone", type: "tel", autoComplete: "tel" },
  { id: "password", label: "Password", type: "password", autoComplete: "new-password" },
  {
    id: "confirmPassword",
    label: "Confirm password",
    type: "password",
    autoComplete: "new-password",
  },
] as const;

/**
 * Registration: nothing is sent to us; submitting goes to /api/login with the account
 * type and the e-mail as a login hint. Only those two fields carry a `name`, so passwords and the
 * phone number never leave the page (not even in the URL of the no-JS GET form).
 */
export function RegistrationDialog() {
  const { current, close } = useShellDialogs();
  const back = usePageWithoutDialogs();
  const hydrated = useHydrated();
  const [missing, setMissing] = useState(false);

  function check(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const empty = FIELDS.some(
      (field) =>
        (form.querySelector<HTMLInputElement>(`#register-${field.id}`)?.value ?? "") === "",
    );
    const agreed = form.querySelector<HTMLInputElement>("#register-terms")?.checked;
    if (empty || !agreed) {
      event.preventDefault();
      setMissing(true);
    }
  }

  return (
    <ShellDialogFrame
      id="register"
      open={current === "register"}
      onClose={close}
      title="Create your account"
      closeHref={back}
    >
      <form
        method="get"
        action="/api/login"
        onSubmit={hydrated ? check : undefined}
        noValidate
        className="space-y-3"
      >
        <fieldset>
          <legend className="text-sm font-semibold">Account type</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-2">
            <label className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2">
              <input type="radio" name="accountType" value="buyer" defaultChecked />
              Buyer
            </label>
            <label className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2">
              <input type="radio" name="accountType" value="affiliate" />
              Service Provider (Affiliate)
            </label>
          </div>
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          {FIELDS.map((field) => (
            <div key={field.id}>
              <label htmlFor={`register-${field.id}`} className="block text-sm font-semibold">
                {field.label}
              </label>
              <input
                id={`register-${field.id}`}
                name={field.id === "email" ? "login_hint" : undefined}
                type={field.type}
                autoComplete={field.autoComplete}
                className={input}
              />
            </div>
          ))}
        </div>
        <label className="flex items-start gap-2 text-sm">
          <input id="register-terms" type="checkbox" className="mt-1" />I agree to the Terms of
          Service and Privacy Policy
        </label>
        {missing ? (
          <p role="alert" className="text-sm text-red-700">
            Please fill in every field and agree to the terms.
          </p>
        ) : null}
        <p className="text-xs text-slate-500">
          You will confirm your e-mail on the secure sign-in page next.
        </p>
        <button
          type="submit"
          className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
        >
          Create Account
        </button>
      </form>
    </ShellDialogFrame>
  );
}
