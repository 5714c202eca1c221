/**
 * At the summary tier no session id that names something leaves the laptop. A Claude Code transcript whose records
 * carry no session id is named by its file (../shared/wild agentsview-1 `valid_session.jsonl`): copied to
 * `acme-merger-with-globex-plan.jsonl`, the summary tier sent that name as its session id (review finding).
 */
import { describe, expect, it } from 'vitest';
import { idsOut } from './build.js';
import { opaqueSessionId } from './hash.js';

const SALT = 'ab'.repeat(32);

describe('idsOut at the summary tier', () => {
  it("hashes a session id no agent generated (a file's name), and its calls' ids that start with it", () => {
    const ids = idsOut(SALT, 'claude', 'summary');
    const named = 'acme-merger-with-globex-plan';
    expect(ids.session(named)).toBe(opaqueSessionId(SALT, 'claude', named));
    expect(ids.call(`${named}-call-1`, named)).toBe(`${opaqueSessionId(SALT, 'claude', named)}-call-1`);
  });

  it('keeps the ids agents generate: UUIDs, prefixed random ids, ids hashed before', () => {
    const ids = idsOut(SALT, 'claude', 'summary');
    for (const id of [
      '3fce98dc-5e90-4a35-bec0-ab4a1db156d8',
      'ses_dda116cbfffeK2aSE5VbX8nMmn',
      `h-${'0'.repeat(32)}`,
    ]) {
      expect(ids.session(id)).toBe(id);
    }
    // above the summary tier the name is the session's, shared with its title and path
    expect(idsOut(SALT, 'claude', 'metadata').session('acme-merger-with-globex-plan')).toBe(
      'acme-merger-with-globex-plan',
    );
  });
});
