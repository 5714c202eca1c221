/**
 * The sessions list's filters and order in the page's address (`#/?q=…&errors=1&sort=costUsd`), so Back from a
 * session, a reload or a shared link shows the same list. Defaults are left out: a plain list is `#/`.
 */
import { agentParam } from '../../ui/page-address';
import { type Filters, NO_FILTERS, SORT_KEYS, type Sort, type SortKey } from './use-session-list';

export const DEFAULT_SORT: Sort = { key: 'startedAt', dir: -1 };

/** The first direction a column sorts in (names A→Z, figures largest first), as the table's headers do. */
export const firstDir = (key: SortKey): 1 | -1 => (key === 'title' || key === 'project' ? 1 : -1);

/** The text filters and their names in the address. */
const TEXTS = [
  ['q', 'q'],
  ['project', 'project'],
  ['model', 'model'],
  ['version', 'version'],
  ['since', 'since'],
  ['until', 'until'],
  ['file', 'file'],
] as const satisfies readonly (readonly [keyof Filters, string])[];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The list's state of an address's query (`URLSearchParams` text); what it does not say, or says wrong, is default. */
export function listStateOf(query: string): { filters: Filters; sort: Sort } {
  const params = new URLSearchParams(query);
  const filters: { -readonly [K in keyof Filters]: Filters[K] } = { ...NO_FILTERS };
  for (const [field, name] of TEXTS) {
    const value = params.get(name);
    if (value === null) continue;
    if ((field === 'since' || field === 'until') && !DATE.test(value)) continue;
    filters[field] = value;
  }
  filters.agent = agentParam(params);
  filters.hasErrors = params.get('errors') === '1';
  filters.showEmpty = params.get('empty') === '1';
  const key = params.get('sort') as SortKey | null;
  const sortKey = key !== null && (SORT_KEYS as readonly string[]).includes(key) ? key : DEFAULT_SORT.key;
  const dir = params.get('dir');
  const sort: Sort = {
    key: sortKey,
    dir: dir === 'asc' ? 1 : dir === 'desc' ? -1 : key === null ? DEFAULT_SORT.dir : firstDir(sortKey),
  };
  return { filters, sort };
}

/** The list of the sessions that touched a file (a Files page's link): `#/?file=…`. */
export const touchedFileHref = (path: string): string =>
  `#/?${listQueryOf({ ...NO_FILTERS, file: path }, DEFAULT_SORT)}`;

/** The address's query for a list state (empty for the plain list). */
export function listQueryOf(filters: Filters, sort: Sort): string {
  const params = new URLSearchParams();
  for (const [field, name] of TEXTS) if (filters[field] !== '') params.set(name, filters[field]);
  if (filters.agent !== '') params.set('agent', filters.agent);
  if (filters.hasErrors) params.set('errors', '1');
  if (filters.showEmpty) params.set('empty', '1');
  if (sort.key !== DEFAULT_SORT.key || sort.dir !== DEFAULT_SORT.dir) {
    params.set('sort', sort.key);
    if (sort.dir !== firstDir(sort.key)) params.set('dir', sort.dir === 1 ? 'asc' : 'desc');
  }
  return params.toString();
}
