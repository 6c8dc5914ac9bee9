import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "@remix-run/react";
import { ShellDialogFrame } from "./shell-dialog-frame";
import { usePageWithoutDialogs, useShellDialogs } from "./shell-dialogs";
import { useHydrated } from "~/utils/use-hydrated";
import type { RegistrationErrors, RegistrationField } from "~/services/accounts/schemas";
import { REGISTRATION_MARKER } from "~/services/accounts/registration-marker";
import { FieldMessage } from "~/components/field-message";

type Schemas = typeof import("~/services/accounts/schemas");
/**
 * The form's zod schema (shared with the server) is loaded when the form is shown, not with every
 * page: zod is a fifth of the scripts of a first visit (docs/decisions/1912).
 */
let schemasLoading: Promise<Schemas> | null = null;
let schemasLoaded: Schemas | null = null;
function loadSchemas() {
  schemasLoading ??= import("~/services/accounts/schemas").then((schemas) => {
    schemasLoaded = schemas;
    return schemas;
  });
  return schemasLoading;
}

const input = "mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-slate-900";

/** Every field is sent and kept (docs/decisions/3304). */
const FIELDS: {
  id: Exclude<RegistrationField, "accountType" | "terms">;
  label: string;
  type: string;
  autoComplete: string;
  name: string;
}[] = [
  {
    id: "firstName",
    label: "First name",
    type: "text",
    autoComplete: "given-name",
    name: "firstName",
  },
  {
    id: "lastName",
    label: "Last name",
    type: "text",
    autoComplete: "family-name",
    name: "lastName",
  },
  { id: "login_hint", label: "Email", type: "email", autoComplete: "email", name: "login_hint" },
  { id: "phone", label: "Phone", type: "tel", autoComplete: "tel", name: "phone" },
];

const fieldId = (field: RegistrationField) => `register-${field}`;
const errorId = (field: RegistrationField) => `register-${field}-error`;

/** What the form holds, read by element id. */
function readForm(form: HTMLFormElement) {
  const value = (field: RegistrationField) =>
    form.querySelector<HTMLInputElement>(`#${fieldId(field)}`)?.value ?? "";
  return {
    accountType:
      form.querySelector<HTMLInputElement>('input[name="accountType"]:checked')?.value ?? "",
    ...Object.fromEntries(FIELDS.map((field) => [field.id, value(field.id)])),
    terms: form.querySelector<HTMLInputElement>(`#${fieldId("terms")}`)?.checked ? "on" : undefined,
  };
}

function FieldError({ field, errors }: { field: RegistrationField; errors: RegistrationErrors }) {
  return <FieldMessage id={errorId(field)} errors={errors[field]} />;
}

/**
 * The registration form. It posts to /register the account type, the names, the phone number
 * and the e-mail as the login hint, which the server checks (400 with these messages) and keeps
 * for the first sign-in. There is no password here: it is set at the sign-in service the form
 * leads to, and the form says so (docs/decisions/3304).
 */
