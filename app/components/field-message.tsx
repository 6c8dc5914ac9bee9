// A field's message line: its error, else its hint, else nothing, in one line of space that is
// kept whether or not there is anything to say. An error that appears on blur (or goes while
// typing) then never moves the field or checkbox below it under the pointer
// (docs/decisions/2802).

/** The space one line of `text-sm` takes; a longer message still wraps below it. */
export const FIELD_MESSAGE_CLASS = "mt-1 min-h-5 text-sm";

export function FieldMessage({
  id,
  errors,
  hint,
  className = "",
}: {
  id?: string;
  errors?: string[] | string | null;
  hint?: React.ReactNode;
  className?: string;
}) {
  const error = Array.isArray(errors) ? errors[0] : errors;
  if (error) {
    return (
      <p id={id} role="alert" className={`${FIELD_MESSAGE_CLASS} text-red-700 ${className}`}>
        {error}
      </p>
    );
  }
  return (
    // a hint's look is the class field-note (app/tailwind.css): every form shows several
    <p id={id} className={className ? `field-note ${className}` : "field-note"}>
      {hint ?? null}
    </p>
  );
}
