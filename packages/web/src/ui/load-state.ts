/**
 * Where a page's data stands: not come yet, could not be had, or here. An empty chart or count says what it says
 * ("No errors.", "0 tools") only of data that came: before, or after a failed request, it would be a false answer.
 */
export type LoadState = 'loading' | 'failed' | 'loaded';

/** The state of `data` asked for, given the last request's error. */
export function loadStateOf(data: unknown, error: string | undefined): LoadState {
  if (data !== undefined) return 'loaded';
  return error === undefined ? 'loading' : 'failed';
}

/** What an empty chart says: `none` of data that came, else that it is coming or could not be had. */
export function emptyNote(state: LoadState, none: string): string {
  return state === 'loaded' ? none : state === 'loading' ? 'Loading…' : 'Not loaded.';
}
