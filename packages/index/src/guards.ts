/** Small type guards for JSON read back from transcripts and meta files. */

/** A JSON object (not an array, not null). */
export type Obj = Readonly<Record<string, unknown>>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
