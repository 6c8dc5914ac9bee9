import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { DestinationFields } from "~/components/affiliates/destination-fields";
import {
  FieldError,
  inputClass,
  labelClass,
  primaryButton,
  secondaryButton,
} from "~/components/affiliates/ui";
import { cityLabel, EXPORT_PORTS, US_CITIES } from "~/services/affiliates/us-cities";
import { replyFor } from "~/http/respond.server";
import { isUserError } from "~/utils/user-error";
import { vehicleTypeLabel } from "~/services/affiliates/rules";
import { createOrderByAdmin } from "~/services/affiliates/service-orders.server";
import { requireAdmin } from "~/services/accounts/session.server";
import { redirectWithToast } from "~/http/toast.server";
import {
  AdminServiceOrderSchema,
  DESTINATION_COUNTRIES,
  VEHICLE_TYPE_OPTIONS,
} from "~/services/affiliates/schemas";
import { guardAction, guardLoader } from "~/http/route-guards.server";
import { readForm } from "~/http/form-body.server";

export const meta: MetaFunction = () => [{ title: "Create service order · Admin · BidYard" }];

export const loader = (args: LoaderFunctionArgs) => guardLoader(args, load);

async function load({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {
    cities: US_CITIES.map(cityLabel).sort(),
    ports: EXPORT_PORTS.map(cityLabel).sort(),
  };
}

export const action = (args: ActionFunctionArgs) => guardAction(args, act);

async function act({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: AdminServiceOrderSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const order = await createOrderByAdmin(admin.id, submission.value);
    return redirectWithToast(
      `/service-orders/${order.id}`,
      { title: "Service order created", description: order.vehicleLabel, type: "success" },
      { status: 303 },
    );
  } catch (error) {
    if (!isUserError(error)) throw error;
    return data(replyFor(submission, error), { status: error.status });
  }
}

export default function AdminNewServiceOrder() {
  const { cities, ports } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { serviceType: "shipping" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdminServiceOrderSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const text = (
    field: (typeof fields)["vehicleLabel"],
    label: string,
    extra: { placeholder?: string; list?: string; hint?: string } = {},
  ) => (
    <div>
      <label htmlFor={field.id} className={labelClass}>
        {label}
      </label>
      <input
        id={field.id}
        name={field.name}
        defaultValue={(field.initialValue as string | undefined) ?? ""}
        placeholder={extra.placeholder}
        list={extra.list}
        aria-describedby={field.errorId}
        className={inputClass}
      />
      {extra.hint ? <p className="mt-1 text-xs text-slate-500">{extra.hint}</p> : null}
      <FieldError id={field.errorId} errors={field.errors} />
    </div>
  );
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Create service order</h1>
        <Link to="/admin/affiliates" className={secondaryButton}>
          Affiliate applications
        </Link>
      </div>
      <Form
        method="post"
        {...getFormProps(form)}
        className="mt-6 space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        {form.errors?.length ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">
            {form.errors[0]}
          </p>
        ) : null}
        <DestinationFields
          fields={fields}
          cities={cities}
          ports={ports}
          countries={DESTINATION_COUNTRIES}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          {text(fields.lotId as never, "Lot id (optional)", {
            hint: "With a lot, the vehicle and pickup come from the lot.",
          })}
          {text(fields.vehicleLabel, "Vehicle", { placeholder: "2019 Toyota Camry SE" })}
          <div>
            <label htmlFor={fields.vehicleType.id} className={labelClass}>
              Vehicle type
            </label>
            <select
              id={fields.vehicleType.id}
              name={fields.vehicleType.name}
              defaultValue={(fields.vehicleType.initialValue as string | undefined) ?? "all"}
              className={inputClass}
            >
              <option value="all">Other / unknown</option>
              {VEHICLE_TYPE_OPTIONS.map((type) => (
                <option key={type} value={type}>
                  {vehicleTypeLabel(type)}
                </option>
              ))}
            </select>
          </div>
          {text(fields.pickup, "Pickup city", { placeholder: "Dallas, TX", list: "us-cities" })}
          {text(fields.pickupYard, "Pickup yard (optional)", { placeholder: "Copart Dallas" })}
          {text(fields.payout, "Payout in USD (optional)", {
            placeholder: "Quoted from the distance when blank",
          })}
        </div>
        <button type="submit" className={primaryButton} disabled={navigation.state !== "idle"}>
          Create order
        </button>
      </Form>
    </div>
  );
}
