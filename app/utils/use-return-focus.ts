import { useEffect, useRef, useState } from "react";

/**
 * Gives focus back to whatever had it when a dialog opened, once it closes, if nothing else took
 * it. Headless UI restores focus from a history it only starts keeping once it is loaded, so a
 * dialog loaded on first use would otherwise drop focus to the top of the page on its first close.
 */
export function useReturnFocus(open: boolean) {
  const opener = useRef<Element | null>(null);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    // Read while rendering: the dialog has not moved focus yet.
    if (open && typeof document !== "undefined") opener.current = document.activeElement;
  }
  useEffect(() => {
    if (open) return;
    const target = opener.current;
    opener.current = null;
    if (!(target instanceof HTMLElement)) return;
    // After Headless UI's own restore has had its turn.
    const frame = requestAnimationFrame(() => {
      const active = document.activeElement;
      if ((!active || active === document.body) && target.isConnected) target.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [open]);
}
