/** `1 endpoint`, `2 endpoints`: a count with its noun in the number it takes. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A size as a person reads it: `512 MiB`, `1.5 KiB`, `100 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 2 ** 20) return `${Math.round((n / 2 ** 20) * 10) / 10} MiB`;
  if (n >= 1024) return `${Math.round((n / 1024) * 10) / 10} KiB`;
  return count(n, 'byte');
}
