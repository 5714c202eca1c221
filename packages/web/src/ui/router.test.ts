import { afterEach, describe, expect, it } from 'vitest';
import { replaceHash } from './router';

/** A window with only what `replaceHash` touches: the address's hash and `history.replaceState`. */
function fakeWindow(hash: string) {
  const location = { hash };
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, url: string) => {
      location.hash = url;
    },
  };
  (globalThis as { window?: unknown }).window = { location, history };
  return location;
}

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe("a page's state in the address", () => {
  it('replaces the address of the same page', () => {
    const location = fakeWindow('#/?q=a');
    replaceHash('#/?q=b');
    expect(location.hash).toBe('#/?q=b');
  });

  it("does not undo a navigation away: the list's late replacement after a click on a session", () => {
    const location = fakeWindow('#/?q=a');
    location.hash = '#/s/abc'; // the click on a row navigated
    replaceHash('#/?q=a&sort=costUsd'); // the list's delayed write of its state comes after
    expect(location.hash).toBe('#/s/abc');
  });
});
