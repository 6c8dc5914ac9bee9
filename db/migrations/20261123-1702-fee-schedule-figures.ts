import type { Migration } from "../migrator";

// The opening fee schedules and payment terms (docs/decisions/1702 says where the figures come
// from). Admins change them afterwards on /admin/fees; this only fills empty tables.
type Band = [minDollars: number, fee: number, percentBp?: number];

const BUYER_CLEAN: Band[] = [
  [0, 25],
  [50, 45],
  [100, 80],
  [200, 130],
  [300, 137.5],
  [350, 145],
  [400, 175],
  [450, 185],
  [500, 205],
  [550, 210],
  [600, 240],
  [700, 270],
  [800, 295],
  [900, 320],
  [1000, 375],
  [1200, 395],
  [1300, 410],
  [1400, 430],
  [1500, 445],
  [1600, 465],
  [1700, 485],
  [1800, 510],
  [2000, 535],
  [2400, 570],
  [2500, 610],
  [3000, 655],
  [3500, 705],
  [4000, 725],
  [4500, 750],
  [5000, 775],
  [6000, 825],
  [7000, 880],
  [8000, 925],
  [9000, 945],
  [10000, 950],
  [11000, 1000],
  [12000, 1025],
  [12500, 1050],
  [15000, 0, 750],
];
const BUYER_NONCLEAN: Band[] = [
  [0, 25],
  [50, 45],
  [100, 90],
  [200, 150],
  [300, 160],
  [350, 170],
  [400, 200],
  [450, 210],
  [500, 230],
  [550, 240],
  [600, 270],
  [700, 305],
  [800, 335],
  [900, 365],
  [1000, 425],
  [1200, 450],
  [1300, 470],
  [1400, 490],
  [1500, 510],
  [1600, 530],
  [1700, 555],
  [1800, 580],
  [2000, 610],
  [2400, 650],
  [2500, 695],
  [3000, 745],
  [3500, 800],
  [4000, 825],
  [4500, 855],
  [5000, 885],
  [6000, 940],
  [7000, 1005],
  [8000, 1055],
  [9000, 1080],
  [10000, 1085],
  [11000, 1140],
  [12000, 1170],
  [12500, 1200],
  [15000, 0, 850],
];
const INTERNET: Band[] = [
  [0, 0],
  [100, 50],
  [500, 65],
  [1000, 85],
  [1500, 95],
  [2000, 110],
  [4000, 125],
  [6000, 145],
  [8000, 160],
];
const GATE: Band[] = [[0, 79]];
const BROKER: Band[] = [[0, 249]];

function rows(schedule: string, bands: Band[]) {
  return bands.map(([min, fee, percent], index) => {
    const next = bands[index + 1];
    const max = next ? Math.round(next[0] * 100) : "NULL";
    return `('${schedule}', ${Math.round(min * 100)}, ${max}, ${Math.round(fee * 100)}, ${percent ?? 0})`;
  });
}

export const up: Migration = async ({ context }) => {
  const values = [
    ...rows("buyer_clean", BUYER_CLEAN),
    ...rows("buyer_nonclean", BUYER_NONCLEAN),
    ...rows("internet", INTERNET),
    ...rows("gate", GATE),
    ...rows("broker", BROKER),
  ].join(",\n");
  await context.sequelize.query(`
    INSERT INTO fee_bands (schedule, min_cents, max_cents, fee_cents, percent_bp)
    SELECT * FROM (VALUES ${values}) AS v (schedule, min_cents, max_cents, fee_cents, percent_bp)
    WHERE NOT EXISTS (SELECT 1 FROM fee_bands);
    INSERT INTO purchase_terms (due_business_days, late_fee_cents, storage_free_days,
      storage_per_day_cents, default_grace_days, default_fee_cents)
    VALUES (3, 5000, 3, 2500, 2, 40000) ON CONFLICT (id) DO NOTHING;
  `);
};

export const down: Migration = async ({ context }) => {
  await context.sequelize.query("DELETE FROM fee_bands; DELETE FROM purchase_terms;");
};
