import { getInputProps } from "@conform-to/react";

/** conform's props for a text field, without the `key` React refuses to see spread. */
export function textInputProps(field: Parameters<typeof getInputProps>[0]) {
  const { key: _key, ...props } = getInputProps(field, { type: "text" });
  return props;
}
