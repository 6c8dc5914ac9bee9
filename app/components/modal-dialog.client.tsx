import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from "@headlessui/react";
import type { ReactNode } from "react";

export type ModalDialogProps = {
  open: boolean;
  onClose: () => void;
  panelId?: string;
  /**
   * The dialog's content. Its heading must be the `Title` handed in: Headless UI names the dialog
   * after the DialogTitle it renders (an aria-labelledby of our own is overwritten).
   */
  children: (Title: typeof DialogTitle) => ReactNode;
};

/** Headless UI's dialog (focus trap, Escape, inert page) in the shell's frame. Loaded lazily. */
export default function ModalDialog({ open, onClose, panelId, children }: ModalDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50" />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-center justify-center p-3 sm:p-6">
          <DialogPanel
            id={panelId}
            className="w-full max-w-lg rounded-xl bg-white p-5 shadow-xl sm:p-6"
          >
            {children(DialogTitle)}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
