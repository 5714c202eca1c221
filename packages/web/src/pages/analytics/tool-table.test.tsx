import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fmtPercent } from '../../ui/format';
import { ToolTable } from './ToolTable';
import type { ToolStat } from './use-analytics';

describe('ToolTable', () => {
  it("gives each tool's error rate of the errors not expected, as the cards count them", () => {
    const bash: ToolStat = {
      tool: 'Bash',
      name: 'Bash',
      calls: 200,
      errors: 30,
      expectedErrors: 10,
      realErrors: 20,
      okCalls: 170,
      errorRate: 30 / 200,
      ratePct: 15,
      p50: 100,
      p95: 200,
      max: 300,
      categories: {},
    };
    const html = renderToStaticMarkup(<ToolTable tools={[bash]} drillTool={() => {}} />);
    const cells = [...html.matchAll(/<td class="num">(.*?)<\/td>/g)].map((m) => m[1]);
    expect(cells[2]).toBe(fmtPercent(0.1));
    expect(html).toContain('+10');
  });
});
