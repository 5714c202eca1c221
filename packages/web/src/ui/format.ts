export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 59.5) return `${s < 9.95 ? s.toFixed(1) : Math.round(s)} s`;
  // round to the unit shown first, so no lower unit ever reads 60
  const whole = Math.round(s);
  const m = Math.floor(whole / 60);
  if (m < 60) return `${m}m ${whole % 60}s`;
  const minutes = Math.round(s / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function fmtNumber(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (Math.abs(n) >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (Math.abs(n) >= 10_000) return `${(n / 1000).toFixed(1)}k`;
  return n.toLocaleString('en-US');
}

export function fmtBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function fmtPercent(x: number): string {
  if (x === 0) return '0%';
  if (x < 0.01) return '<1%';
  return `${Math.round(x * 100)}%`;
}

/** `Jul 22, 23:57`; with the year when it is not this year (`Sep 3, 2025, 00:52`). */
export function fmtDate(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return d.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    ...(d.getFullYear() === new Date(now).getFullYear() ? {} : { year: 'numeric' }),
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

/** `5 min ago`, `3 h ago`, `2 d ago` within a week; undefined beyond (the date says it then). */
export function fmtRecent(iso: string | null | undefined, now = Date.now()): string | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  if (Number.isNaN(t) || now - t >= 86400 * 7 * 1000) return undefined;
  return fmtRelative(iso, now);
}

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

export function fmtRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = Math.round((now - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 86400 * 7) return `${Math.floor(s / 86400)} d ago`;
  return fmtDate(iso);
}

/** Last two path segments: enough to recognise a project. */
export function shortPath(path: string | null | undefined): string {
  if (!path) return '—';
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? path : `…/${parts.slice(-2).join('/')}`;
}

export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

export type Obj = Readonly<Record<string, unknown>>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
export const arr = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/** `$1.23`, `$0.042`; `unknown` when no price is known; `$1.23 + ?` when some models have none. */
export function fmtCost(cost: number | null | undefined, unpriced: readonly string[] = []): string {
  if (cost === null || cost === undefined) return 'unknown';
  const text = cost >= 1 || cost === 0 ? `$${cost.toFixed(2)}` : `$${cost.toPrecision(2)}`;
  return unpriced.length > 0 ? `${text} + ?` : text;
}
