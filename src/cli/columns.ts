/** Rows as aligned columns, two spaces apart; the last column is left as long as it is. */
export function columns(rows: readonly (readonly string[])[]): string {
  const count = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: count - 1 }, (_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return `${rows.map((row) => row.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ')).join('\n')}\n`;
}
