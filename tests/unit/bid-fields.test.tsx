// The bid form derives its fields' ids from the form's (record 3570) instead of reading each
// from conform; these must stay what conform itself gives, or labels, error lines and
// aria-describedby would point at nothing.
import { useForm, type SubmissionResult } from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { bidFields, type BidField } from "~/components/auctions/bid-form";

type Seen = { derived: Record<string, BidField>; conform: Record<string, unknown> };

function Probe({ lastResult, seen }: { lastResult?: SubmissionResult<string[]>; seen: Seen[] }) {
  const [form, fields] = useForm<{ amount: string; isProxyBid: string; maxAmount: string }>({
    id: "bid-form-42",
    lastResult,
  });
  const derived = bidFields(form, fields);
  const conform = Object.fromEntries(
    (["amount", "isProxyBid", "maxAmount"] as const).map((name) => {
      const f = fields[name];
      const initial = f.initialValue;
      return [
        name,
        {
          id: f.id,
          name: f.name,
          formId: f.formId,
          errorId: f.errorId,
          errors: f.errors,
          // only the maximum's first value is read: the amount is the form's own state and the
          // box its `checked`
          initialValue: name === "maxAmount" && typeof initial === "string" ? initial : undefined,
        },
      ];
    }),
  );
  seen.push({ derived, conform });
  return null;
}

describe("the bid form's fields", () => {
  it("are conform's own ids, names, errors and first values", () => {
    const seen: Seen[] = [];
    renderToString(<Probe seen={seen} />);
    renderToString(
      <Probe
        seen={seen}
        lastResult={{
          status: "error",
          initialValue: { amount: "350", isProxyBid: "on", maxAmount: "300" },
          error: { maxAmount: ["Maximum proxy bid must be higher than the bid"] },
        }}
      />,
    );
    for (const { derived, conform } of seen) expect(derived).toEqual(conform);
    // the second render did carry an error and a typed maximum back
    expect(seen[1].derived.maxAmount.errors).toEqual([
      "Maximum proxy bid must be higher than the bid",
    ]);
    expect(seen[1].derived.maxAmount.initialValue).toBe("300");
    expect(seen[0].derived.amount.id).toBe("bid-form-42-amount");
  });
});
