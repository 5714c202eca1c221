import { expect, it } from 'vitest';

// The public API is a reviewed artifact: a change to what core exports shows up in this snapshot.
it('core exports exactly the reviewed public API', async () => {
  const root = Object.keys(await import('./index.js')).sort();
  const model = Object.keys(await import('./model/index.js')).sort();
  const present = Object.keys(await import('./present/index.js')).sort();
  await expect(
    `# @agentdash/core\n${root.join('\n')}\n\n# @agentdash/core/model\n${model.join('\n')}\n` +
      `\n# @agentdash/core/present\n${present.join('\n')}\n`,
  ).toMatchFileSnapshot('./__snapshots__/exports.txt');
});

it('the browser-safe model and presentation rules import nothing from Node', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  // present/ imports nothing outside itself but the (browser-safe) model, so the web can bundle it whole.
  const rules = { model: /from 'node:|require\(/, present: /from 'node:|from '\.\.\/(?!model\/)|require\(/ };
  const offenders = Object.entries(rules).flatMap(([folder, rule]) => {
    const dir = join(import.meta.dirname, folder);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => rule.test(readFileSync(join(dir, f), 'utf8')))
      .map((f) => `${folder}/${f}`);
  });
  expect(offenders).toEqual([]);
});
