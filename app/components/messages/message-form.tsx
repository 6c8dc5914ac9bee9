import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { FieldMessage } from "~/components/field-message";
import { messageSchema, reportSchema } from "~/services/messages/schemas";
import { MAX_MESSAGE_LENGTH, MAX_REPORT_REASON_LENGTH } from "~/services/messages/rules";

/** The box to write a message or a reply; the server checks it again with the same schema. */
export function MessageForm({
  lastResult,
  label,
  submitLabel,
  pending,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  label: string;
  submitLabel: string;
  pending: boolean;
}) {
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: messageSchema }),
    shouldValidate: "onSubmit",
  });
  const errorId = `${fields.body.id}-error`;
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4">
      <input type="hidden" name="intent" value="send" />
      <label htmlFor={fields.body.id} className="block font-semibold">
        {label}
      </label>
      <textarea
        {...getTextareaProps(fields.body)}
        key={fields.body.key}
        rows={4}
        maxLength={MAX_MESSAGE_LENGTH}
        aria-describedby={fields.body.errors ? errorId : undefined}
        className="mt-1 w-full rounded-md border border-slate-300 p-2"
      />
      {fields.body.errors ? (
        <p id={errorId} className="text-sm text-red-700" role="alert">
          {fields.body.errors[0]}
        </p>
      ) : null}
      <p className="text-xs text-slate-600">
        Your e-mail address is never shown to the other person.
      </p>
      <button
        type="submit"
        disabled={pending}
        className="mt-2 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800 focus-visible:focus-ring disabled:opacity-60"
      >
        {pending ? "Sending..." : submitLabel}
      </button>
    </Form>
  );
}

/**
 * "Report this message": a reason for the admins. A refusal (an empty reason, say) keeps the
 * fold open with the message under the field, with or without JavaScript.
 */
export function ReportMessageForm({
  messageId,
  lastResult,
}: {
  messageId: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const [form, fields] = useForm({
    id: `report-${messageId}`,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reportSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const refused = Boolean(lastResult && lastResult.status === "error");
  return (
    <details className="mt-1 text-sm" open={refused || undefined}>
      <summary className="cursor-pointer text-slate-600">Report this message</summary>
      <Form method="post" {...getFormProps(form)} className="mt-2">
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="messageId" value={messageId} />
        <label htmlFor={fields.reason.id} className="block font-semibold">
          What is wrong?
        </label>
        <input
          {...getInputProps(fields.reason, { type: "text" })}
          key={fields.reason.key}
          maxLength={MAX_REPORT_REASON_LENGTH}
          className="mt-1 w-full rounded-md border border-slate-300 p-2"
        />
        <FieldMessage
          id={fields.reason.errorId}
          errors={fields.reason.errors ?? fields.messageId.errors ?? form.errors}
        />
        <button
          type="submit"
          className="mt-1 rounded-md border border-red-700 px-3 py-1.5 font-semibold text-red-700 focus-visible:focus-ring"
        >
          Report to admins
        </button>
      </Form>
    </details>
  );
}
