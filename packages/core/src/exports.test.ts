import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// The public API is a reviewed artifact: a change to what core exports shows up in this snapshot.
it('core exports exactly the reviewed public API', async () => {
  // Every entry point of package.json `exports`, with the names it gives at run time.
  const entries: Record<string, Promise<object>> = {
    '@agentdash/core': import('./index.js'),
    '@agentdash/core/base': import('./base.js'),
    '@agentdash/core/model': import('./model/index.js'),
    '@agentdash/core/present': import('./present/index.js'),
    '@agentdash/core/secrets': import('./secrets/index.js'),
    '@agentdash/core/secrets/planted': import('./secrets/planted.js'),
    '@agentdash/core/time': import('./time/index.js'),
    '@agentdash/core/usage': import('./usage/index.js'),
  };
  const { exports } = JSON.parse(readFileSync(join(import.meta.dirname, '../package.json'), 'utf8')) as {
    exports: Record<string, unknown>;
  };
  expect(
    Object.keys(exports)
      .map((path) => path.replace(/^\./, '@agentdash/core'))
      .sort(),
  ).toEqual(Object.keys(entries).sort());
  const sections = await Promise.all(
    Object.entries(entries).map(
      async ([name, module]) =>
        `# ${name}\n${Object.keys(await module)
          .sort()
          .join('\n')}\n`,
    ),
  );
  await expect(sections.join('\n')).toMatchFileSnapshot('./__snapshots__/exports.txt');
});

it('the browser-safe model and presentation rules import nothing from Node', async () => {
  const { readdirSync } = await import('node:fs');
  // present/ and time/ import nothing outside themselves but the (browser-safe) model: the web bundles them.
  const own = /from 'node:|from '\.\.\/(?!model\/)|require\(/;
  const rules = { model: /from 'node:|require\(/, present: own, time: own };
  const offenders = Object.entries(rules).flatMap(([folder, rule]) => {
    const dir = join(import.meta.dirname, folder);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => rule.test(readFileSync(join(dir, f), 'utf8')))
      .map((f) => `${folder}/${f}`);
  });
  expect(offenders).toEqual([]);
});
