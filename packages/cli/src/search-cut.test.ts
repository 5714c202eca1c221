/** Search reads each text up to MAX_DOC_CHARS characters: a word past that in a huge output says so when missed. */
import { join } from 'node:path';
import { MAX_DOC_CHARS } from '@agentdash/index';
import { basesOf, prompt, toolResult, toolUse, writeLines } from '@agentdash/testing/synthetic';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox } from '../test/cli-sandbox.js';

const t = cliSandbox('agentdash-search-cut-');
let home = '';
beforeAll(() => {
  home = join(t.dir, 'claude');
  const id = '5ea4c000-0000-4000-8000-000000000001';
  const at = basesOf(id);
  const output = `EARLYWORD ${'x '.repeat(MAX_DOC_CHARS / 2)} LATEWORD`;
  writeLines(join(home, 'projects', '-home-user-p', `${id}.jsonl`), [
    prompt(at('u1', null, 1), 'Print the log'),
    toolUse(at('a1', 'u1', 2), 'msg_cut_1', 'toolu_cut_1', 'Bash', { command: 'cat log' }),
    toolResult(at('r1', 'a1', 3), 'toolu_cut_1', output, false),
  ]);
});

describe('search over a text longer than it reads', () => {
  it('finds the start of it, and says how much of each text it reads when it finds nothing', async () => {
    const early = await t.cli(['search', 'EARLYWORD', home]);
    expect([early.code, early.stdout.includes('toolu_cut_1') || early.stdout.includes('Bash')]).toEqual([0, true]);
    const late = await t.cli(['search', 'LATEWORD', home]);
    expect([late.code, late.stdout]).toEqual([
      0,
      'No matches for "LATEWORD" (each text is searched in its first 200,000 characters).\n',
    ]);
    expect((await t.cli(['search', '--help'])).stdout).toContain(
      'Each text is searched in its first 200,000 characters',
    );
  });
});
