import { describe, expect, it } from 'vitest';
import { toolColour } from './waterfall-geometry';

describe("a waterfall bar's colour", () => {
  it('is never a red (red marks a failed call), whatever the tool is called (before: exec_command, hue 341)', () => {
    const names = [
      'exec_command',
      'write_stdin',
      'apply_patch',
      'run_shell_command',
      'mcp__x__y',
      'shell',
      'view_image',
    ];
    for (let i = 0; i < 500; i++) names.push(`tool_${i}`);
    for (const name of names) {
      const hue = Number(/^hsl\((\d+),/.exec(toolColour(name))?.[1] ?? '40');
      expect(hue >= 20 && hue < 320, `${name}: hue ${hue}`).toBe(true);
    }
  });
});
