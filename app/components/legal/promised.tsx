import { Fragment, type ReactNode } from "react";
import { PROMISES, type PromiseId } from "~/services/legal/promises";

/** The `{name}` marks of a promise's text, as a type, so the page must fill each one. */
type Marks<Text> = Text extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Marks<Rest>
  : never;

type Values<Id extends PromiseId> = [Marks<(typeof PROMISES)[Id]["text"]>] extends [never]
  ? { values?: undefined }
  : { values: Record<Marks<(typeof PROMISES)[Id]["text"]>, ReactNode> };

/**
 * A promise sentence of the Terms or the Privacy Policy, rendered from the one list the register
 * of promises is checked against (docs/decisions/3522); `values` fill its `{name}` marks.
 */
export function Promised<Id extends PromiseId>({ id, values }: { id: Id } & Values<Id>) {
  const filled = (values ?? {}) as Record<string, ReactNode>;
  const parts = PROMISES[id].text.split(/\{(\w+)\}/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>{index % 2 === 0 ? part : filled[part]}</Fragment>
      ))}
    </>
  );
}
