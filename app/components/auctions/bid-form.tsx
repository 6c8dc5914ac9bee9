import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "@remix-run/react";
import { useState, type ComponentType } from "react";
import { centsToDecimal, formatUsd, parseCents } from "~/utils/money";
import {
  availableForLot,
  bidMessage,
  minimumBidCents,
  minimumBidLabel,
} from "~/services/auctions/rules";
import type { BiddingEligibility, EligibilityReason } from "~/services/auctions/eligibility";
import { bidAdvice, type BidGuidance } from "~/services/results/guidance";
import { BuyingPowerFigure } from "./buying-power";
import { bidFormSchema } from "~/services/auctions/schemas";
import { FieldMessage } from "~/components/field-message";

export type BidFormLot = {
  id: string;
  currentBid: string;
  estimatedValue: string;
  badge: string;
  /** The user's own maximum when they lead this lot: already held, usable again here. */
  myMax?: string | null;
  /** The viewer leads the lot: a new bid only raises their maximum (docs/decisions/2702). */
  leading?: boolean;
};

export type Bidder = {
  /** Decimal string: deposit minus what leading bids and unpaid invoices (bid and fees) hold. */
  available: string;
  /** Whether this user may bid, and the steps still missing (none: the form is shown). */
  eligibility: BiddingEligibility;
};

type BidFormProps = {
  lot: BidFormLot;
  bidder: Bidder;
  lastResult?: SubmissionResult<string[]> | null;
  pending?: boolean;
  proxyDefault?: boolean;
  redirectTo: string;
  hydrated: boolean;
  FormComponent?: ComponentType<React.ComponentProps<typeof Form>>;
  onCancel?: () => void;
  /** What winning at the typed amount would cost in all (the bid dialog shows it). */
  allIn?: (bidCents: number) => React.ReactNode;
  /**
   * The comparable sales a bid is compared with (the lot page has them; docs/decisions/2703).
   * Without it the form gives no "You could save" nor "above" advice.
   */
  guidance?: BidGuidance | null;
  /**
   * What winning at a bid costs all in (the bid and every fee the invoice adds): the "under the
   * likely price" advice is said from it (record 3542), never from the bare bid.
   */
  allInCentsOf?: ((bidCents: number) => number) | null;
};

/**
 * The bid form: the same fields, checks and texts in the dialog (JS) and on the lot page (no JS).
 * noValidate: the browser never blocks the post; the server answers every rule.
 */
export function BidForm(props: BidFormProps) {
  const { bidder, onCancel } = props;
  if (!bidder.eligibility.canBid)
    return <BidBlocked reasons={bidder.eligibility.reasons} onCancel={onCancel} />;
  return <OpenBidForm {...props} />;
}

/**
 * Someone who may not bid yet gets what to do, with links, and no form (nor savings hints) to
 * fill in for nothing. The server refuses their bids all the same.
 */
export function BidBlocked({
  reasons,
  onCancel,
}: {
  reasons: EligibilityReason[];
  onCancel?: () => void;
}) {
  return (
    <div className="space-y-3">
      <div role="alert" className="space-y-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
        {reasons.map((reason) => (
          <p key={reason.need}>
            {bidMessage(reason)}{" "}
            <Link to={reason.link.to} className="font-semibold text-brand-700 underline">
              {reason.link.label}
            </Link>
          </p>
        ))}
      </div>
      {onCancel ? (
        <div className="flex justify-end">
          <button
            type="button"
            onClick={onCancel}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold"
          >
            Close
          </button>
        </div>
      ) : null}
    </div>
  );
}

