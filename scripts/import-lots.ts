// npm run import:lots -- --house copart FILE.csv [--no-pictures]
import fs from "node:fs";
import { ensureDatabaseUrl } from "../db/local";

async function main() {
  const args = process.argv.slice(2);
  const noPictures = args.includes("--no-pictures");
  const rest = args.filter((arg) => arg !== "--no-pictures");
  const houseAt = rest.indexOf("--house");
  const house = houseAt >= 0 ? rest[houseAt + 1] : undefined;
  const file = rest.filter((_, i) => i !== houseAt && i !== houseAt + 1)[0];
  if (house !== "copart" || !file) {
    console.error(
      house && house !== "copart"
        ? `Only Copart's published sales-data CSV can be imported (got --house ${house}).`
        : "Usage: npm run import:lots -- --house copart FILE.csv [--no-pictures]",
    );
    process.exit(2);
  }
  if (!fs.existsSync(file)) {
    console.error(`No such file: ${file}`);
    process.exit(2);
  }
  await ensureDatabaseUrl(() => undefined);
  const { importCopartCsv } = await import("../app/services/auctions/import.server");
  const { fetchDuePictures, pictureProgress } =
    await import("../app/services/auctions/lot-images.server");
  const { sequelize } = await import("../app/models/db.server");
  const started = Date.now();
  try {
    const report = await importCopartCsv(fs.createReadStream(file), {
      onProgress: (rows) => console.log(`… ${rows.toLocaleString("en-US")} rows read`),
    });
    for (const skip of report.skipped)
      console.log(
        `line ${skip.line}${skip.lotNumber ? ` (lot ${skip.lotNumber})` : ""}: skipped: ${skip.reason}`,
      );
    for (const flag of report.vinFlags)
      console.log(`line ${flag.line} (lot ${flag.lotNumber}): VIN flagged: ${flag.reason}`);
    console.log(
      `${report.rows} rows: ${report.inserted} new, ${report.updated} updated, ` +
        `${report.unchanged} unchanged, ${report.skipped.length} skipped, ` +
        `${report.vinFlags.length} VINs flagged (${Date.now() - started} ms)`,
    );
    // The pictures the file named (and any still pending from before): fetched now, lot by lot;
    // what fails in a way that may pass is tried again by the lot's job in the job worker (queued
    // by the import). --no-pictures leaves them all to the job worker.
    if (noPictures) {
      console.log(`${report.pictures} picture URLs recorded; the job worker will fetch them`);
      return;
    }
    const line = (p: Awaited<ReturnType<typeof pictureProgress>>) =>
      `pictures: ${p.stored}/${p.wanted} stored` +
      (p.failed ? `, ${p.failed} failed` : "") +
      (p.waiting ? `, ${p.waiting} waiting` : "");
    let printed = 0;
    await fetchDuePictures(async () => {
      // a line every 2 seconds at most: a file names thousands of lots
      if (Date.now() - printed < 2_000) return;
      printed = Date.now();
      console.log(line(await pictureProgress()));
    });
    const done = await pictureProgress();
    console.log(line(done) + (done.waiting ? " (the job worker tries those again later)" : ""));
  } finally {
    await sequelize.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
