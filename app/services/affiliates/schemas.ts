import * as z from "zod";
import { EXPORT_PORTS, findCityByLabel } from "~/services/affiliates/us-cities";
import { isZipCode } from "./zip-format";
import {
  APPLICATION_MESSAGES,
  BUSINESS_PHONE_FORMAT,
  LICENCE_BLOCKS,
  TRANSPORT_MESSAGES,
} from "./messages";
import { ORDER_INTENTS } from "./rules";

export const SERVICE_TYPE_OPTIONS = [
  { value: "shipping", label: "Shipping (domestic)" },
  { value: "export", label: "Export (international)" },
] as const;

/** "Texas, Oklahoma , ,Louisiana" → ["Texas", "Oklahoma", "Louisiana"] */
export function splitServiceAreas(value: string | string[]): string[] {
  const parts = Array.isArray(value) ? value : value.split(",");
  return parts.map((part) => part.trim()).filter((part) => part.length > 0);
}

const M = APPLICATION_MESSAGES;

/**
 * A phone number as people write one: 7 to 15 digits (E.164's most), with an optional leading +,
 * spaces, dots, dashes, slashes and brackets between them, and an optional extension
 * ("x 12", "ext. 12"). Words and symbols are not a phone number.
 */
export function isPhoneNumber(value: string) {
  const match = /^(\+?[\d\s()./-]+?)(?:\s*(?:x|ext\.?|extension)\s*\d{1,6})?$/i.exec(value.trim());
  if (!match) return false;
  const digits = match[1].replace(/\D/g, "").length;
  return digits >= 7 && digits <= 15;
}
const required = (message: string, max: number) =>
  z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

/** POST /api/affiliates (JSON): serviceAreas is a list there; the page form sends comma text. */
export const AffiliateApplicationSchema = z.object({
  companyName: required(M.companyName, 200),
  serviceTypes: z
    .preprocess(
      // the form's checkboxes are serviceTypes[0] and serviceTypes[1], so a lone one leaves a gap
      (value) =>
        typeof value === "string"
          ? [value]
          : Array.isArray(value)
            ? value.filter((item) => item !== undefined && item !== null && item !== "")
            : value,
      z.array(z.enum(["shipping", "export"], { error: M.serviceTypes }), { error: M.serviceTypes }),
    )
    .transform((types) => [...new Set(types)])
    .refine((types) => types.length > 0, M.serviceTypes),
  businessPhone: required(M.businessPhone, 40).refine(
    (phone) => phone === "" || isPhoneNumber(phone),
    BUSINESS_PHONE_FORMAT,
  ),
  businessEmail: z
    .string({ error: M.businessEmail })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: M.businessEmail }).max(254, M.businessEmail)),
  serviceAreas: z
    .union([z.string(), z.array(z.string())], { error: M.serviceAreas })
    .transform(splitServiceAreas)
    .pipe(
      z
        .array(z.string().max(100, "Each service area is at most 100 characters"))
        .min(1, M.serviceAreas)
        .max(50, "At most 50 service areas"),
    ),
  licenseDocumentUrl: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.string().trim().max(500).optional(),
  ),
});

/**
 * The Apply to Join form adds the terms checkbox, and (with JS, where the document uploads on its
 * own) the state of a chosen document that is not there yet: "failed" or "uploading" blocks the
 * application until a document is there or the choice is removed (docs/decisions/2803).
 */
export const AffiliateApplicationFormSchema = AffiliateApplicationSchema.extend({
  licenseDocumentState: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z
      .undefined({
        error: (issue) =>
          issue.input === "uploading" ? LICENCE_BLOCKS.uploading : LICENCE_BLOCKS.failed,
      })
      .optional(),
  ),
  agreeToTerms: z.preprocess(
    (value) => value === true || value === "on" || value === "true",
    z.literal(true, { error: M.agreeToTerms }),
  ),
});

export const ReviewApplicationSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("approve") }),
  z.object({
    decision: z.literal("reject"),
    reason: z
      .string({ error: "Give a reason the applicant will see" })
      .trim()
      .min(1, "Give a reason the applicant will see")
      .max(1000, "At most 1000 characters"),
  }),
]);

const blankOrAll = (value: unknown) =>
  typeof value === "string" && (value.trim() === "" || value === "all") ? undefined : value;

export const PICKUP_STATE_OPTIONS = ["TX", "CA", "FL", "NY"] as const;
export const VEHICLE_TYPE_OPTIONS = ["sedan", "suv", "truck"] as const;

/** The job board's filters (a GET form); anything unknown is ignored rather than refused. */
export const ServiceOrderFiltersSchema = z.object({
  tab: z.enum(["available", "mine"]).catch("available"),
  serviceType: z.preprocess(blankOrAll, z.enum(["shipping", "export"]).optional()).catch(undefined),
  pickupState: z
    .preprocess(
      blankOrAll,
      z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/)
        .optional(),
    )
    .catch(undefined),
  destination: z
    .preprocess(blankOrAll, z.enum(["domestic", "international"]).optional())
    .catch(undefined),
  vehicleType: z.preprocess(blankOrAll, z.enum(VEHICLE_TYPE_OPTIONS).optional()).catch(undefined),
  q: z.preprocess(blankOrAll, z.string().trim().max(100).optional()).catch(undefined),
});
export type ServiceOrderFilters = z.infer<typeof ServiceOrderFiltersSchema>;

export function parseServiceOrderFilters(params: URLSearchParams): ServiceOrderFilters {
  return ServiceOrderFiltersSchema.parse(Object.fromEntries(params));
}