function OpenBidForm({
  lot,
  bidder,
  lastResult,
  pending = false,
  proxyDefault = false,
  redirectTo,
  hydrated,
  FormComponent = Form,
  onCancel,
  allIn,
  guidance = null,
  allInCentsOf = null,
}: BidFormProps) {
  const minCents = minimumBidCents(lot.currentBid);
  // a lot's own hold is not counted against itself: a leader may raise up to this
  const usable = availableForLot(bidder.available, lot.myMax);
  const availableCents = parseCents(usable) ?? 0;
  const estimateCents = parseCents(lot.estimatedValue) ?? 0;
  const prebid = lot.badge === "STARTING SOON";
  const [amount, setAmount] = useState(centsToDecimal(minCents));
  // the field starts at the minimum bid: advice is for an amount the buyer typed (record 3312)
  const [typed, setTyped] = useState(false);
  const [proxy, setProxy] = useState(proxyDefault || prebid);
  const [form, fields] = useForm({
    id: `bid-form-${lot.id}`,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: bidFormSchema({
          minCents,
          availableCents,
          minLabel: minimumBidLabel(minCents),
        }),
      }),
  });
  const {
    amount: amountField,
    isProxyBid: proxyField,
    maxAmount: maxField,
  } = bidFields(form, fields);
  const amountCents = parseCents(amount);
  const advice =
    typed && amountCents !== null ? bidAdvice(amountCents, guidance, allInCentsOf) : null;
  const maxShown = proxy || !hydrated;

  return (
    <FormComponent
      method="post"
      action={`/auctions/${lot.id}`}
      {...getFormProps(form)}
      noValidate
      className="space-y-4"
    >
      <input type="hidden" name="intent" value={prebid ? "prebid" : "bid"} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      {hydrated && FormComponent !== Form ? <input type="hidden" name="js" value="1" /> : null}
      <div className="grid grid-cols-2 gap-2 rounded-md bg-slate-100 p-3 text-sm">
        <p>
          Current bid:{" "}
          <strong>{Number(lot.currentBid) > 0 ? formatUsd(lot.currentBid) : "No bids"}</strong>
        </p>
        <p>
          Minimum bid: <strong>{minimumBidLabel(minCents)}</strong>
        </p>
        <BuyingPowerFigure available={bidder.available} />
        {estimateCents > 0 ? (
          <p>
            Est. retail value: <strong>{formatUsd(lot.estimatedValue)}</strong>
          </p>
        ) : null}
      </div>
      {parseCents(lot.myMax) ? (
        <p className="text-sm text-slate-600" data-testid="held-on-lot">
          Held from your deposit for this lot: {formatUsd(lot.myMax!)} (your maximum while you
          lead). You can raise your maximum here up to {formatUsd(usable)}: that{" "}
          {formatUsd(lot.myMax!)} plus what is available for bidding.
        </p>
      ) : null}
      {lot.leading && parseCents(lot.myMax) ? (
        <p
          className="rounded-md bg-emerald-50 p-2 text-sm text-emerald-900"
          data-testid="leader-rule"
        >
          You lead this lot. A new bid only raises your maximum (now {formatUsd(lot.myMax!)}); the
          price stays at {formatUsd(lot.currentBid)} until another bidder bids.
        </p>
      ) : null}
      <div>
        <label htmlFor={amountField.id} className="block text-sm font-semibold">
          {prebid ? "Pre-bid amount (USD)" : "Bid amount (USD)"}
        </label>
        <input
          {...numberInputProps(amountField)}
          required={false}
          defaultValue={undefined}
          value={amount}
          onChange={(event) => {
            setAmount(event.target.value);
            setTyped(true);
          }}
          step="0.01"
          min={centsToDecimal(minCents)}
          max={usable}
          inputMode="decimal"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
        />
        <FieldError id={amountField.errorId} errors={amountField.errors} />
      </div>
      <div className="flex items-center gap-2">
        <input
          type="checkbox"
          id={proxyField.id}
          name={proxyField.name}
          checked={proxy}
          onChange={(event) => setProxy(event.target.checked)}
          className="h-4 w-4"
        />
        <label htmlFor={proxyField.id} className="text-sm font-semibold">
          Proxy bid (bid for me up to a maximum)
        </label>
      </div>
      {maxShown ? (
        <div>
          <label htmlFor={maxField.id} className="block text-sm font-semibold">
            Maximum proxy bid (USD){hydrated ? "" : " — leave empty for a single bid"}
          </label>
          <input
            {...numberInputProps(maxField)}
            required={false}
            step="0.01"
            min={amountCents !== null ? centsToDecimal(amountCents + 100) : undefined}
            max={usable}
            inputMode="decimal"
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2"
          />
          <FieldError id={maxField.errorId} errors={maxField.errors} />
        </div>
      ) : null}
      {advice ? (
        <p
          role="status"
          data-testid="bid-advice"
          className={
            advice.kind === "save"
              ? "rounded-md bg-emerald-50 p-3 text-sm text-emerald-900"
              : "rounded-md bg-amber-50 p-3 text-sm text-amber-900"
          }
        >
          {advice.text}
        </p>
      ) : null}
      {allIn && amountCents !== null && amountCents > 0 ? allIn(amountCents) : null}
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
          {form.errors.join(" ")}
        </p>
      ) : null}
      <p className="text-xs text-slate-600">
        All bids are binding and non-refundable. If you win, you agree to buy this vehicle at the
        final price, held against your deposit until settled.
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel ? (
          <button
            type="button"
            onClick={onCancel}
            className="rounded-md border border-slate-300 px-4 py-2 text-sm font-semibold"
          >
            Cancel
          </button>
        ) : null}
        <button
          type="submit"
          disabled={hydrated && (amount.trim() === "" || pending)}
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-50"
        >
          {pending ? "Placing bid..." : prebid ? "Place Pre-Bid" : "Place Bid"}
        </button>
      </div>
    </FormComponent>
  );
}

