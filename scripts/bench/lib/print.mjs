// How bench.mjs and each bench's own process print: a section title, then one row per figure.
export function title(text) {
  process.stdout.write(`\n== ${text}\n`);
}

export function print(rows) {
  for (const row of rows) {
    const target = row.target ? `   (target: ${row.target})` : '';
    process.stdout.write(`  ${row.label.padEnd(58)} ${String(row.value).padStart(14)}${target}\n`);
  }
}
