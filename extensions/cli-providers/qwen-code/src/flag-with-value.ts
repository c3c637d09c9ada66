/**
 * A flag and its value as CLI arguments. Qwen Code's parser (yargs) reads a separate value that
 * starts with `-` as another flag and drops it (a prompt "-v what is this" ends with "No input
 * provided"); the `--flag=value` form keeps any value whole, so it is used for those values only.
 */
export function flagWithValue(flag: string, value: string): string[] {
  return value.startsWith('-') ? [`${flag}=${value}`] : [flag, value];
}
