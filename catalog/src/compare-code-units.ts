/** Locale-independent string order (UTF-16 code units), so every machine sorts archive entries alike. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
