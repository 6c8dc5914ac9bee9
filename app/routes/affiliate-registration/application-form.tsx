// The Apply to Join form: checked in the browser with the same schema as on the server; the
// optional licence document streams with the form without JS, or uploads on its own with JS.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { LicenceUpload } from "~/components/affiliates/licence-upload";
import { FieldError, inputClass, labelClass, primaryButton } from "~/components/affiliates/ui";
import {
  AffiliateApplicationFormSchema,
  SERVICE_TYPE_OPTIONS,
} from "~/services/affiliates/schemas";
import type { action, loader } from "./route";

export function ApplicationForm() {
  const { email, prefill } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    // Typed by field name: the form has more fields (terms, licence) than the prefill carries.
    defaultValue: (prefill ?? { businessEmail: email }) as Record<string, string | string[]>,
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: AffiliateApplicationFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const submitting = navigation.state === "submitting";
  const chosenTypes = (fields.serviceTypes.initialValue as string[] | string | undefined) ?? [];
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="mt-8 space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 className="text-xl font-semibold">Apply to Join</h2>
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {form.errors[0]}
        </p>
      ) : null}
      <div>
        <label htmlFor={fields.companyName.id} className={labelClass}>
          Company name
        </label>
        <input
          {...getInputProps(fields.companyName, { type: "text" })}
          className={inputClass}
          autoComplete="organization"
        />
        <FieldError id={fields.companyName.errorId} errors={fields.companyName.errors} />
      </div>
      <fieldset aria-describedby={fields.serviceTypes.errorId}>
        <legend className={labelClass}>Service types</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {SERVICE_TYPE_OPTIONS.map((option, index) => (
            <label key={option.value} className="inline-flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                // indexed names survive the multipart reader, which keeps one value per name
                name={`${fields.serviceTypes.name}[${index}]`}
                value={option.value}
                defaultChecked={[chosenTypes].flat().includes(option.value)}
                className="h-4 w-4 rounded border-slate-300"
              />
              {option.label}
            </label>
          ))}
        </div>
        <FieldError id={fields.serviceTypes.errorId} errors={fields.serviceTypes.errors} />
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={fields.businessPhone.id} className={labelClass}>
            Business phone
          </label>
          <input
            {...getInputProps(fields.businessPhone, { type: "tel" })}
            className={inputClass}
            autoComplete="tel"
          />
          <FieldError id={fields.businessPhone.errorId} errors={fields.businessPhone.errors} />
        </div>
        <div>
          <label htmlFor={fields.businessEmail.id} className={labelClass}>
            Business e-mail
          </label>
          <input
            {...getInputProps(fields.businessEmail, { type: "email" })}
            className={inputClass}
            autoComplete="email"
          />
          <FieldError id={fields.businessEmail.errorId} errors={fields.businessEmail.errors} />
        </div>
      </div>
      <div>
        <label htmlFor={fields.serviceAreas.id} className={labelClass}>
          Service areas
        </label>
        <input
          {...getInputProps(fields.serviceAreas, { type: "text" })}
          className={inputClass}
          placeholder="Texas, Oklahoma, Louisiana"
        />
        <p className="mt-1 text-xs text-slate-500">Separate areas with commas.</p>
        <FieldError id={fields.serviceAreas.errorId} errors={fields.serviceAreas.errors} />
      </div>
      <LicenceUpload
        serverError={
          (form.allErrors as Record<string, string[] | undefined>).licenseDocument ??
          fields.licenseDocumentState.errors
        }
      />
      <div>
        <label className="inline-flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            name={fields.agreeToTerms.name}
            id={fields.agreeToTerms.id}
            aria-describedby={fields.agreeToTerms.errorId}
            className="mt-0.5 h-4 w-4 rounded border-slate-300"
          />
          I agree to the provider terms, including the platform fee deducted from each payout.
        </label>
        <FieldError id={fields.agreeToTerms.errorId} errors={fields.agreeToTerms.errors} />
      </div>
      <button type="submit" className={primaryButton} disabled={submitting}>
        {submitting ? "Submitting..." : "Submit Application"}
      </button>
    </Form>
  );
}
