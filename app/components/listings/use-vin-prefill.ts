import { useCallback, useRef, useState } from "react";
import type { VinPrefill } from "~/services/listings/vin-prefill.server";

export type VinFillable = "year" | "make" | "model" | "bodyType" | "fuelType";

/**
 * With scripts on, a VIN typed or pasted into the listing form is looked up at once and the
 * year, make, model, body type and fuel the seller left empty are filled from it
 * (docs/decisions/2854); without scripts the server fills body type and fuel on posting. `fill`
 * sets one empty field of the form.
 */
export function useVinPrefill(fill: (name: VinFillable, value: string) => void) {
  const [facts, setFacts] = useState<VinPrefill | null>(null);
  const asked = useRef("");
  const lookUp = useCallback(
    async (raw: string, form: HTMLFormElement | null) => {
      const vin = raw.replace(/[\s-]/g, "").toUpperCase();
      if (vin.length !== 17 || vin === asked.current) return;
      asked.current = vin;
      try {
        const response = await fetch(`/api/vin/${encodeURIComponent(vin)}`, {
          headers: { Accept: "application/json" },
        });
        if (asked.current !== vin) return;
        if (!response.ok) return setFacts(null);
        const found = (await response.json()) as VinPrefill;
        setFacts(found.decoded ? found : null);
        if (!found.decoded) return;
        for (const name of ["year", "make", "model", "bodyType", "fuelType"] as const) {
          const field = form?.elements.namedItem(name) as HTMLInputElement | null;
          const value = found[name];
          if (value !== null && field && !field.value.trim()) fill(name, String(value));
        }
      } catch {
        // nothing filled: the seller chooses, and the server fills on posting
      }
    },
    [fill],
  );
  return { facts, lookUp };
}
