import { agentInfos } from '@agentdash/core/base';
import { expect, it } from 'vitest';
import { run } from './run.js';

it('the main help names every agent of the registry (help text comes from `agentInfos`)', async () => {
  const written: string[] = [];
  const code = await run(['--help'], {
    stdout: {
      write: (text: string) => {
        written.push(text);
        return true;
      },
    },
    stderr: { write: () => true },
    env: { COLUMNS: '400' },
    homedir: '/nonexistent',
    now: Date.now,
  });
  expect(code).toBe(0);
  const firstLine = written.join('').split('\n')[0] ?? '';
  expect(agentInfos.filter((agent) => !firstLine.includes(agent.label)).map((agent) => agent.label)).toEqual([]);
});