type BidFieldName = "amount" | "isProxyBid" | "maxAmount";

export type BidField = {
  id: string;
  name: BidFieldName;
  formId: string;
  errorId: string;
  errors?: string[];
  initialValue?: string;
};

/**
 * The bid form's three fields as conform names them, from three reads of its metadata per
 * render: the form's id, its errors by field and the maximum's first value (the amount's is the
 * field's own state, the box's its `checked`). Every read of a conform field builds its metadata
 * anew (a Proxy and its getters) and the fields took a dozen such reads a render; the ids are
 * conform's own (`<form id>-<name>`, `<field id>-error`), which a unit test holds equal to what
 * conform gives (records 3545, 3570).
 */
export function bidFields(
  form: { id: string; allErrors: Record<string, string[]> },
  fields: { maxAmount: { initialValue?: unknown } },
): Record<BidFieldName, BidField> {
  const formId = form.id;
  const errors = form.allErrors;
  const field = (name: BidFieldName, initialValue?: unknown): BidField => {
    const id = `${formId}-${name}`;
    return {
      id,
      name,
      formId,
      errorId: `${id}-error`,
      errors: errors[name],
      initialValue: typeof initialValue === "string" ? initialValue : undefined,
    };
  };
  return {
    amount: field("amount"),
    isProxyBid: field("isProxyBid"),
    maxAmount: field("maxAmount", fields.maxAmount.initialValue),
  };
}

/**
 * What conform's getInputProps gives a number field of this form (which has no schema
 * constraints), from the field's values read once; getInputProps read 16 of them per field on
 * every render (record 3545).
 */
function numberInputProps(field: BidField) {
  const props: {
    id: string;
    name: string;
    form: string;
    type: "number";
    "aria-invalid"?: true;
    "aria-describedby"?: string;
    defaultValue?: string;
  } = { id: field.id, name: field.name, form: field.formId, type: "number" };
  if (field.errors !== undefined) {
    props["aria-invalid"] = true;
    props["aria-describedby"] = field.errorId;
  }
  const initial = field.initialValue;
  if (typeof initial === "string") props.defaultValue = initial;
  return props;
}

/** A field's error in a line kept for it, so the proxy checkbox below never moves (2802). */
function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return <FieldMessage id={id} errors={errors?.length ? [errors.join(" ")] : undefined} />;
}
