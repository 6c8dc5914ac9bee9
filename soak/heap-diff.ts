// Compares two V8 heap snapshots of one server process (SOAK_HEAP_SNAPSHOTS writes them during a
// soak): what grew between them, by constructor or kind, in count and self size.
//   npx tsx soak/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot
import { readFileSync } from "node:fs";

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  nodes: number[];
  strings: string[];
};

function tally(file: string) {
  const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const byKey = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]];
    const name = snap.strings[snap.nodes[i + nameAt]];
    // strings and code by kind; objects by constructor
    const key = ["object", "closure", "native"].includes(type)
      ? `${type} ${name.slice(0, 60)}`
      : type;
    const entry = byKey.get(key) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += snap.nodes[i + sizeAt];
    byKey.set(key, entry);
  }
  return byKey;
}

const [early, late] = process.argv.slice(2);
if (!early || !late) throw new Error("usage: heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot");
const a = tally(early);
const b = tally(late);
const total = (m: Map<string, { bytes: number }>) =>
  [...m.values()].reduce((sum, e) => sum + e.bytes, 0);
console.log(
  `self sizes: ${(total(a) / 2 ** 20).toFixed(1)} MB → ${(total(b) / 2 ** 20).toFixed(1)} MB`,
);
const rows = [...new Set([...a.keys(), ...b.keys()])].map((key) => {
  const x = a.get(key) ?? { count: 0, bytes: 0 };
  const y = b.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: y.count - x.count, bytes: y.bytes - x.bytes, now: y.bytes };
});
rows.sort((p, q) => q.bytes - p.bytes);
console.log("grew most (bytes, count, size now):");
for (const row of rows.slice(0, 25))
  console.log(
    `  ${(row.bytes / 1024).toFixed(0).padStart(8)} KB ${String(row.count).padStart(8)}  ${(row.now / 1024).toFixed(0).padStart(8)} KB  ${row.key}`,
  );
