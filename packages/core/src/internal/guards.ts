/** Small type guards for decoding untrusted JSON. Internal: not re-exported. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
export function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}
