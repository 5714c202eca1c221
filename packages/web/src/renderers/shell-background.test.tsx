/**
 * A command sent to the background shows what the client told the model: its task id and the file its output goes
 * to (corpus 2.1.330 shell, bgect3tr0). Its stdout is empty, and the terminal said "(no output)", hiding the path the
 * model was given to read.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TypedResult } from '../data/types';
import { BashRenderer } from './shell';
import { callOf } from './test-call';

const MESSAGE =
  'Command running in background with ID: bgect3tr0. Output is being written to: /tmp/claude-0/tasks/bgect3tr0.output.';

describe('a background Bash call', () => {
  it("shows the client's message, not (no output)", () => {
    const typed = {
      kind: 'bash',
      data: { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: 'bgect3tr0' },
    } as unknown as TypedResult;
    const html = renderToStaticMarkup(
      <BashRenderer call={callOf('Bash', { command: 'sleep 5', run_in_background: true }, MESSAGE, typed, 'bash')} />,
    );
    expect(html).toContain('/tmp/claude-0/tasks/bgect3tr0.output');
    expect(html).not.toContain('(no output)');
  });
});
