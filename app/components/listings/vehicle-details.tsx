import { Form, Link, useSearchParams } from "@remix-run/react";
import { VehiclePlaceholder } from "~/components/listings/listing-card";

export function Detail({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div className="border-b border-slate-100 py-2">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-slate-900">{value || "Not stated"}</dd>
    </div>
  );
}

export function Gallery({
  photos,
  title,
}: {
  photos: Array<{ id: string; url: string; thumbnailUrl: string }>;
  title: string;
}) {
  const [params] = useSearchParams();
  if (photos.length === 0) return <VehiclePlaceholder className="aspect-[4/3] w-full rounded-xl" />;
  const index = Math.min(Math.max(Number(params.get("photo")) || 0, 0), photos.length - 1);
  const current = photos[index];
  return (
    <div>
      {/* eslint-disable-next-line jsx-a11y/img-redundant-alt -- "photo 2 of 5" says which one, as the lot pages do */}
      <img
        src={current.url}
        alt={`${title}, photo ${index + 1} of ${photos.length}`}
        className="aspect-[4/3] w-full rounded-xl bg-slate-200 object-cover"
      />
      {photos.length > 1 ? (
        <ul className="mt-2 grid grid-cols-5 gap-2" aria-label="Photos">
          {photos.map((photo, i) => (
            <li key={photo.id}>
              <Link
                to={`?photo=${i}`}
                replace
                preventScrollReset
                aria-current={i === index ? "true" : undefined}
                aria-label={`Show photo ${i + 1}`}
                className={`block overflow-hidden rounded-md ring-2 ${i === index ? "ring-brand-600" : "ring-transparent"}`}
              >
                <img
                  src={photo.thumbnailUrl}
                  alt=""
                  className="aspect-square w-full object-cover"
                />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function OwnerActions({ id, status }: { id: string; status: "active" | "sold" }) {
  const [params] = useSearchParams();
  const confirming = params.get("confirm") === "delete";
  return (
    <section
      aria-labelledby="owner-heading"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="owner-heading" className="font-bold">
        Manage your listing
      </h2>
      <div className="mt-3 flex flex-wrap gap-2">
        <Link
          to={`/vehicle/${id}?edit=1`}
          className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
        >
          Edit
        </Link>
        {status === "active" ? (
          <Form method="post">
            <button
              type="submit"
              name="intent"
              value="markSold"
              className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold hover:bg-slate-50"
            >
              Mark as Sold
            </button>
          </Form>
        ) : null}
        <Link
          to={`/vehicle/${id}?confirm=delete`}
          className="rounded-lg border border-red-300 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
        >
          Delete
        </Link>
      </div>
      {confirming ? (
        <Form
          method="post"
          className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3"
          aria-labelledby="delete-heading"
        >
          <p id="delete-heading" className="font-semibold text-red-900">
            Delete this listing?
          </p>
          <p className="mt-1 text-sm text-red-800">
            It disappears for buyers. A deleted listing still counts toward your free listings.
          </p>
          <div className="mt-3 flex gap-2">
            <button
              type="submit"
              name="intent"
              value="delete"
              className="rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800"
            >
              Yes, delete it
            </button>
            <Link
              to={`/vehicle/${id}`}
              className="rounded-lg px-4 py-2 text-sm font-semibold text-slate-700"
            >
              Cancel
            </Link>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
