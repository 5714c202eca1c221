import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { rendererFor } from './index';
import { callOf } from './test-call';

// A Codex `exec` call as 0.145 wrote it (../shared/wild-agents, entire-graph-5): a JavaScript script calling the
// agent's tools, its result the script's output; the adapter reads the commands it runs into `typedInput.commands`.
const script =
  'const r = await tools.exec_command({cmd:"entire agent-help","workdir":"/p"}); text(r.output)\n' +
  'const s = await tools.exec_command({cmd:"git status --short","workdir":"/p"}); text(s.output)\n';
const output = 'Script completed\nWall time 0.3 seconds\nOutput:\n';
const typed = { kind: 'unknown', tool: 'exec', content: [{ kind: 'text', text: output }] } as unknown as TypedResult;

describe("a script's call (Codex exec)", () => {
  it('lists the commands it runs, each as a shell line, above its script and output', () => {
    const call = callOf('exec', { input: script }, output, typed, null, {
      commands: ['entire agent-help', 'git status --short'],
    });
    const Renderer = rendererFor(call);
    const html = renderToStaticMarkup(<Renderer call={call} />);
    const commands = /data-testid="script-commands"[^>]*>([\s\S]*?)<\/pre>/.exec(html)?.[1];
    expect(commands).toBe('$ entire agent-help\n$ git status --short');
    expect(html.indexOf('script-commands')).toBeLessThan(html.indexOf('tools.exec_command'));
    expect(html).toContain('Script completed');
  });

  it('shows no command list for a call that names none', () => {
    const call = callOf('exec', { input: 'text(1 + 1)' }, '2', typed, null, {});
    const Renderer = rendererFor(call);
    expect(renderToStaticMarkup(<Renderer call={call} />)).not.toContain('script-commands');
  });
});
