import { describe, expect, it } from 'vitest';
import { typeCopilotInput } from './type-input.js';

describe('typeCopilotInput: its shell tools', () => {
  it('says `powershell` runs its command in PowerShell, `bash` in a POSIX shell', () => {
    expect(typeCopilotInput('powershell', { command: 'Get-Content README.md', description: 'Read' })).toEqual({
      command: 'Get-Content README.md',
      description: 'Read',
      shell: 'powershell',
    });
    expect(typeCopilotInput('bash', { command: 'cat README.md' })).toEqual({ command: 'cat README.md' });
  });
});