export const DESTINATION_COUNTRIES = [
  "Nigeria",
  "Ghana",
  "United Arab Emirates",
  "Jordan",
  "Saudi Arabia",
  "Mexico",
  "Guatemala",
  "Honduras",
  "El Salvador",
  "Dominican Republic",
  "Costa Rica",
  "Colombia",
  "Venezuela",
  "Poland",
  "Lithuania",
  "Ukraine",
  "Georgia",
  "Germany",
  "Netherlands",
  "Cambodia",
  "Kenya",
  "Benin",
  "Togo",
  "Canada",
] as const;

const city = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .refine(
      (label) => findCityByLabel(label) !== null,
      "Choose a city from the list, e.g. Dallas, TX",
    );

/** Where a shipment goes: a 5-digit ZIP code (checked by the service), or a listed city. */
const deliveryPlace = z
  .string({ error: "Enter a ZIP code, or a city as Dallas, TX" })
  .trim()
  .min(1, "Enter a ZIP code, or a city as Dallas, TX")
  .refine(
    (label) => findCityByLabel(label) !== null,
    'Enter a 5-digit ZIP code, or a city from the list as "Dallas, TX"',
  );

const port = z
  .string({ error: "Choose an export port" })
  .trim()
  .refine(
    (label) => EXPORT_PORTS.some((p) => `${p.city}, ${p.state}` === findCityLabel(label)),
    "Choose an export port from the list",
  );

function findCityLabel(label: string) {
  const found = findCityByLabel(label);
  return found ? `${found.city}, ${found.state}` : null;
}

const country = z
  .string({ error: "Choose a destination country" })
  .trim()
  .refine(
    (value) => (DESTINATION_COUNTRIES as readonly string[]).includes(value),
    "Choose a destination country",
  );

const optionalText = (max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.string().trim().max(max).optional(),
  );

const payout = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,2})?$/, { message: "Payout in dollars, e.g. 450 or 450.00", abort: true })
    .refine(
      (value) => value.replace(/^0+(?=\d)/, "").length <= 9 && Number(value) <= 100000,
      "At most $100,000",
    )
    .refine((value) => Number(value) > 0, "At least $0.01")
    .optional(),
);

/** Where the vehicle goes: a US city for shipping, a port and a country for export. */
const destinationFields = {
  serviceType: z.enum(["shipping", "export"], { error: "Choose shipping or export" }),
  delivery: optionalText(120),
  exportPort: optionalText(120),
  destinationCountry: optionalText(80),
};

function checkDestination(
  value: {
    serviceType: string;
    delivery?: string;
    exportPort?: string;
    destinationCountry?: string;
  },
  ctx: z.RefinementCtx,
) {
  if (value.serviceType === "shipping") {
    // a ZIP code, like the all-in estimator: the service knows its area (docs/decisions/2705)
    if (isZipCode(value.delivery ?? "")) return;
    const result = deliveryPlace.safeParse(value.delivery ?? "");
    if (!result.success)
      ctx.addIssue({ code: "custom", path: ["delivery"], message: result.error.issues[0].message });
  } else {
    const portResult = port.safeParse(value.exportPort ?? "");
    if (!portResult.success)
      ctx.addIssue({
        code: "custom",
        path: ["exportPort"],
        message: portResult.error.issues[0].message,
      });
    const countryResult = country.safeParse(value.destinationCountry ?? "");
    if (!countryResult.success)
      ctx.addIssue({
        code: "custom",
        path: ["destinationCountry"],
        message: countryResult.error.issues[0].message,
      });
  }
}

/** An admin's order: a lot number or a free-text vehicle, a pickup city and the destination. */
export const AdminServiceOrderSchema = z
  .object({
    ...destinationFields,
    lotId: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z.coerce.number().int().positive("Lot id is a positive number").optional(),
    ),
    vehicleLabel: optionalText(200),
    vehicleType: z.preprocess(blankOrAll, z.enum(VEHICLE_TYPE_OPTIONS).optional()),
    pickup: optionalText(120),
    pickupYard: optionalText(120),
    payout,
  })
  .superRefine((value, ctx) => {
    if (value.lotId === undefined) {
      if (!value.vehicleLabel)
        ctx.addIssue({
          code: "custom",
          path: ["vehicleLabel"],
          message: "Describe the vehicle, or give a lot",
        });
      const pickup = city("Choose the pickup city").safeParse(value.pickup ?? "");
      if (!pickup.success)
        ctx.addIssue({ code: "custom", path: ["pickup"], message: pickup.error.issues[0].message });
    } else if (value.pickup) {
      const pickup = city("Choose the pickup city").safeParse(value.pickup);
      if (!pickup.success)
        ctx.addIssue({ code: "custom", path: ["pickup"], message: pickup.error.issues[0].message });
    }
    checkDestination(value, ctx);
  });

/** A buyer's request for shipping or export of a vehicle they won. */
export const PurchaseServiceRequestSchema = z
  .object({
    ...destinationFields,
    // the door the carrier delivers to; the ZIP or city above prices the trip (record 3531)
    deliveryStreet: optionalText(120),
    purchaseId: z.coerce.number({ error: "Choose a purchase" }).int().positive(),
  })
  .superRefine(checkDestination);

export const OrderIntentSchema = z.object({
  intent: z.enum(ORDER_INTENTS, { error: "Unknown action" }),
  redirectTo: z.string().optional(),
});

/** The buyer confirms the quote shown on the review step: the price is checked on the server. */
export const PayTransportSchema = z.object({
  intent: z.literal("pay"),
  price: z
    .string({ error: "The quoted price is missing" })
    .trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, "The quoted price is missing"),
  // the buyer's own choice: the deposit is never used unless they pick it (record 2753)
  source: z.enum(["deposit", "gateway"], { error: TRANSPORT_MESSAGES.chooseSource }),
});
