import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import type { ComponentProps } from "react";
import { BidAllIn } from "~/components/purchases/bid-all-in";
import { BidForm, type BidFormLot } from "./bid-form";

type BidFormProps = ComponentProps<typeof BidForm>;

/** The auction list's bid dialog (loaded on the first Bid click). */
export default function BidDialog({
  dialog,
  onClose,
  ...form
}: {
  dialog: {
    lot: BidFormLot & {
      id: string | number;
      year: number;
      make: string;
      model: string;
      titleType?: string;
    };
    proxy: boolean;
  } | null;
  onClose: () => void;
} & Pick<
  BidFormProps,
  "bidder" | "lastResult" | "pending" | "redirectTo" | "hydrated" | "FormComponent"
>) {
  return (
    <Dialog open={dialog !== null} onClose={onClose} className="relative z-40">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-3">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-5 shadow-xl">
          {dialog ? (
            <>
              <DialogTitle className="text-lg font-bold">
                {dialog.lot.badge === "STARTING SOON" ? "Pre-Bid" : "Place Bid"}: {dialog.lot.year}{" "}
                {dialog.lot.make} {dialog.lot.model}
              </DialogTitle>
              <div className="mt-3">
                <BidForm
                  key={dialog.lot.id}
                  lot={dialog.lot}
                  proxyDefault={dialog.proxy}
                  onCancel={onClose}
                  allIn={(bidCents) => (
                    <BidAllIn
                      lotId={dialog.lot.id}
                      titleType={dialog.lot.titleType ?? "clean"}
                      bidCents={bidCents}
                    />
                  )}
                  {...form}
                />
              </div>
              <a
                href={`/auctions/${dialog.lot.id}#all-in`}
                className="mt-3 inline-block text-sm text-brand-700 underline"
              >
                What it costs all in if you win (fees, transport)
              </a>
            </>
          ) : null}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
