// Drawn side views: one per body style, painted in the vehicle's own colour (docs/decisions/2103).
// Plain strings of SVG with no script and no outside reference, served by /vehicle-art/*.svg.

export const BODY_KINDS = [
  "sedan",
  "coupe",
  "convertible",
  "hatchback",
  "wagon",
  "suv",
  "truck",
  "van",
] as const;
export type BodyKind = (typeof BODY_KINDS)[number];

/** Paint colours by the names feeds and sellers use (Copart prints them upper case). */
export const PAINT: Record<string, string> = {
  white: "#f4f5f7",
  black: "#16181d",
  silver: "#b8bec6",
  gray: "#6b7280",
  charcoal: "#3b3f46",
  red: "#b91c1c",
  maroon: "#6b1420",
  blue: "#1d4ed8",
  green: "#166534",
  gold: "#b08d3c",
  beige: "#d6c7a1",
  brown: "#6b4423",
  orange: "#ea580c",
  yellow: "#eab308",
  purple: "#6b21a8",
};
export const PAINT_NAMES = Object.keys(PAINT);

const ALIASES: Record<string, string> = {
  grey: "gray",
  burgundy: "maroon",
  tan: "beige",
  champagne: "gold",
  teal: "green",
  "dark gray": "charcoal",
  "light blue": "blue",
  pearl: "white",
};

/** The paint for a colour name, or null when we do not know it. */
export function paintName(color: string | null | undefined): string | null {
  const key = (color ?? "").trim().toLowerCase();
  if (PAINT[key]) return key;
  if (ALIASES[key]) return ALIASES[key];
  const word = PAINT_NAMES.find((name) => key.split(/[\s/-]+/).includes(name));
  return word ?? null;
}

/** Our drawing kind for a body style as vPIC, Copart or a seller names it. */
export function bodyKind(style: string | null | undefined): BodyKind {
  const s = (style ?? "").toLowerCase();
  if (/pickup|truck|crew|cab/.test(s)) return "truck";
  if (/van/.test(s)) return "van";
  if (/convertible|cabrio|roadster|spyder/.test(s)) return "convertible";
  if (/wagon|estate/.test(s)) return "wagon";
  if (/sport utility|suv|crossover|utility|4d 4x4|jeep/.test(s)) return "suv";
  if (/coupe|2d|2 door/.test(s)) return "coupe";
  if (/hatch|liftback|5d|3d/.test(s)) return "hatchback";
  return "sedan";
}

const SHAPES: Record<BodyKind, { body: string; glass: string; wheels: [number, number] }> = {
  sedan: {
    body: "M36 150 L40 130 Q44 122 64 120 L118 116 L152 88 Q160 82 174 82 L244 82 Q260 82 270 92 L298 116 L346 120 Q366 124 370 140 L370 168 L36 168 Z",
    glass: "M160 92 L244 92 Q254 92 262 100 L280 114 L138 114 Z",
    wheels: [104, 298],
  },
  coupe: {
    body: "M36 150 L40 132 Q46 124 66 122 L150 116 L184 90 Q194 84 210 84 L248 86 Q266 88 282 104 L306 120 L350 124 Q368 128 370 142 L370 168 L36 168 Z",
    glass: "M190 94 L246 94 Q260 96 272 108 L284 116 L168 116 Z",
    wheels: [104, 300],
  },
  convertible: {
    body: "M36 150 L40 132 Q46 124 66 122 L160 118 L196 100 L202 102 L180 118 L300 118 L350 122 Q368 126 370 142 L370 168 L36 168 Z",
    glass: "M196 100 L202 102 L184 117 L178 117 Z",
    wheels: [104, 300],
  },
  hatchback: {
    body: "M48 150 L52 130 Q58 122 76 120 L128 116 L162 86 Q170 80 184 80 L292 82 Q304 84 310 96 L322 126 Q330 136 332 150 L332 168 L48 168 Z",
    glass: "M170 90 L290 90 Q298 92 302 100 L310 116 L146 116 Z",
    wheels: [108, 280],
  },
  wagon: {
    body: "M36 150 L40 130 Q44 122 64 120 L118 116 L152 86 Q160 80 174 80 L330 80 Q344 80 350 92 L362 122 Q370 132 370 146 L370 168 L36 168 Z",
    glass: "M160 90 L326 90 Q336 90 340 100 L348 114 L138 114 Z",
    wheels: [104, 300],
  },
  suv: {
    body: "M36 154 L38 124 Q42 112 62 110 L110 106 L144 70 Q152 62 168 62 L330 62 Q344 62 350 76 L364 112 Q370 124 370 140 L370 168 L36 168 Z",
    glass: "M154 74 L326 74 Q336 74 340 84 L348 104 L130 104 Z",
    wheels: [106, 300],
  },
  truck: {
    body: "M30 154 L32 122 Q36 110 56 108 L100 104 L128 68 Q134 60 150 60 L222 60 Q232 60 234 72 L236 104 L372 104 L374 168 L30 168 Z",
    glass: "M138 72 L222 72 L224 100 L114 100 Z",
    wheels: [96, 312],
  },
  van: {
    body: "M40 154 L42 118 Q46 104 64 96 L110 66 Q120 58 140 58 L350 58 Q366 58 368 74 L370 168 L40 168 Z",
    glass: "M120 70 L190 70 L190 100 L84 100 Q96 86 120 70 Z M204 70 L350 70 L350 100 L204 100 Z",
    wheels: [108, 304],
  },
};

/** The drawing for a body kind in a paint colour (both already checked against the lists). */
export function drawVehicle(kind: BodyKind, paint: string, label: string) {
  const shape = SHAPES[kind];
  const fill = PAINT[paint] ?? PAINT.silver;
  const dark = paint === "black" || paint === "charcoal";
  const line = dark ? "#4b5563" : "#0f172a";
  const safeLabel = label.replace(/[^A-Za-z0-9 .,-]/g, "");
  const wheel = (x: number) =>
    `<circle cx="${x}" cy="168" r="25" fill="#111827"/><circle cx="${x}" cy="168" r="11" fill="#9ca3af"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 240" role="img" aria-label="${safeLabel}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e0f2fe"/><stop offset="1" stop-color="#f8fafc"/></linearGradient></defs>
<rect width="400" height="240" fill="url(#sky)"/><rect y="186" width="400" height="54" fill="#cbd5e1"/>
<ellipse cx="200" cy="190" rx="178" ry="8" fill="#94a3b8" opacity="0.6"/>
<path d="${shape.body}" fill="${fill}" stroke="${line}" stroke-width="3" stroke-linejoin="round"/>
<path d="${shape.glass}" fill="#bfdbfe" stroke="${line}" stroke-width="2" stroke-linejoin="round" opacity="0.9"/>
${wheel(shape.wheels[0])}${wheel(shape.wheels[1])}
</svg>`;
}

/** The URL of a vehicle's drawing: /vehicle-art/{kind}-{paint}.svg. */
export function vehicleArtUrl(style: string | null | undefined, color: string | null | undefined) {
  return `/vehicle-art/${bodyKind(style)}-${paintName(color) ?? "silver"}.svg`;
}

/** Reads "suv-red.svg" back into its parts, or null when it names no drawing we make. */
export function parseArtFile(file: string): { kind: BodyKind; paint: string } | null {
  const match = /^([a-z]+)-([a-z]+)\.svg$/.exec(file);
  if (!match) return null;
  const [, kind, paint] = match;
  if (!(BODY_KINDS as readonly string[]).includes(kind) || !PAINT[paint]) return null;
  return { kind: kind as BodyKind, paint };
}
