/** Escapes LIKE/ILIKE's wildcards (and the escape character) so a typed search matches as typed. */
export function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
