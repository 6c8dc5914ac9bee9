// The deposit forms' checks in the browser, loaded when someone starts using a form (focus or
// touch), not with the page: the schema brings zod and conform's zod adapter, about 38 KB of the
// page's first scripts (docs/decisions/2906). Until they arrive the forms still work: a form sent
// meanwhile is checked by the server with the same schema and the same messages.
import type { Submission } from "@conform-to/react";
import { useEffect, useState } from "react";

type Validate = (formData: FormData) => Submission<unknown, string[]>;

let loading: Promise<Validate> | null = null;
let loaded: Validate | null = null;
const waiting = new Set<(validate: Validate) => void>();

/** Starts loading the checks (once); every form using them re-renders when they are in. */
export function loadDepositChecks() {
  loading ??= Promise.all([
    import("@conform-to/zod/v4"),
    import("~/services/deposits/schemas"),
  ]).then(
    ([{ parseWithZod }, { depositPageSchema }]) => {
      loaded = (formData) => parseWithZod(formData, { schema: depositPageSchema });
      for (const notify of waiting) notify(loaded);
      return loaded;
    },
    (error: unknown) => {
      loading = null; // a failed load (offline) is tried again on the next use
      throw error;
    },
  );
  return loading;
}

/**
 * conform's options for a deposit form: the checks once they are loaded (on blur, then on input
 * as before), and nothing before, so a field left early never posts a check to the server.
 * `onUse` goes on the form: the first focus or touch starts the load.
 */
export function useDepositChecks(revalidate: "onInput" | "onBlur" = "onBlur") {
  const [validate, setValidate] = useState<Validate | null>(() => loaded);
  useEffect(() => {
    if (validate) return;
    const notify = (ready: Validate) => setValidate(() => ready);
    waiting.add(notify);
    return () => {
      waiting.delete(notify);
    };
  }, [validate]);
  const start = () => {
    if (!loaded) loadDepositChecks().catch(() => undefined);
  };
  return {
    options: validate
      ? {
          shouldValidate: "onBlur" as const,
          shouldRevalidate: revalidate,
          onValidate: ({ formData }: { formData: FormData }) => validate(formData),
        }
      : { shouldValidate: "onSubmit" as const, shouldRevalidate: "onSubmit" as const },
    onUse: { onFocusCapture: start, onPointerDownCapture: start },
  };
}
