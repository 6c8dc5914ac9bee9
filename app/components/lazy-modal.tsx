import { lazy, Suspense, useState } from "react";
import { useReturnFocus } from "~/utils/use-return-focus";
import type { ModalDialogProps } from "./modal-dialog.client";

// Headless UI (about 16 KB gzipped) is fetched the first time a shell dialog opens, not with every
// page: most visits never open one. See docs/decisions/1103-first-visit-javascript.md.
const ModalDialog = lazy(() => import("./modal-dialog.client"));

/** Renders nothing until first opened; from then on the real dialog, so focus returns on close. */
export function LazyModal(props: ModalDialogProps) {
  const [opened, setOpened] = useState(props.open);
  useReturnFocus(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  );
}
