// The Settings tab: maintenance mode, registration, the beta banner, and the system status.
import type { SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useNavigation } from "@remix-run/react";

type SettingsData = {
  maintenanceMode: boolean;
  registrationOpen: boolean;
  betaBanner: { enabled: boolean; text: string };
};
type StatusRow = { name: string; ok: boolean; detail: string; ms: number };

export function SettingsTab({ settings, status }: { settings: SettingsData; status: StatusRow[] }) {
  const busy = useNavigation().state === "submitting";
  const actionData = useActionData<{ result?: SubmissionResult<string[]> }>();
  const textError = actionData?.result?.error?.text?.[0];
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
              aria-invalid={textError ? true : undefined}
              aria-describedby={textError ? "banner-text-error" : undefined}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
            />
          </label>
          {textError ? (
            <p id="banner-text-error" role="alert" className="mt-1 text-sm text-red-700">
              {textError}
            </p>
          ) : null}
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
