/**
 * How derived rows store repeated or computable values compactly (schema-derived.ts): a timestamp once (`ts_ms`, with
 * `ts_text` only when the text is not the ISO form of it), a canonical uuid as its 16 bytes, a kind as a small
 * number. Generated columns (`TS`, `UUID`, `KIND`) give the texts back, so readers see the same values.
 */

/** `ts`, computed: the text as written when it was kept, else the ISO form (`…T…:ss.sssZ`) of `ts_ms`. */
export const TS = `TEXT GENERATED ALWAYS AS (coalesce(ts_text, strftime('%Y-%m-%dT%H:%M:%fZ', ts_ms / 1000.0, 'unixepoch')))`;

/** The text a row keeps of a timestamp: none when `ts` computes it back from `ts_ms` exactly (see `TS`). */
export function storedTs(ts: string | undefined | null, ms: number | undefined | null): string | null {
  if (ts === undefined || ts === null) return null;
  if (ms === undefined || ms === null || !Number.isInteger(ms) || ms < 0 || ms >= 253402300800000) return ts;
  // The ISO form of such a time (years 1970 to 9999) is 24 characters of `ISO_SHAPE`: a text of another length or
  // shape, or of no real day or time, is never `new Date(ms).toISOString()`.
  if (ts.length !== 24) return ts;
  return isoFormMs(ts) === ms ? null : ts;
}

/**
 * The time a text in the ISO form `YYYY-MM-DDTHH:mm:ss.sssZ` of a real day and time of day stands for; undefined for
 * any other text. Equal to `ms` exactly when `new Date(ms).toISOString()` is the text (the form has one text per
 * time), without formatting a date per record: a row's timestamp was a tenth of a parse worker's own time. The day
 * is looked up once per distinct day (`dayStartMs`).
 */
function isoFormMs(ts: string): number | undefined {
  for (let i = 0; i < ISO_SHAPE.length; i++) {
    const c = ts.charCodeAt(i);
    const want = ISO_SHAPE.charCodeAt(i);
    if (want === DIGIT ? c < 0x30 || c > 0x39 : c !== want) return undefined;
  }
  const hours = digitsAt(ts, 11, 2);
  const minutes = digitsAt(ts, 14, 2);
  const seconds = digitsAt(ts, 17, 2);
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const day = dayStartMs(ts.slice(0, 10));
  if (day === undefined) return undefined;
  return day + ((hours * 60 + minutes) * 60 + seconds) * 1000 + digitsAt(ts, 20, 3);
}

/** The ISO form, a digit written `9`. */
const ISO_SHAPE = '9999-99-99T99:99:99.999Z';
const DIGIT = 0x39;

function digitsAt(text: string, from: number, length: number): number {
  let n = 0;
  for (let i = from; i < from + length; i++) n = n * 10 + (text.charCodeAt(i) - 0x30);
  return n;
}

/** Midnight (UTC) of each `YYYY-MM-DD` met, or NaN for one that is no day (`Date.parse` takes 02-30 for 03-02). */
const dayStarts = new Map<string, number>();

function dayStartMs(date: string): number | undefined {
  let ms = dayStarts.get(date);
  if (ms === undefined) {
    const parsed = Date.parse(`${date}T00:00:00.000Z`);
    ms = Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== date ? Number.NaN : parsed;
    // A few days per session: bounded anyway, for a process that reads years of them.
    if (dayStarts.size >= 4096) dayStarts.clear();
    dayStarts.set(date, ms);
  }
  return Number.isNaN(ms) ? undefined : ms;
}

/** What a row keeps of a uuid: the 16 bytes of a canonical one, else the text as written (see `UUID`). */
export function storedUuid(uuid: string | undefined | null): string | Buffer | null {
  if (uuid === undefined || uuid === null) return null;
  return canonicalUuidBytes(uuid) ?? uuid;
}

/**
 * The 16 bytes of a canonical uuid (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lower-case hex), else undefined. Read
 * in one pass (every record has a uuid): no pattern test, no text without the dashes, no hex decoding after it.
 */
function canonicalUuidBytes(uuid: string): Buffer | undefined {
  if (uuid.length !== 36) return undefined;
  const bytes = Buffer.allocUnsafe(16);
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (at === 8 || at === 13 || at === 18 || at === 23) {
      if (uuid.charCodeAt(at) !== DASH) return undefined;
      at += 1;
    }
    const high = hexValue(uuid.charCodeAt(at));
    const low = hexValue(uuid.charCodeAt(at + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[i] = high * 16 + low;
    at += 2;
  }
  return bytes;
}

const DASH = 0x2d;

/** A lower-case hex digit's value, else -1. */
function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

const hexPart = (from: number, length?: number) =>
  `substr(hex(uuid_raw), ${from}${length === undefined ? '' : `, ${length}`})`;
/** `uuid`, computed: the canonical text of stored bytes, else the text as written. */
export const UUID = `TEXT GENERATED ALWAYS AS (CASE WHEN typeof(uuid_raw) = 'blob' THEN lower(${hexPart(1, 8)} || '-' ||
  ${hexPart(9, 4)} || '-' || ${hexPart(13, 4)} || '-' || ${hexPart(17, 4)} || '-' || ${hexPart(21)}) ELSE uuid_raw END)`;

/** The kinds of records and documents, numbered from 1 (`kind_raw`); another kind is stored as its text. */
// Never renumbered (only appended to): a stored number means its kind here.
export const RECORD_KINDS = [
  'user',
  'assistant',
  'system',
  'attachment',
  'progress',
  'last-prompt',
  'queue-operation',
  'file-history-snapshot',
  'cost-state',
  'meta',
] as const;
/**
 * What a searchable document is (`docPartsOf`), and what `search --kind` takes: a prompt, a reply, thinking, a tool's
 * input or output, or a note the timeline shows (a slash command, what it printed, a compaction's summary). Stored
 * by number: a kind is only ever added at the end.
 */
export const DOC_KINDS = ['prompt', 'assistant', 'thinking', 'tool-input', 'tool-output', 'note'] as const;

/** What a row keeps of a kind: its number in `kinds` as text (the column's affinity is text), else the kind. */
export function storedKind(kind: string, kinds: readonly string[]): string {
  const index = kinds.indexOf(kind);
  return index === -1 ? kind : String(index + 1);
}

export const KIND = (kinds: readonly string[]) =>
  `TEXT GENERATED ALWAYS AS (CASE kind_raw ${kinds.map((k, i) => `WHEN '${i + 1}' THEN '${k}'`).join(' ')} ELSE kind_raw END)`;
