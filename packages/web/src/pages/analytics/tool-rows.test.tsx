import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { StatsResponse } from '../../data/types';
import { ToolTable } from './ToolTable';
import { toolRows } from './tool-rows';

const stat = (tool: string, names?: readonly string[]): StatsResponse['tools'][number] => ({
  tool,
  ...(names ? { names } : {}),
  calls: 7,
  errors: 3,
  expectedErrors: 0,
  errorRate: 3 / 7,
  p50: 10,
  p95: 20,
  max: 30,
  categories: {},
});

describe("a tool's name on the analytics page", () => {
  const rows = toolRows([stat('mcp__rec__echo'), stat('Agent', ['Task', 'Agent'])]);

  it('is the one the table writes, in the charts too (before: mcp:rec__echo in the charts, mcp__rec__echo in the table)', () => {
    const html = renderToStaticMarkup(<ToolTable tools={rows} drillTool={() => {}} />);
    const cells = [...html.matchAll(/<td class="mono">(.*?)<\/td>/g)].map((m) => m[1]);
    expect(rows.map((r) => r.name)).toEqual(['mcp__rec__echo', 'Agent (Task)']);
    expect(cells).toEqual(rows.map((r) => r.name));
  });
});