export function RegistrationForm({
  errors: fromServer = {},
  values = {},
}: {
  errors?: RegistrationErrors;
  values?: Partial<
    Record<"accountType" | "firstName" | "lastName" | "login_hint" | "phone", string>
  >;
}) {
  const hydrated = useHydrated();
  const [checked, setChecked] = useState<RegistrationErrors | null>(null);
  const errors = checked ?? fromServer;
  const failed = Object.keys(errors).length > 0;

  useEffect(() => {
    if (hydrated) loadSchemas().catch(() => undefined);
  }, [hydrated]);
  /** Set while the form is submitted again once the schema has loaded. */
  const retrying = useRef(false);

  function check(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    const schemas = schemasLoaded;
    if (!schemas) {
      // sent before the schema arrived (a slow connection): check once it has, then send; if it
      // cannot load, the server checks the same fields and answers with the same messages
      if (retrying.current) return;
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      const resend = () => {
        retrying.current = !schemasLoaded;
        form.requestSubmit(submitter instanceof HTMLElement ? submitter : undefined);
        retrying.current = false;
      };
      loadSchemas().then(resend, resend);
      return;
    }
    const { registrationSchema, registrationErrors } = schemas;
    const result = registrationSchema.safeParse(readForm(form));
    if (result.success) {
      setChecked({});
      return;
    }
    event.preventDefault();
    const found = registrationErrors(result.error);
    setChecked(found);
    const first = (["accountType", ...FIELDS.map((f) => f.id), "terms"] as const).find(
      (field) => found[field],
    );
    if (first) form.querySelector<HTMLElement>(`#${fieldId(first)}`)?.focus();
  }

  const described = (field: RegistrationField) =>
    errors[field] ? { "aria-invalid": true, "aria-describedby": errorId(field) } : {};

  return (
    <form
      method="post"
      action="/register"
      onSubmit={hydrated ? check : undefined}
      noValidate={hydrated}
      className="space-y-3"
    >
      <input type="hidden" name={REGISTRATION_MARKER.name} value={REGISTRATION_MARKER.value} />
      <fieldset aria-describedby={errors.accountType ? errorId("accountType") : undefined}>
        <legend className="text-sm font-semibold">Account type</legend>
        <div className="mt-1 grid gap-2 sm:grid-cols-2">
          <label className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2">
            <input
              id={fieldId("accountType")}
              type="radio"
              name="accountType"
              value="buyer"
              defaultChecked={values.accountType !== "affiliate"}
            />
            Buyer
          </label>
          <label className="flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2">
            <input
              type="radio"
              name="accountType"
              value="affiliate"
              defaultChecked={values.accountType === "affiliate"}
            />
            Service Provider (Affiliate)
          </label>
        </div>
        <FieldError field="accountType" errors={errors} />
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <div key={field.id}>
            <label htmlFor={fieldId(field.id)} className="block text-sm font-semibold">
              {field.label}
            </label>
            <input
              id={fieldId(field.id)}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              required
              maxLength={field.id === "login_hint" ? 254 : 100}
              defaultValue={values[field.id as keyof typeof values]}
              className={input}
              {...described(field.id)}
            />
            <FieldError field={field.id} errors={errors} />
          </div>
        ))}
      </div>
      <div>
        <label className="flex items-start gap-2 text-sm">
          <input
            id={fieldId("terms")}
            name="terms"
            type="checkbox"
            required
            className="mt-1"
            {...described("terms")}
          />
          <span>
            I agree to the{" "}
            <Link to="/terms" target="_blank" rel="noopener" className="text-brand-700 underline">
              Terms of Service
            </Link>{" "}
            and{" "}
            <Link to="/privacy" target="_blank" rel="noopener" className="text-brand-700 underline">
              Privacy Policy
            </Link>
          </span>
        </label>
        <p className="text-xs text-slate-500">
          Each opens in a new tab, so this form stays filled in.
        </p>
        <FieldError field="terms" errors={errors} />
      </div>
      {failed ? (
        <p role="alert" className="text-sm text-red-700">
          Please fill in every field and agree to the terms.
        </p>
      ) : null}
      <p className="text-sm text-slate-700" data-testid="password-note">
        No password here: the secure sign-in page that opens next asks for it (or offers another way
        to sign in) and confirms your e-mail. BidYard never sees or stores your password.
      </p>
      <button
        type="submit"
        className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800"
      >
        Create Account
      </button>
    </form>
  );
}

export function RegistrationDialog() {
  const { current, close } = useShellDialogs();
  const back = usePageWithoutDialogs();
  return (
    <ShellDialogFrame
      id="register"
      open={current === "register"}
      onClose={close}
      title="Create your account"
      closeHref={back}
    >
      <RegistrationForm />
    </ShellDialogFrame>
  );
}
