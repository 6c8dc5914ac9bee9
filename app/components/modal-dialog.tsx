import { Dialog, DialogBackdrop, DialogPanel } from "@headlessui/react";
import type { ReactNode } from "react";

export type ModalDialogProps = {
  open: boolean;
  onClose: () => void;
  /** the id of the dialog's heading (its accessible name) */
  labelledBy: string;
  panelId?: string;
  children: ReactNode;
};

/** Headless UI's dialog (focus trap, Escape, inert page) in the shell's frame. Loaded lazily. */
export default function ModalDialog({
  open,
  onClose,
  labelledBy,
  panelId,
  children,
}: ModalDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={labelledBy} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-center justify-center p-3 sm:p-6">
          <DialogPanel
            id={panelId}
            className="w-full max-w-lg rounded-xl bg-white p-5 shadow-xl sm:p-6"
          >
            {children}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
