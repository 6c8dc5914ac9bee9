// The line a form shows when it puts back what was typed before a session ended (see record 3320).

/** What a form's page gets back after the sign-in round trip: the typed fields, once. */
export type RestoredForm = { fields: Record<string, string>; partial: boolean };

export const KEPT_FORM_NOTICE = "We kept what you typed before your session ended.";
export const KEPT_FORM_PARTIAL_NOTICE =
  "Some long fields were too large to keep: please check them before sending.";
export const KEPT_FORM_FILES_NOTICE = "Files are not kept: please choose them again.";

export function KeptFormNotice({
  restored,
  withFiles = false,
}: {
  restored: RestoredForm | null | undefined;
  /** The form takes files (photos, a document), which are never kept. */
  withFiles?: boolean;
}) {
  if (!restored) return null;
  return (
    <p
      role="status"
      data-testid="kept-form-notice"
      className="rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900"
    >
      {KEPT_FORM_NOTICE}
      {restored.partial ? ` ${KEPT_FORM_PARTIAL_NOTICE}` : ""}
      {withFiles ? ` ${KEPT_FORM_FILES_NOTICE}` : ""}
    </p>
  );
}
