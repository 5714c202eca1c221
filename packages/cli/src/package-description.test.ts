/**
 * The CLI package's description (what npm shows) names the agents whose transcripts it reads. It is not derived from
 * the registry, so it is edited by hand for each agent (docs/ARCHITECTURE.md, "Adding an agent"): this fails until the
 * description names the new one too.
 */
import { readFileSync } from 'node:fs';
import { agentInfos } from '@agentdash/core/base';
import { expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { description: string };

it("names every registered agent's label", () => {
  const missing = agentInfos.map((agent) => agent.label).filter((label) => !pkg.description.includes(label));
  expect(missing).toEqual([]);
});
