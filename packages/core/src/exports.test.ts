import { expect, it } from 'vitest';

// The public API is a reviewed artifact: a change to what core exports shows up in this snapshot.
it('core exports exactly the reviewed public API', async () => {
  const root = Object.keys(await import('./index.js')).sort();
  const model = Object.keys(await import('./model/index.js')).sort();
  await expect(
    `# @agentdash/core\n${root.join('\n')}\n\n# @agentdash/core/model\n${model.join('\n')}\n`,
  ).toMatchFileSnapshot('./__snapshots__/exports.txt');
});

it('the browser-safe model imports nothing from Node', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = join(import.meta.dirname, 'model');
  const offenders = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .filter((f) => /from 'node:|require\(/.test(readFileSync(join(dir, f), 'utf8')));
  expect(offenders).toEqual([]);
});
