// What stands in place of the upload form while the current document is being reviewed: which
// document, when it was sent, and what happens next. Another one can be sent only if this one is
// rejected (one pending document at a time, record 0303; record 3333).
import { useEffect, useRef } from "react";
import { LocalTime } from "~/components/local-time";
import { documentTypeLabel, type PublicKycDocument } from "~/services/kyc/documents";

/** Set by the upload form when a document was just sent: focus moves here, not to the page top. */
export const JUST_SENT_KEY = "kyc-just-sent";

export function UnderReview({ document }: { document: PublicKycDocument }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The Upload button that had focus is gone with the form; the news takes its place.
    if (sessionStorage.getItem(JUST_SENT_KEY)) {
      sessionStorage.removeItem(JUST_SENT_KEY);
      heading.current?.focus();
    }
  }, []);
  return (
    <section
      aria-labelledby="under-review-heading"
      className="rounded-lg border border-slate-200 bg-white p-5"
    >
      <h2 id="under-review-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Document sent
      </h2>
      <p className="mt-2">
        Your {documentTypeLabel(document.documentType)}, sent <LocalTime at={document.createdAt} />,
        is being reviewed.
      </p>
      <p className="mt-2 text-sm text-slate-600">
        You do not need to send anything else now. If it is rejected, you will see the reason here
        and can upload a new document.
      </p>
    </section>
  );
}
